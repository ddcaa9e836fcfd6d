"""`scoreboard setup [--port PORT] FILE`: queue prepared matches on the box.

FILE is one `.sbn` header, or a CSV draw with one match per row. CSV columns (a header
row names them; case and order do not matter):

    table     the table number (used in the queue file's name and the match id)
    a, b      the side names (also `side_a`/`side_b` or `player_a`/`player_b`; or one
              `players` column "Ann v Bob"); two names a side as "Ann & Cy" (doubles)
    game      snooker | snooker reds=10 | eightball | nineball | tenball | straight
    format    best-of 7 | frames 4 by points | race-to 5 | points 100
    clock     optional: shot=45 warn=10 ext=1x25 ...
    breaks    optional: alternate | winner | loser

Each match gets its `id` and `date` from the host: `date` is now (or --date), `id` is
`PREFIX-YYMMDDHHMM-TT-NN` (table TT, row NN), unique per match across the club's boxes.
Each header is checked by the core's reader before anything is sent; the box gets
queue/NAME.sbn files (plain header lines, written as NAME.new then renamed, so a cut
never leaves half a header), which its start screen offers.
"""

import csv
import io
import re
import sys
from datetime import datetime
from pathlib import Path

import host_tools  # noqa: F401  (puts the firmware on the path)
from host_tools.sync_board import Board, BoardError
from scoreboard.core.notation import NotationError, Reader

QUEUE = "queue"
_ALIASES = {"a": ("a", "side_a", "player_a", "side a", "player a"),
            "b": ("b", "side_b", "player_b", "side b", "player b")}


class SetupError(Exception):
    """One line: what is wrong with the input."""


def quote(name):
    return '"%s"' % name.replace("\\", "\\\\").replace('"', '\\"')


def check_header(lines, where):
    """The core's Header of `lines`, or SetupError naming `where` and the reason."""
    reader = Reader()
    try:
        for i, line in enumerate(lines):
            if reader.feed(line) is not None:
                raise SetupError("%s line %d: only header lines can be queued" % (where, i + 1))
        reader.finish()
    except NotationError as e:
        raise SetupError("%s: %s" % (where, e)) from None
    return reader.header


def _cell(row, *names):
    for n in names:
        if row.get(n):
            return row[n].strip()
    return ""


def _sides(row, where):
    a = _cell(row, *_ALIASES["a"])
    b = _cell(row, *_ALIASES["b"])
    if not (a and b) and row.get("players"):
        parts = re.split(r"\s+(?:v|vs|-)\.?\s+", row["players"].strip(), maxsplit=1)
        if len(parts) == 2:
            a, b = parts
    if not (a and b):
        raise SetupError("%s: two sides needed (columns a and b, or players \"A v B\")" % where)
    return [quote(n.strip()) for n in a.split("&")], [quote(n.strip()) for n in b.split("&")]


def match_id(prefix, when, table, n):
    tt = re.sub(r"[^A-Za-z0-9]", "", table) or "0"
    return "%s-%s-%s-%02d" % (prefix, when.strftime("%y%m%d%H%M"), tt, n)


def from_csv(text, prefix, when, source="draw"):
    """[(queue name, header lines)] for each row of a CSV draw."""
    rows = list(csv.DictReader(io.StringIO(text)))
    if not rows:
        raise SetupError("%s: no matches in it (a header row, then one row per match)" % source)
    out = []
    for n, raw in enumerate(rows, 1):
        row = {(k or "").strip().lower(): (v or "") for k, v in raw.items()}
        where = "%s row %d" % (source, n + 1)
        table = _cell(row, "table") or str(n)
        game = _cell(row, "game")
        fmt = _cell(row, "format", "match")
        if not game or not fmt:
            raise SetupError("%s: the game and format columns are needed" % where)
        a, b = _sides(row, where)
        mid = match_id(prefix, when, table, n)
        lines = ["sbn 1", "id " + mid, "date " + when.strftime("%Y-%m-%dT%H:%M"),
                 "game " + game, "match " + fmt]
        if _cell(row, "breaks"):
            lines.append("breaks " + _cell(row, "breaks"))
        lines += ["side A " + " ".join(a), "side B " + " ".join(b)]
        if _cell(row, "clock"):
            lines.append("clock " + _cell(row, "clock"))
        check_header(lines, where)
        out.append(("t%s-%02d" % (re.sub(r"[^A-Za-z0-9]", "", table) or "0", n), lines))
    return out


def from_sbn(text, prefix, when, name):
    """[(queue name, header lines)] for one .sbn header; `id`/`date` set when missing."""
    lines = [ln.rstrip("\r") for ln in text.split("\n") if ln.strip()]
    header = check_header(lines, name)
    if header.id is None:
        lines.insert(1, "id " + match_id(prefix, when, "S", 1))
    if header.date is None:
        lines.insert(2, "date " + when.strftime("%Y-%m-%dT%H:%M"))
    check_header(lines, name)
    stem = re.sub(r"[^A-Za-z0-9_-]", "_", Path(name).stem) or "match"
    return [(stem, lines)]


def prepare(path, prefix="DESK", when=None):
    when = when or datetime.now()
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as e:
        raise SetupError("cannot read %s: %s" % (path, getattr(e, "strerror", None) or e)
                         ) from None
    if str(path).lower().endswith(".csv"):
        return from_csv(text, prefix, when, Path(path).name)
    return from_sbn(text, prefix, when, Path(path).name)


def send(board, queued, out=print):
    """Write each header to queue/NAME.sbn on the box (NAME.new, then a rename)."""
    board.mkdir(QUEUE)
    for name, lines in queued:
        data = ("\n".join(lines) + "\n").encode("utf-8")
        final = "%s/%s.sbn" % (QUEUE, name)
        board.write("%s/%s.new" % (QUEUE, name), data,
                    then="try:\n os.remove(%r)\nexcept OSError:\n pass\nos.rename(%r, %r)" % (
                        final, "%s/%s.new" % (QUEUE, name), final))
        out("queued %s: %s" % (final, " ".join(lines[1].split()[1:])))


def add_parser(sub):
    p = sub.add_parser("setup", help="queue prepared matches (a .sbn header or a CSV draw)")
    p.add_argument("file", help="a .sbn header, or a .csv draw (table, a, b, game, format, "
                                "clock)")
    p.add_argument("--port", default="auto", help="the board's serial port (default: auto)")
    p.add_argument("--prefix", default="DESK",
                   help="first part of the match ids the host sets (default: DESK)")
    p.add_argument("--date", default=None, help="the match date, YYYY-MM-DDTHH:MM (default: now)")
    p.set_defaults(run=run)


def run(args):
    try:
        when = datetime.strptime(args.date, "%Y-%m-%dT%H:%M") if args.date else None
    except ValueError:
        print("setup: --date %s: use YYYY-MM-DDTHH:MM" % args.date, file=sys.stderr)
        return 2
    if not re.fullmatch(r"[A-Za-z0-9_-]+", args.prefix):
        print("setup: --prefix: letters, digits, - and _ only", file=sys.stderr)
        return 2
    try:
        queued = prepare(args.file, args.prefix, when)
    except SetupError as e:
        print("setup: %s" % e, file=sys.stderr)
        return 2
    try:
        board = Board(args.port)
    except BoardError as e:
        print("setup: %s" % e, file=sys.stderr)
        return 1
    try:
        send(board, queued)
        board.restart_app()
    except BoardError as e:
        print("setup: %s" % e, file=sys.stderr)
        return 1
    finally:
        board.close()
    print("setup: %d match%s queued" % (len(queued), "" if len(queued) == 1 else "es"))
    return 0
