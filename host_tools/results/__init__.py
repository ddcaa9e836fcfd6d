"""Results: what goes onto the box and what comes off it, and out again.

`draw` makes the desk's draw into the headers `setup` queues on a box; `sync` pulls
the finished matches into the results database (`db`: SQLite or
PostgreSQL, the same SQL and migrations), `export` writes them as CSV or JSON and
`report` as one HTML page: the libraries behind those commands (host_tools/commands/).
May import the firmware's core, `host_tools.mp` (the notation's JSON) and the top-level
modules (`messages`, `paths`, `progress`); never the devices, live, the commands or the
developer's bench.
"""
