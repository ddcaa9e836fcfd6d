"""A match file read as `scoreboard replay` reads it: whether it is a box's journal, its
torn tail dropped as the box's recovery and `scoreboard sync` drop it, and the summary of
where the match stands (host_tools/commands/replay.py prints it)."""

import host_tools  # noqa: F401  (puts the firmware on the path)
from scoreboard.core.vocab import SIDES


def is_journal(data):
    """Whether `data` is a box's journal: its first line carries a checksum that matches
    (core/replay.py's rule, the MicroPython runner's too)."""
    from scoreboard.core.replay import is_journal as first_line_says

    return first_line_says(data)


def drop_torn_tail(data):
    """(the journal's bytes without a torn last line, the note saying so or None), by
    sync's check_journal; a file damaged elsewhere is left whole for the core to name
    the line and why."""
    from host_tools.results.sync import Damaged, check_journal

    try:
        _, note = check_journal(data)
    except Damaged:
        return data, None
    if note is None:
        return data, None
    body = data[:-1] if data.endswith(b"\n") else data  # the torn line's own line end
    return data[:body.rfind(b"\n") + 1], note


def _names(match, side):
    return " & ".join(match.header.sides[side])


def _clock(ms):
    s = ms // 1000
    return "%d:%02d:%02d" % (s // 3600, s // 60 % 60, s % 60)


def _timing(timing):
    """Lines on the times and shots, from the `@MS` stamps."""
    shots, total, longest, ext = timing.shots, timing.total, timing.longest, timing.extensions
    line = "Time: match %s" % _clock(timing.match_ms)
    if timing.frame_ms is not None:
        line += ", frame %s" % _clock(timing.frame_ms)
    if timing.late_start_due:
        line += " (late start due: forfeit?)"
    out = [line]
    for s in (0, 1):
        parts = []
        if shots[s]:
            parts.append("%d shots, average %.1f s, longest %.1f s" % (
                shots[s], total[s] / shots[s] / 1000, longest[s] / 1000))
        if ext is not None:
            parts.append("%d extension%s left" % (ext[s], "" if ext[s] == 1 else "s"))
        if parts:
            out.append("  %s: %s" % (SIDES[s], ", ".join(parts)))
    return out


# How a frame ended, as a referee says it: {0} the winner, {1} the loser.
_HOW = {
    "potted": "{0} won on the black",
    "fouled": "{0} won on a foul on the black",  # the record does not say who fouled
    "conceded": "{1} conceded",
    "claimed": "{0} claimed the frame",
    "awarded": "awarded to {0}",
    "won": "{0} won the rack",
    "fouls": "{1} lost on three fouls",
    "restarted": "restarted",
    "drawn": "drawn",
    "forfeited": "not finished: forfeited",
    "abandoned": "not finished: abandoned",
}


def _how(match, how, winner):
    if how is None:
        return "in play"
    phrase = _HOW.get(how, how)
    if match.family == "straight" and how == "won":
        phrase = "{0} reached %d points" % match.header.target
    if winner is None:
        return phrase if "{" not in phrase else how
    return phrase.format(SIDES[winner], SIDES[1 - winner])


def summary(match):
    """A referee's reading of the match: frames (racks in pool, the game in straight
    pool), breaks (runs), and the frame in play."""
    finished, winner = match.outcome()
    out = ["%s v %s" % (_names(match, 0), _names(match, 1))]
    out.extend(_totals(match))
    out.extend(_frame_lines(match))
    if match.family != "pool":
        high = match.high_breaks()
        out.append("High %s: A %d, B %d" % ("run" if match.family == "straight" else "break",
                                            high[0], high[1]))
    timing = match.timing()
    if timing is not None:
        out.extend(_timing(timing))
    if match.current() is not None:
        out.extend(_in_play(match))
    if finished:
        out.append("Match over: %s" % ("%s wins (%s)" % (SIDES[winner], _names(match, winner))
                                       if winner is not None else "no winner"))
    return "\n".join(out)


def _totals(match):
    """The format, then the frames (racks, points) won."""
    h = match.header
    won = match.frames_won()
    out = ["%s, %s %d%s" % (h.game, h.kind, h.target, " by points" if h.by_points else "")]
    if match.family == "straight":
        out.append("Points %d-%d" % tuple(match.aggregate()))
    elif match.family == "pool":
        out.append("Racks %d-%d" % (won[0], won[1]))
    else:
        out.append("Frames %d-%d" % (won[0], won[1]))
        if h.by_points:
            out.append("Aggregate points %d-%d" % tuple(match.aggregate()))
    return out


def _frame_lines(match):
    """A line a frame (rack, game): who broke, the score, how it ended, the breaks."""
    fam = match.family
    unit = {"pool": "rack", "straight": "game"}.get(fam, "frame")
    runs = "runs" if fam == "straight" else "breaks"
    out = []
    for number, breaker, score, fwinner, how, breaks_a, breaks_b in match.frames():
        line = "  %s %2d  (%s breaks)" % (unit, number, SIDES[breaker])
        if score is not None:
            line += "  %3d-%-3d" % score
        line += "  " + _how(match, how, fwinner)
        for s, breaks in ((0, breaks_a), (1, breaks_b)):
            if breaks and fam != "pool":
                line += "  %s %s %s" % (SIDES[s], runs, ", ".join(str(b) for b in breaks))
        out.append(line)
    return out


def _in_play(match):
    """The frame in play: who is at the table, the score, the ball on, fouls, prompts."""
    f = match.current()
    v = match.view()
    if v.striker is None:
        out = ["At the table: nobody yet (re-spotted black: who plays first?)"]
    else:
        out = ["At the table: %s (%s)" % (SIDES[v.striker],
                                          match.header.sides[v.striker][f.player()])]
    if v.score is not None:
        out.append("  score %d-%d, break %d" % (v.score[0], v.score[1], v.brk or 0))
    if v.ball_on is not None:
        out.append("  on %s%s, reds %d, remaining %d" % (
            v.ball_on, " (free ball)" if v.free_ball else "", v.reds, v.remaining))
    if v.snookers_required:
        out.append("  snookers required: %d" % v.snookers_required)
    out.append("  fouls in a row A %d, B %d" % (v.fouls[0], v.fouls[1]))
    if v.prompts:
        out.append("  prompts: %s" % ", ".join(v.prompts))
    return out
