"""`scoreboard live`: the boxes' scores as they are played, for streams and the bar's TV.

Each box writes every journal line on its USB console as it writes it to flash
(`firmware/scoreboard/echo.py`: `SB> STEM N TEXT *CRC`). This package reads those
lines from one or many boxes, keeps each table's match by replaying them with the
firmware's own core, and serves pages and data on loopback (beyond it when asked):

    table.py    one table: its journal lines, the core's replay of them, its JSON
    link.py     one box: the serial reader, the catch-up and healing from the journal
                through the sync path (host_tools/results/sync.py), signal lost and back
    results.py  with --db: finished matches stored and marked as `scoreboard sync`
                does; on PostgreSQL a live row per table and a NOTIFY per change
    stream.py   the tables and their numbered events (the Hub), and /api/stream
    server.py   the web server (aiohttp): the pages in static/, /api/tables, /api/desk,
                module-level handlers on a route table, their state in the app's keys
    guard.py    who may ask what: the Host header, the desk's token beyond loopback
    words.py    the pages' words in the language of `--lang`, from the box's tables
    desk.py     with `scoreboard desk`: the tournaments' pages and actions (over
                host_tools/tournament), a `tournament` event for every change
    onbox.py    the desk's exchanges with a table's box for a tournament match (queue,
                withdraw, who it is), which `scoreboard tournament` uses too
    follow.py   serve(): the hub, the web server and a Follower (the tables followed:
                their links, their numbers), for `scoreboard live`
                (host_tools/commands/live.py: the command line)

May import the firmware, `host_tools.device`, `host_tools.results`, `host_tools.mp`,
`host_tools.tournament` (the desk's library) and the top-level modules; never the
commands or the developer's bench.
"""
