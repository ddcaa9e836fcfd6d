"""The replay JSON of docs/notation.md, written by hand so that CPython and MicroPython print
the same bytes: fixed key order, `", "` and `": "` separators, ASCII with `\\u` escapes.

After docs/notation.md's keys come two more, always present: `result` (how the match
ended, null while it is played) and `timing` (elapsed times and shot-clock figures per
side, null when no line carries `@MS`).

It is written in pieces to a `write` callable, so a long match never has to sit in RAM
as one string. A host module that runs under CPython and MicroPython alike (the box
never writes JSON: the host replays what it pulls): `from replay_json import ...` in the
scripts of host_tools/mp/, `from host_tools.mp.replay_json import ...` on the host.
"""

from scoreboard.core.vocab import SIDES


def _str(value):
    if value is None:
        return "null"
    out = ['"']
    for c in value:
        o = ord(c)
        if c == '"' or c == "\\":
            out.append("\\" + c)
        elif o < 0x20 or o > 0x7E:
            out.append("\\u%04x" % o)  # every name here is in the basic plane
        else:
            out.append(c)
    out.append('"')
    return "".join(out)


def _num(value):
    return "null" if value is None else "%d" % value


def _side(value):
    return "null" if value is None else '"%s"' % SIDES[value]


def _bool(value):
    return "null" if value is None else ("true" if value else "false")


def _pair(a, b, fmt=_num):
    return '{"A": %s, "B": %s}' % (fmt(a), fmt(b))


def _ints(values):
    return "[" + ", ".join("%d" % v for v in values) + "]"


def _frame(record):
    number, breaker, score, winner, how, breaks_a, breaks_b = record
    # A pool rack (no score) has no breaks either: both null.
    return ('{"number": %d, "breaker": %s, "score": %s, "winner": %s, "how": %s, '
            '"breaks": %s}' % (
                number, _side(breaker), "null" if score is None else _pair(score[0], score[1]),
                _side(winner), _str(how), "null" if score is None else
                '{"A": %s, "B": %s}' % (_ints(breaks_a), _ints(breaks_b))))


def _current(v):
    score = v.score
    misses = v.misses
    return ('{"striker": %s, "score": %s, "break": %s, "ball_on": %s, "reds": %s, '
            '"remaining": %s, "snookers_required": %s, "free_ball": %s, '
            '"respotted_black": %s, "fouls_in_a_row": %s, "misses_in_a_row": %s, '
            '"prompts": [%s]}' % (
                _side(v.striker), "null" if score is None else _pair(score[0], score[1]),
                _num(v.brk), _str(v.ball_on), _num(v.reds), _num(v.remaining),
                _num(v.snookers_required), _bool(v.free_ball), _bool(v.respotted_black),
                _pair(v.fouls[0], v.fouls[1]),
                "null" if misses is None else _pair(misses[0], misses[1]),
                ", ".join(_str(p) for p in v.prompts)))


def _shots(t, s):
    ext = t.extensions
    return '{"shots": %d, "average_ms": %s, "longest_ms": %d, "extensions_left": %s}' % (
        t.shots[s], _num(t.average_ms(s)), t.longest[s],
        "null" if ext is None else "%d" % ext[s])


def _result(result):
    if result is None:
        return "null"
    how, why, score = result
    return '{"how": %s, "why": %s, "score": %s}' % (
        _str(how), _str(why), "null" if score is None else _pair(score[0], score[1]))


def _timing(t):
    if t is None:
        return "null"
    return '{"match_ms": %d, "frame_ms": %s, "late_start_due": %s, "A": %s, "B": %s}' % (
        t.match_ms, _num(t.frame_ms), _bool(t.late_start_due), _shots(t, 0), _shots(t, 1))


def write_json(match, write):
    finished, winner = match.outcome()
    won = match.frames_won()
    write('{"game": %s, "status": %s, "winner": %s, "frames_won": %s, "frames": [' % (
        _str(match.header.game), _str("finished" if finished else "playing"), _side(winner),
        _pair(won[0], won[1])))
    sep = ""
    for record in match.frames():
        write(sep)
        write(_frame(record))
        sep = ", "
    write('], "current": %s' % ("null" if match.current() is None else _current(match.view())))
    write(', "result": %s, "timing": %s}' % (_result(match.result()), _timing(match.timing())))


def to_json(match):
    parts = []
    write_json(match, parts.append)
    return "".join(parts)
