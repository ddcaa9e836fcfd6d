"""`scoreboard export [--db URL] --format csv|json [--rows frames|matches|placings]
[--tournament NAME] [--lang en|pl|bg] [--delimiter C] [-o FILE]`: the results database
out (`--lang` and `--delimiter` are the CSV's).

`--rows frames` (the default): one row per frame or rack of every match stored;
`matches`: one row per match, the tournaments' with their stage and round; `placings`:
the tournaments' final places. `--tournament NAME` (its name or id): that tournament's
rows only (matches, placings).

The arguments and the messages; the frames' JSON and CSV (what each holds, how the CSV
is made safe for a spreadsheet) are host_tools/results/export.py's, the matches' and
the placings' host_tools/tournament/export.py's.
"""

from host_tools.messages import fail, one_of, write_out
from host_tools.commands.options import add_db_options, open_or_fail
from host_tools.results.db import DbError
from host_tools.results.export import DELIMITERS, as_csv, as_json, check_delimiter
from host_tools.results.report_lang import LANGS
from host_tools.tournament import TournamentError
from host_tools.tournament import export as tournaments
from host_tools.tournament.says import text


def add_parser(sub):
    p = sub.add_parser("export", help="export the results database as CSV or JSON")
    add_db_options(p)
    p.add_argument("--format", required=True, choices=("csv", "json"))
    p.add_argument("--rows", default="frames", choices=tournaments.ROWS,
                   help="a row per frame or rack (the default), per match (the "
                        "tournaments' with their stage and round), or per player placed")
    p.add_argument("--tournament", default=None, metavar="NAME",
                   help="that tournament's matches or placings only (its name or id)")
    p.add_argument("--lang", default="en",
                   help="the CSV's header row and words in en, pl or bg; pl and bg also "
                        "split the cells by ; as their spreadsheets do (default: en, split "
                        "by ,)")
    p.add_argument("--delimiter", default=None, metavar="C",
                   help="the CSV's cells split by C instead (one character, or tab)")
    p.add_argument("-o", "--output", default=None, help="write here (default: stdout)")
    p.set_defaults(run=run)


def _text(db, args, delimiter):
    if args.rows == "frames":
        return as_json(db) if args.format == "json" else as_csv(db, args.lang, delimiter)
    if args.format == "json":
        return tournaments.as_json(db, args.rows, args.tournament)
    return tournaments.as_csv(db, args.rows, args.lang, delimiter, args.tournament)


def run(args):
    if args.lang not in LANGS:
        fail("export", "--lang %s: the CSV speaks %s" % (args.lang, one_of(LANGS)))
        return 2
    delimiter = DELIMITERS[args.lang]
    if args.delimiter is not None:
        try:
            delimiter = check_delimiter(args.delimiter)
        except ValueError as e:
            fail("export", e)
            return 2
    if args.format == "json" and (args.lang != "en" or args.delimiter is not None):
        fail("export", "--lang and --delimiter are for --format csv (JSON has neither)")
        return 2
    db = open_or_fail("export", args)
    if db is None:
        return 2
    if args.tournament is not None and args.rows == "frames":
        db.close()
        fail("export", "--tournament is for --rows matches or placings")
        return 2
    try:
        out = _text(db, args, delimiter)
    except DbError as e:
        fail("export", e)
        return 2
    except TournamentError as e:
        fail("export", text(e, args.lang))
        return 2
    finally:
        db.close()
    if args.output is None:
        return write_out("export", out, exact=True)  # the same bytes as -o FILE
    try:
        with open(args.output, "w", encoding="utf-8", newline="") as f:
            f.write(out)
    except OSError as e:
        fail("export", "cannot write %s: %s" % (args.output, e.strerror or e))
        return 2
    return 0
