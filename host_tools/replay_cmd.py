"""`scoreboard replay FILE [--json]`: replay a match file and show where it stands."""

import sys

import host_tools  # noqa: F401  (puts the firmware on the path)
from scoreboard.core.notation import SIDES, NotationError
from scoreboard.core.replay import replay
from scoreboard.core.report import to_json


def add_parser(sub):
    p = sub.add_parser("replay", help="replay a match file (.sbn) and print its state")
    p.add_argument("file", help="the match notation file, or - for standard input")
    p.add_argument("--json", action="store_true", help="print NOTATION.md's JSON object")
    p.set_defaults(run=run)


def run(args):
    try:
        if args.file == "-":
            match = replay(sys.stdin)
        else:
            with open(args.file, encoding="utf-8", newline="") as f:
                match = replay(f)
    except NotationError as e:
        print(str(e), file=sys.stderr)
        return 2
    except (OSError, UnicodeDecodeError) as e:
        print("%s: %s" % (args.file, e), file=sys.stderr)
        return 2
    if args.json:
        print(to_json(match))
    else:
        print(summary(match))
    return 0


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


def summary(match):
    """A referee's reading of the match: frames, breaks, and the frame in play."""
    h = match.header
    out = []
    finished, winner = match.outcome()
    won = match.frames_won()
    title = "%s v %s" % (_names(match, 0), _names(match, 1))
    out.append(title)
    out.append("%s, %s %d%s" % (h.game, h.kind, h.target, " by points" if h.by_points else ""))
    if match.family == "straight":
        out.append("Points %d-%d" % tuple(match.aggregate()))
    else:
        out.append("Frames %d-%d" % (won[0], won[1]))
    for number, breaker, score, fwinner, how, breaks_a, breaks_b in match.frames():
        line = "  frame %2d  (%s breaks)" % (number, SIDES[breaker])
        if score is not None:
            line += "  %3d-%-3d" % score
        if how is not None:
            line += "  %s" % ("won by %s (%s)" % (SIDES[fwinner], how) if fwinner is not None
                              else how)
        else:
            line += "  in play"
        for s, breaks in ((0, breaks_a), (1, breaks_b)):
            if breaks:
                line += "  %s breaks %s" % (SIDES[s], ", ".join(str(b) for b in breaks))
        out.append(line)
    if match.family != "pool":
        high = match.high_breaks()
        out.append("High %s: A %d, B %d" % ("run" if match.family == "straight" else "break",
                                            high[0], high[1]))
    timing = match.timing()
    if timing is not None:
        out.extend(_timing(timing))
    f = match.current()
    if f is not None:
        v = match.view()
        if v.striker is None:
            out.append("At the table: nobody yet (re-spotted black: who plays first?)")
        else:
            out.append("At the table: %s (%s)" % (SIDES[v.striker],
                                                 match.header.sides[v.striker][f.player()]))
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
    if finished:
        out.append("Match over: %s" % ("%s wins (%s)" % (SIDES[winner], _names(match, winner))
                                       if winner is not None else "no winner"))
    return "\n".join(out)
