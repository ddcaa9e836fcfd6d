"""`scoreboard export [--db URL] --format csv|json [--lang en|pl|bg] [--delimiter C]
[-o FILE]`: the results database out (`--lang` and `--delimiter` are the CSV's).

The arguments and the messages; the JSON and the CSV (what each holds, how the CSV is
made safe for a spreadsheet) are host_tools/results/export.py's.
"""

from host_tools.messages import fail, one_of, write_out
from host_tools.results.db import DbError, add_db_options, open_chosen
from host_tools.results.export import DELIMITERS, as_csv, as_json, check_delimiter
from host_tools.results.report_lang import LANGS


def add_parser(sub):
    p = sub.add_parser("export", help="export the results database as CSV or JSON")
    add_db_options(p)
    p.add_argument("--format", required=True, choices=("csv", "json"))
    p.add_argument("--lang", default="en",
                   help="the CSV's header row in en, pl or bg; pl and bg also split the "
                        "cells by ; as their spreadsheets do (default: en, split by ,)")
    p.add_argument("--delimiter", default=None, metavar="C",
                   help="the CSV's cells split by C instead (one character, or tab)")
    p.add_argument("-o", "--output", default=None, help="write here (default: stdout)")
    p.set_defaults(run=run)


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
    try:
        db = open_chosen(args, create=False)
    except DbError as e:
        fail("export", e)
        return 2
    try:
        text = as_json(db) if args.format == "json" else as_csv(db, args.lang, delimiter)
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
