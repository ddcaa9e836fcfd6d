"""The options several commands share, and what a command opens from them.

`--port PORT` (one board: flash, setup, sync) and `--db URL` / `--db-file FILE` (the
results database: sync, export, report, list, tournament). The storage library
(host_tools/results/db) takes a URL and knows no command line: `open_chosen` turns the
options into one (`--db`, else `--db-file`'s first line that is not blank or a `#`
comment, else $SCOREBOARD_DB, else the default file) and opens it; `open_or_fail` is the
same with the reason said in one line, as every command says it. (`live` and `desk`
take a `--db` of their own: live stores nothing without one, commands/live.py.)
`--mqtt URL` and `--broker-dir DIR` (live, desk, sync): the boxes on the club's Wi-Fi,
through its broker (host_tools/mqtt/client.py).
"""

from host_tools.messages import fail
from host_tools.results.db import ENV, DbError, open_db, url_from


def add_port_option(p, default="auto", more=""):
    """--port: the one board a command talks to (default: auto, found by ports.py);
    `more`: what else the command does with it, said in its help."""
    p.add_argument("--port", default=default,
                   help="the board's serial port (default: auto)" + more)


def add_db_options(p):
    """--db and --db-file, as sync, export, report, list and tournament take them."""
    p.add_argument("--db", default=None,
                   help="results database: a file, sqlite:///FILE or postgresql://... "
                        "(default: $%s, else results.sqlite in the user's data "
                        "directory)" % ENV)
    p.add_argument("--db-file", default=None, metavar="FILE",
                   help="read the database URL from FILE (out of sight of `ps`)")


def add_mqtt_options(p, what):
    """--mqtt URL and --broker-dir (live, desk, sync)."""
    p.add_argument("--mqtt", default=None, metavar="URL",
                   help=what + " (mqtt://HOST[:PORT]; the desk's password from the broker's "
                               "folder)")
    p.add_argument("--broker-dir", default=None, metavar="DIR",
                   help="the broker's folder (`scoreboard broker --dir`), where the desk's "
                        "password is kept (default: the user's data folder)")


def open_chosen(args, create=True, bracket=None):
    """open_db for the database the command's options chose (add_db_options). `bracket`:
    what puts a tournament match's journal into its bracket (results/db's docstring);
    the commands that store matches pass host_tools/tournament/boxresults."""
    return open_db(url_from(args.db, args.db_file), create, bracket)


def open_or_fail(prog, args, create=False, bracket=None):
    """open_chosen, or None when the database does not open, its reason said in one
    line (`prog: why`, any password masked): the caller returns its exit status."""
    try:
        return open_chosen(args, create, bracket)
    except DbError as e:
        fail(prog, e)
        return None
