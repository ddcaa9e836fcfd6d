"""`scoreboard desk [--db URL | --db-file FILE] [--bind ADDR] [--http-port N] [--lang
en|pl|bg] [--tables N] [--port PORT]...`: the tournament desk's web app, in the process
that follows the boxes: `scoreboard live` (its options, its server, its token beyond
loopback) with the desk's pages and actions too (host_tools/live/desk.py lists them),
over the tournaments of the results database (`scoreboard tournament`'s, the same
default). It prints the desk's address at its start (with the token beyond loopback:
every action needs it there, the pages stay open). `--tables N`: the club's tables on
the board, 1 to N (default 8), and any table a box is found on.
"""

from host_tools.commands import live
from host_tools.messages import fail

DEFAULT_TABLES = 8


def add_parser(sub):
    p = sub.add_parser("desk", help="the tournament desk's web app (the draw, the tables, "
                                    "the bracket), in the server of `live`")
    live.add_options(p, desk=True)
    p.add_argument("--tables", type=int, default=DEFAULT_TABLES, metavar="N",
                   help="the club's tables, 1 to N, on the board (default %d), and any a "
                        "box is found on" % DEFAULT_TABLES)
    p.set_defaults(run=run)


def run(args):
    if not 0 <= args.tables <= 999:
        fail("desk", "--tables %d: 0 to 999" % args.tables)
        return 2

    def made(url, log):
        from host_tools.live.desk import Desk
        from host_tools.tournament import boxresults

        return Desk(url, args.tables, log, bracket=boxresults)
    return live.run(args, "desk", made)
