"""Pulling the box's matches into the results DB: `scoreboard sync`'s library.

Every finished or abandoned match is copied, each journal line's checksum checked, the
match replayed by the core, stored keyed by its `id` in one transaction, and only after
the commit is `matches/ID.pulled` written on the box (docs/design.md, "Flash layout"). The
match in progress is copied too, marked unfinished, stays on the box unmarked, and the
next sync replaces the copy. So a transfer cut at any point loses nothing (the box keeps
every match it has not seen marked) and doubles nothing (the database is keyed by id and
an identical copy is a no-op); two syncs in a row add nothing. A damaged file (a bad line
before the end, or lines the rules refuse) is refused with its reason and left on the
box. A torn last line (a write cut by a power loss) is dropped, as the box's recovery does.
The box's `current` file names the match in play; an unfinished match that is not the
current one was left on the box (abandoned there): it is final, pulled and marked. Of a
match's continuations (ID.N.sbn, written by the box's recovery) the highest N is taken.

A stored match is bound to the device that delivered it (`device_identity`: the port's
USB serial number, a Pico's unique id; else the box id): another box's journal under its
id is refused. A tournament match's journal goes into the bracket only from the box the
match was assigned to (the box that answers, and the table it claims, are the store's
`origin`); any other, and a change the bracket cannot take, is held for the desk: a
`held` line, the file left unmarked on the box. A final result that changed on the box
is refused with its before and after until `--accept-corrections` takes it as the
match's next version. The sync names the database and the ids it stored.
"""

import contextlib
import hashlib
import os
import sys
from datetime import UTC, datetime
from pathlib import Path

import serial.tools.list_ports

import host_tools  # noqa: F401  (puts the firmware on the path)
from host_tools.results.db import FINAL, Conflict, Correction, Origin
from host_tools.messages import say, shown
from host_tools.progress import progress_bar
from scoreboard.core.notation import NotationError
from scoreboard.core.vocab import SIDES
from scoreboard.core.replay import replay
from host_tools.mp.replay_json import to_json
from scoreboard.core.words import check_id, strip_checksum

MATCHES = "matches"
_BAR_BYTES = 4096  # transfers at least this long get a progress bar


class Damaged(Exception):
    """Why a match file cannot be taken: one line."""


def check_journal(data):
    """(journal lines without line ends, note or None) of a match file's bytes.

    Raises Damaged for anything but a torn last line, which is dropped with a note.
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise Damaged("not UTF-8 text (byte %d)" % e.start) from None
    lines = text.split("\n")
    note = None
    if lines[-1] == "":
        lines.pop()
    else:
        lines.pop()
        note = "a torn last line (no line end) was dropped"
    lines = [ln[:-1] if ln.endswith("\r") else ln for ln in lines]
    for i, line in enumerate(lines):
        try:
            strip_checksum(line, True)
        except ValueError as e:
            if i == len(lines) - 1 and note is None:
                lines.pop()
                note = "a torn last line (%s) was dropped" % e
                break
            raise Damaged("line %d: %s" % (i + 1, e)) from None
    if not lines:
        raise Damaged("no complete line")
    return lines, note


def load(lines):
    """The core's Match for checked journal lines; Damaged when the rules refuse one."""
    try:
        return replay([ln + "\n" for ln in lines], journal=True)
    except NotationError as e:
        raise Damaged(str(e)) from None


def split_stem(stem):
    """(match id, N) of a journal file's stem: `ID` is (ID, 1), a continuation `ID.N`
    (written by the box's recovery after damage) is (ID, N)."""
    mid, dot, n = stem.rpartition(".")
    if dot and n.isdigit():
        return mid, int(n)
    return stem, 1


def status_of(match, in_play=True):
    """finished, abandoned (an `abandon` line, or a match the box left unfinished: no
    longer its `current` one) or unfinished (the match in play)."""
    result = match.result()
    if result is None:
        return "unfinished" if in_play else "abandoned"
    return "abandoned" if result[0] == "abandoned" else "finished"


def record(stem, lines, match, source=None, in_play=True):
    """The `matches` row and `frames` rows for a checked, replayed match."""
    h = match.header
    sbn = "\n".join(lines) + "\n"
    winner = match.outcome()[1]
    won = match.frames_won()
    fmt = "%s %d%s" % (h.kind, h.target, " by points" if h.by_points else "")
    rec = {
        "id": h.id or stem, "date": h.date, "game": h.game, "format": fmt,
        "side_a": " & ".join(h.sides[0]), "side_b": " & ".join(h.sides[1]),
        "status": status_of(match, in_play), "winner": None if winner is None else SIDES[winner],
        "frames_a": won[0], "frames_b": won[1], "report": to_json(match), "sbn": sbn,
        "sha256": hashlib.sha256(sbn.encode()).hexdigest(), "pulled_at": _now(),
        "source": source,
    }
    frames = []
    for seq, (number, breaker, score, fwinner, how, breaks_a, breaks_b) in enumerate(
            match.frames()):
        frames.append({
            "seq": seq + 1, "number": number,
            "breaker": None if breaker is None else SIDES[breaker],
            "score_a": None if score is None else score[0],
            "score_b": None if score is None else score[1],
            "winner": None if fwinner is None else SIDES[fwinner], "how": how,
            "breaks_a": " ".join(str(b) for b in breaks_a),
            "breaks_b": " ".join(str(b) for b in breaks_b)})
    return rec, frames


def device_identity(port, box):
    """Who delivers a match on `port`: its USB serial number (a Pico's is its unique id,
    whatever the journals on it say), else `box`, the box id it reports (the virtual
    device, a port with no serial number)."""
    if not port:
        return box
    here = {port, os.path.realpath(port)}  # a link (/dev/serial/by-id/...) is its device
    for p in serial.tools.list_ports.comports():
        if p.serial_number and {p.device, os.path.realpath(p.device)} & here:
            return p.serial_number
    return box


def _latest(entries):
    """Match id -> (N, stem, size) of its highest continuation ID.N.sbn in `entries`."""
    latest = {}
    for name, is_dir, size in entries:
        if not is_dir and name.endswith(".sbn"):
            stem = name[:-4]
            mid, n = split_stem(stem)
            if mid not in latest or n > latest[mid][0]:
                latest[mid] = (n, stem, size)
    return latest


class _Pull:
    """One sync's state: the box's own id and the device identities, each asked once."""

    def __init__(self, board, db, accept):
        self.board = board
        self.db = db
        self.accept = accept
        self.boxes = {}  # the board's own id, asked once, for journals without a `box` line
        self.devices = {}  # box id -> the device identity (the port's serial number)
        self.origin = origin_of(board)

    def store(self, mid, data, in_play):
        """Check and store one journal: (record, what db.store said, the check's note)."""
        lines, note = check_journal(data)
        match = load(lines)
        box = header_ids(match.header, mid)
        if box is None:
            if "box" not in self.boxes:
                self.boxes["box"] = _box_of(self.board)
            box = self.boxes["box"]
        rec, frames = record(mid, lines, match, self.board.port, in_play=in_play)
        rec["box"] = box
        if box not in self.devices:
            self.devices[box] = device_identity(self.board.port, box)
        stored = self.db.store(rec, frames, device=self.devices[box], accept=self.accept,
                               origin=self.origin)
        return rec, stored, note


def origin_of(board):
    """Who delivers the box's journals (db.Origin): the id the box gives for itself and
    the table its settings claim (None on firmware without)."""
    try:
        box = board.box_id()
    except Exception:  # an older board: the journals' own words then
        box = ""
    return Origin(box, board.table())


def pull(board, db, files=None, progress=False, out=print, err=None, again=False,
         accept=False, ids=None):
    """Pull what the box holds; returns the counts (pulled, skipped, refused, unfinished;
    `ids`: the ids stored, updated, and copied in progress, in the caller's `ids` dict
    when it gives one, so that they are known when the link goes).

    BoardError escapes when the link goes: what was committed (and marked) stays so.
    `again`: take the matches already marked pulled too (into a new database, say).
    A marked match is taken again when its journal's SHA-256 is no longer its mark's
    (a result corrected on the box after the sync); `accept`: a changed final result
    is stored as the match's next version, else refused naming the change.
    """
    err = err or (lambda text: say(text, sys.stderr))
    entries = board.listdir(MATCHES)
    latest = _latest(entries)
    marked = {n[:-7] for n, is_dir, _ in entries if not is_dir and n.endswith(".pulled")}
    current = board.current()
    up_to_date = board.marks({mid: latest[mid][1] for mid in latest if mid in marked})
    todo = [mid for mid in sorted(latest) if again or mid not in up_to_date]
    counts = {"pulled": 0, "skipped": len(latest) - len(todo), "refused": 0, "unfinished": 0,
              "held": 0, "ids": new_ids() if ids is None else ids}
    total = sum(latest[mid][2] for mid in todo)
    bar = None
    if total >= _BAR_BYTES and (progress or sys.stderr.isatty()):
        bar = progress_bar("sync", total)
    done = 0
    one = _Pull(board, db, accept)
    for mid in todo:
        stem = latest[mid][1]
        path = "%s/%s.sbn" % (MATCHES, stem)
        base = done
        done += latest[mid][2]
        try:
            check_id(mid, "file name")  # before the box is asked for a file of that name
            data = board.read(path, None if bar is None else (lambda n, b=base: bar(b + n)))
            rec, stored, note = one.store(mid, data, stem == current)
        except Correction as e:  # held for the desk: the old mark stays, asked again
            err("refused %s: %s; `scoreboard sync --accept-corrections` takes it" % (path, e))
            counts["refused"] += 1
            continue
        except (Damaged, Conflict, ValueError) as e:
            err("refused %s: %s; the file stays on the box" % (path, e))
            counts["refused"] += 1
            continue
        if note:
            err("%s: %s" % (path, note))
        if stored == "held":  # for the desk: kept, not in the bracket, not marked
            out(shown(held_text(db, mid, rec)))
            counts["held"] += 1
            continue
        _stored(counts, mid, rec, stored, out)
        if files is not None:
            write_copy(files, mid, rec["sbn"])
        if rec["status"] in FINAL:
            if mid not in up_to_date:
                board.mark(mid, hashlib.sha256(data).hexdigest(), rec["pulled_at"])
            same = stored == "same" and mid in marked
            counts["skipped" if same else "pulled"] += 1
        else:
            counts["unfinished"] += 1
    if bar is not None:
        bar(total, final=True)
    return counts


def _stored(counts, mid, rec, stored, out):
    """Count a stored match among the ids (stored, updated, unfinished); say a correction."""
    if stored == "corrected":
        out(shown("corrected %s: a new version, the earlier result kept as history" % mid))
    if stored != "same":
        kind = "unfinished" if rec["status"] not in FINAL else (
            "stored" if stored == "new" else "updated")
        counts["ids"][kind].append(mid)


def _box_of(board):
    """The box id of a journal that names none (older firmware): the board's."""
    try:
        box = board.box_id()
        return check_id(box, "box") if box else ""
    except ValueError:
        return ""


def header_ids(header, mid):
    """The box the header names (None when it names none: older firmware's files have
    no `box` line); ValueError when its id is not one (check_id) or is not the file's
    name."""
    if header.id is not None:
        check_id(header.id, "id")
        if header.id != mid:
            raise ValueError("its id %s is not its file's name %s" % (header.id, mid))
    return header.box


class SyncError(Exception):
    """A host file that cannot be written: one line naming it."""


def write_copy(folder, mid, text):
    """Write FOLDER/MID.sbn: a checked id (no path in it), into the folder itself, by a
    new file renamed over the name (a link found there is replaced, never followed)."""
    folder = Path(folder)
    target = folder / ("%s.sbn" % mid)
    if os.path.dirname(os.path.normpath(target)) != os.path.normpath(folder):
        raise SyncError("%s is not inside %s" % (target, folder))
    part = folder / (".%s.sbn.part" % mid)
    try:
        fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(
            os, "O_NOFOLLOW", 0), 0o644)
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        os.replace(part, target)
    except OSError as e:
        with contextlib.suppress(OSError):
            os.remove(part)
        raise SyncError("cannot write %s: %s" % (target, e.strerror or e)) from None


def files_folder(files):
    """The --files folder, made if missing; SyncError naming it when it cannot be."""
    if files is None:
        return None
    path = Path(files)
    if path.exists() and not path.is_dir():
        raise SyncError("--files %s: not a folder" % files)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise SyncError("--files %s: cannot make it (%s)" % (files, e.strerror or e)) from None
    return path


def new_ids():
    return {"stored": [], "updated": [], "unfinished": []}


def stored_lines(ids):
    """The lines naming the ids a pull stored, updated and copied in progress."""
    lines = []
    for kind, label in (("stored", "stored"), ("updated", "updated"),
                        ("unfinished", "copied in progress")):
        if ids[kind]:
            lines.append("%s %s" % (label, ", ".join(ids[kind])))
    return lines


def held_text(db, mid, rec):
    """The `held` line of a journal the desk must decide on (the bracket's words)."""
    if db.bracket is not None:
        return db.bracket.held_text(db, mid, rec)
    return "held %s from box %s for the desk" % (mid, rec["box"])


def summary(counts):
    text = "pulled %d, skipped %d, refused %d" % (
        counts["pulled"], counts["skipped"], counts["refused"])
    if counts.get("held"):
        text += ", held %d for the desk" % counts["held"]
    if counts["unfinished"]:
        text += "; %d in progress copied as unfinished" % counts["unfinished"]
    return text


def _now():
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
