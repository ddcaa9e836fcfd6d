"""`scoreboard export [--db URL] --format csv|json [-o FILE]`: the results database out.

JSON: a list with one object per match, oldest first: `id`, `date`, `sides` (A and B's
names), `stored` (finished, abandoned, or unfinished: the copy of the match in play),
then every key of NOTATION.md's replay JSON in its order (`game`, `status`, `winner`,
`frames_won`, `frames`, `current`, `result`, `timing`), as the core computed them when
the match was pulled. CSV: one row per frame (or rack): match id, date, game, frame
number, both names, both scores, the winner (A/B and name), how the frame ended, and
each side's breaks (space-separated). Both are UTF-8.
"""

import csv
import io
import json
import sys

from host_tools.db import DbError, open_db

CSV_COLUMNS = ("match_id", "date", "game", "frame", "side_a", "side_b", "score_a", "score_b",
               "winner", "winner_name", "how", "breaks_a", "breaks_b", "stored")


def as_json(db):
    out = []
    for m in db.matches():
        obj = {"id": m["id"], "date": m["date"],
               "sides": {"A": m["side_a"], "B": m["side_b"]}, "stored": m["status"]}
        obj.update(json.loads(m["report"]))
        out.append(obj)
    return json.dumps(out, indent=1, ensure_ascii=False) + "\n"


def as_csv(db):
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    for m in db.matches():
        names = {"A": m["side_a"], "B": m["side_b"]}
        for f in db.frames(m["id"]):
            w.writerow([m["id"], m["date"] or "", m["game"], f["number"], m["side_a"],
                        m["side_b"], _blank(f["score_a"]), _blank(f["score_b"]),
                        f["winner"] or "", names.get(f["winner"], ""), f["how"] or "",
                        f["breaks_a"], f["breaks_b"], m["status"]])
    return buf.getvalue()


def _blank(value):
    return "" if value is None else value


def add_parser(sub):
    p = sub.add_parser("export", help="export the results database as CSV or JSON")
    p.add_argument("--db", default=None, help="results database (default: the sync default)")
    p.add_argument("--format", required=True, choices=("csv", "json"))
    p.add_argument("-o", "--output", default=None, help="write here (default: stdout)")
    p.set_defaults(run=run)


def run(args):
    try:
        db = open_db(args.db, create=False)
    except DbError as e:
        print("export: %s" % e, file=sys.stderr)
        return 2
    try:
        text = as_json(db) if args.format == "json" else as_csv(db)
    except DbError as e:
        print("export: %s" % e, file=sys.stderr)
        return 2
    finally:
        db.close()
    if args.output is None:
        sys.stdout.write(text)
        return 0
    try:
        with open(args.output, "w", encoding="utf-8", newline="") as f:
            f.write(text)
    except OSError as e:
        print("export: cannot write %s: %s" % (args.output, e.strerror or e), file=sys.stderr)
        return 2
    return 0
