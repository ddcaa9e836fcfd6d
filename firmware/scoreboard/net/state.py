"""The score as the room's TV shows it, one line: the box's retained `state` topic.

The desk replays the journal lines (the truth); a page or a TV that connects late, or
follows the room without the database, reads this instead: the broker keeps the last one
of every box (retained), so it shows every table at once. docs/notation.md, "The boxes
over MQTT", has the fields:

    1 STEM N TABLE PHASE FRAME WON_A WON_B POINTS_A POINTS_B STRIKER BREAK MS "A" "B"
    1 - 0 - idle                                  (no match on the box)

It is made after each journal line (coalesced: only the newest goes out), from the
Match the app holds, which is the journal replayed.
"""

FORMAT = "1"
IDLE = b"1 - 0 - idle"


def _quoted(names):
    text = " & ".join(names)
    return '"%s"' % text.replace("\\", "\\\\").replace('"', '\\"')


def state_line(match, stem, lines):
    """The state of `match` (None: no match) whose journal `stem` holds `lines` lines."""
    if match is None or stem is None:
        return IDLE
    h = match.header
    won = match.frames_won()
    f = match.frame
    if match.finished():
        phase = "over"
    elif f is None or f.ended:
        phase = "between"
    else:
        phase = "play"
    playing = phase == "play"
    score = f.score if playing else (0, 0)
    striker = "AB"[f.striker] if playing else "-"
    brk = f.brk if playing else 0
    return ("%s %s %d %s %s %d %d %d %d %d %s %d %d %s %s" % (
        FORMAT, stem, lines, "-" if h.table is None else "%d" % h.table, phase,
        match.number, won[0], won[1], score[0], score[1], striker, brk, match.last_ms,
        _quoted(h.sides[0]), _quoted(h.sides[1]))).encode()
