"""`scoreboard report MATCH_ID [--db URL] [-o FILE.html]`: one match as a web page.

The arguments and the messages; the page (its charts, its tables, its languages) is
host_tools/results/report.py's.
"""

from host_tools.messages import fail, one_of, say
from host_tools.commands.options import add_db_options, open_or_fail
from host_tools.results.db import DbError
from host_tools.results.report import page_of
from host_tools.results.report_lang import LANGS
from scoreboard.core.words import check_id


def add_parser(sub):
    p = sub.add_parser("report", help="one match as a self-contained HTML page")
    p.add_argument("match_id", metavar="MATCH_ID")
    p.add_argument("--box", default=None,
                   help="the box that made the match, when boxes share the id")
    add_db_options(p)
    p.add_argument("-o", "--output", default=None, help="the HTML file (default: MATCH_ID.html)")
    p.add_argument("--lang", default="en",
                   help="the page's language: en, pl or bg (default: en)")
    p.set_defaults(run=run)


def run(args):
    if args.lang not in LANGS:
        fail("report", "--lang %s: the page speaks %s" % (args.lang, one_of(LANGS)))
        return 2
    db = open_or_fail("report", args)
    if db is None:
        return 2
    try:
        match = db.match(args.match_id, args.box)
        if match is None:
            fail("report", "no match %s%s in %s" % (
                args.match_id, "" if args.box is None else " of box %s" % args.box,
                db.label))
            return 2
        page = page_of(db, match, args.lang)
    except DbError as e:
        fail("report", e)
        return 2
    finally:
        db.close()
    path = args.output
    if path is None:
        try:  # the file is named by the id: one that is no file name needs -o
            path = "%s.html" % check_id(match["id"], "match id")
        except ValueError as e:
            fail("report", "%s: give -o FILE.html" % e)
            return 2
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(page)
    except OSError as e:
        fail("report", "cannot write %s: %s" % (path, e.strerror or e))
        return 2
    say("report: %s" % path)
    return 0
