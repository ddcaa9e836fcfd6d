"""One table as `scoreboard live` follows it: the journal lines of the match in play, as
the box holds them, and the core's replay of them (the same code the box runs).

A frame from the console (`frames.parse`) is taken when it is the next line of the
journal the table holds (its number one more than the lines held, its CRC-32 right):
the match is replayed from the lines by `sync.load`, the sync path's replay. A frame
it already holds, byte for byte, changes nothing (a repeat after a reconnect). Anything
else says the table no longer knows the journal: a gap in the numbers (lines lost while
the cable was out, a reset between the flush and the echo), a line that fails its
CRC-32, another journal (a new match without its first line, a continuation after
damage), a state frame (`SB> STEM N`) that does not agree. Then `accept` answers
HEAL and the link reads the journal from the box (`load`), as `scoreboard sync` does.
So a stroke is never doubled (a line is kept by its number) and never lost (a missing
number is read from the flash).

`snapshot()` is the table as the pages and /api/tables show it: the replay JSON of
docs/notation.md (`replay`), the names, the shot clock at the last line, the signal.
"""

import json
import time

import host_tools  # noqa: F401  (the firmware on the path)
from host_tools.results.sync import Damaged, load
from scoreboard.core.notation import NotationError
from host_tools.mp.replay_json import to_json
from scoreboard.core.words import strip_checksum

TAKEN = "taken"  # the next line: applied
NEW = "new"  # the first line of a new journal: the table starts again
SAME = "same"  # a line or state the table already holds
HEAL = "heal"  # the table does not know the journal as it is: read it from the box


def now_ms():
    return int(time.time() * 1000)


def event_text(line):
    """`pot red` of `@61250 pot red *1a2b3c4d`."""
    text = line.rsplit(" *", 1)[0]
    words = text.split(" ", 1)
    if words[0][:1] == "@" and len(words) == 2:
        return words[1]
    return text


class Table:
    def __init__(self, number, port):
        self.number = number
        self.port = port
        self.signal = False
        self.status = "connecting"  # connecting, catching up, live, no signal, ...
        # Who the box is (its `hello`): its own id and the table its settings claim
        # (tournament/identity.py); `conflict`: another box claims that table too.
        self.box_id = None
        self.claim = None
        self.conflict = None
        self.stem = None  # the journal followed (matches/STEM.sbn), or None
        self.lines = []  # its lines as the box holds them (`TEXT *CRC`)
        self.match = None  # the core's Match of the lines (None while the header comes)
        self.at = None  # host time (ms since the epoch) the last line came
        self.note = None  # why the last heal was needed (for the log)
        self.finished_ids = set()  # matches seen to finish while followed

    # -- the journal -------------------------------------------------------------------
    def accept(self, stem, n, text, at=None):
        """A console frame: TAKEN, NEW, SAME or HEAL (see the module)."""
        at = now_ms() if at is None else at
        if not stem:
            return self._heal("a damaged frame")
        if text is not None:
            try:
                strip_checksum(text, True)
            except ValueError as e:
                return self._heal("line %d: %s" % (n, e))
        if stem != self.stem:
            if n == 1 and text is not None:
                self._set(stem, [text], at)
                return NEW
            return self._heal("another journal: %s" % stem)
        have = len(self.lines)
        if text is None:
            return SAME if n == have else self._heal("the box holds %d lines, %d here"
                                                     % (n, have))
        if n <= have:
            return SAME if self.lines[n - 1] == text else self._heal(
                "line %d differs" % n)
        if n > have + 1:
            return self._heal("lines %d to %d missing" % (have + 1, n - 1))
        lines = [*self.lines, text]
        if not self._replay(lines):
            return self._heal("line %d does not replay" % n)
        self.lines = lines
        self.at = at
        return TAKEN

    def load(self, stem, lines, at=None):
        """The journal as read from the box (the catch-up), or no match (stem None)."""
        self._set(stem, list(lines) if stem else [], now_ms() if at is None else at)

    def _set(self, stem, lines, at):
        self.stem = stem
        self.lines = lines
        self.match = None
        self.at = at
        self._replay(lines)

    def _replay(self, lines):
        """Replay `lines` into self.match; False when they do not replay once the
        match has begun (a header still coming in is not an error)."""
        if not lines:
            self.match = None
            return True
        try:
            match = load(lines)
        except (Damaged, NotationError, ValueError):
            if any(event_text(ln).split(" ")[0] == "frame" for ln in lines):
                return False
            self.match = None
            return True
        self.match = match
        if match.finished() and match.header.id:
            self.finished_ids.add(match.header.id)
        return True

    def _heal(self, why):
        self.note = why
        return HEAL

    def finished(self):
        return self.match is not None and self.match.finished()

    def between_frames(self):
        """No frame in play: the match over, or a frame ended and the next not begun."""
        m = self.match
        return m is None or m.finished() or m.frame is None or m.frame.ended

    # -- what the pages show -------------------------------------------------------------
    def snapshot(self):
        m = self.match
        snap = {"table": self.number, "port": self.port, "signal": self.signal,
                "status": self.status, "stem": self.stem, "lines": len(self.lines),
                "id": None, "box": None, "game": None, "format": None, "names": None,
                "replay": None, "clock": None, "last": None, "at": self.at,
                "box_id": self.box_id, "claim": self.claim, "conflict": self.conflict}
        if self.lines:
            snap["last"] = event_text(self.lines[-1])
        if m is None:
            return snap
        h = m.header
        snap.update({
            "id": h.id, "box": h.box, "game": h.game,
            "format": "%s %d%s" % (h.kind, h.target, " by points" if h.by_points else ""),
            "names": [" & ".join(side) for side in h.sides],
            "replay": json.loads(to_json(m)), "clock": _clock(m)})
        return snap


def _clock(m):
    """The shot clock at the last line (its stamp is the box's match time then), or
    None without one: the pages count down from `remaining_ms` at `at` themselves."""
    clock = m.clock
    if not clock.enabled:
        return None
    warn = 0
    for kv in m.header.clock:
        if kv.startswith("warn=") and kv[5:].isdigit():
            warn = int(kv[5:]) * 1000
    ms = m.last_ms
    return {"running": bool(clock.running), "side": "AB"[clock.side],
            "remaining_ms": clock.remaining_ms(ms), "limit_ms": clock.limit_ms,
            "warn_ms": warn, "expired": bool(clock.expired), "match_ms": ms}
