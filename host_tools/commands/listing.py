"""`scoreboard list [--db URL] [--json]`: what the results database holds, for the desk.

One line per match, oldest first: its id, the players with the result (`Ann 2-1 Bob`,
`, in play` for the copy of a match in play, `, abandoned`), its date, and the box when
the id was stored from more than one (the same draw set up on two boxes) or the version
when a correction made one. `--json`: a list with one object per match (`id`, `box`,
`date`, `sides`, `frames_won`, `winner`, `stored`, `version`). Names come from the box,
so every line is escaped for the terminal (messages.shown).

`scoreboard list --boxes [--port PORT ...]`: which box is at which table: every box
connected (or the ports given) asked its `hello` on the request channel, one line each:
the table its settings claim, its id, its port; two boxes claiming one table are a
conflict, said on their lines (tournament/identity.py's TableMap). The database is not
opened.
"""

import json
import sys
from collections import Counter

from host_tools.messages import fail, say, shown, write_out
from host_tools.commands.options import add_db_options, open_or_fail
from host_tools.results.db import DbError, result_text


def as_lines(matches):
    """The text listing: columns padded to the longest id and result."""
    per_id = Counter(m["id"] for m in matches)
    cells = []
    for m in matches:
        extra = []
        if per_id[m["id"]] > 1:
            extra.append("box %s" % (m["box"] or "''"))
        if m["version"] > 1:
            extra.append("version %d" % m["version"])
        cells.append((shown(m["id"]), shown(result_text(
            m["side_a"], m["side_b"], m["frames_a"], m["frames_b"], m["status"])),
            shown(m["date"] or "no date"), shown(", ".join(extra))))
    wide = [max((len(c[i]) for c in cells), default=0) for i in (0, 1)]
    return "".join(("%-*s  %-*s  %s%s" % (wide[0], c[0], wide[1], c[1], c[2],
                                          "  (%s)" % c[3] if c[3] else "")).rstrip() + "\n"
                   for c in cells)


def as_json(matches):
    out = [{"id": m["id"], "box": m["box"], "date": m["date"],
            "sides": {"A": m["side_a"], "B": m["side_b"]},
            "frames_won": {"A": m["frames_a"], "B": m["frames_b"]},
            "winner": m["winner"], "stored": m["status"], "version": m["version"]}
           for m in matches]
    # ensure_ascii: no control character of a name reaches the terminal raw.
    return json.dumps(out, indent=1) + "\n"


def add_parser(sub):
    p = sub.add_parser("list", help="list the matches in the results database")
    add_db_options(p)
    p.add_argument("--json", action="store_true", help="as JSON, one object per match")
    p.add_argument("--boxes", action="store_true",
                   help="which box is at which table (the boxes connected, asked over USB)")
    p.add_argument("--port", action="append", default=None,
                   help="with --boxes: a box's port (again for more; default: every box found)")
    p.set_defaults(run=run)


def boxes(ports):
    """[(port, box id, claimed table or None, why not heard or None)] of `ports`."""
    from host_tools.device.box import BoardError
    from host_tools.live import onbox

    out = []
    for port in ports:
        try:
            box, table = onbox.identity(port)
            out.append((port, box, table, None))
        except BoardError as e:
            out.append((port, None, None, (str(e).splitlines() or ["?"])[0]))
    return out


def run_boxes(args):
    from host_tools.device.ports import auto_ports
    from host_tools.tournament.identity import Claim, TableMap

    found = boxes(args.port or auto_ports())
    if not found:
        say("list: no box found: plug one in over USB, or give --port", sys.stderr)
        return 1
    heard = TableMap([Claim(box, table, port) for port, box, table, why in found if box])
    clash = heard.conflicts()
    if args.json:
        return write_out("list", json.dumps(
            [{"port": port, "box": box, "table": table, "conflict": table in clash,
              "error": why} for port, box, table, why in found], indent=1) + "\n")
    lines = []
    for table, c, conflict in heard.rows():
        lines.append("%-9s %s  %s%s" % ("table %d" % table if table else "no table",
                                        shown(c.box), c.where,
                                        "  (conflict: two boxes claim table %d)" % table
                                        if conflict else ""))
    lines += ["%-9s %s  %s" % ("?", "not heard", "%s: %s" % (port, why))
              for port, box, _, why in found if not box]
    return write_out("list", "".join(line + "\n" for line in lines))


def run(args):
    if args.boxes:
        return run_boxes(args)
    db = open_or_fail("list", args)
    if db is None:
        return 2
    try:
        matches = db.matches()
        where = db.where()
    except DbError as e:
        fail("list", e)
        return 2
    finally:
        db.close()
    if args.json:
        return write_out("list", as_json(matches))
    if not matches:
        say("list: no matches stored in %s" % where, sys.stderr)  # stdout stays empty
        return 0
    return write_out("list", as_lines(matches))
