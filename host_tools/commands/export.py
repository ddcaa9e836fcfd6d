"""`scoreboard export [--db URL] --format csv|json [-o FILE]`: the results database out.

The arguments and the messages; the JSON and the CSV (what each holds, how the CSV is
made safe for a spreadsheet) are host_tools/results/export.py's.
"""

from host_tools.messages import fail, write_out
from host_tools.results.db import DbError, add_db_options, open_chosen
from host_tools.results.export import as_csv, as_json


def add_parser(sub):
    p = sub.add_parser("export", help="export the results database as CSV or JSON")
    add_db_options(p)
    p.add_argument("--format", required=True, choices=("csv", "json"))
    p.add_argument("-o", "--output", default=None, help="write here (default: stdout)")
    p.set_defaults(run=run)


def run(args):
    try:
        db = open_chosen(args, create=False)
    except DbError as e:
        fail("export", e)
        return 2
    try:
        text = as_json(db) if args.format == "json" else as_csv(db)
    except DbError as e:
        fail("export", e)
        return 2
    finally:
        db.close()
    if args.output is None:
        return write_out("export", text, exact=True)  # the same bytes as -o FILE
    try:
        with open(args.output, "w", encoding="utf-8", newline="") as f:
            f.write(text)
    except OSError as e:
        fail("export", "cannot write %s: %s" % (args.output, e.strerror or e))
        return 2
    return 0
