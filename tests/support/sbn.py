"""Small helpers for the rules tests: replay `.sbn` text and read back the JSON report.

The expected figures in the tests are worked out by hand from docs/rules.md and docs/notation.md;
these helpers only feed text to the engine and hand back what it says.
"""

import json
import os
import sys
import zlib

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)

import host_tools  # noqa: E402,F401  (puts firmware/ on sys.path)

# A standard snooker match: 15 reds, best of 7, A breaks the first frame.
# Lines 1-5 are the header, line 6 is `frame A`; the first event after START is line 7.
HEADER = (
    "sbn 1\n"
    "game snooker reds=15\n"
    "match best-of 7\n"
    'side A "Ann"\n'
    'side B "Bob"\n'
)
START = HEADER + "frame A\n"
FIRST_EVENT_LINE = 7


def lines_of(text):
    """Split text into physical lines on `\\n` only, keeping the line ends (as a file does)."""
    parts = text.split("\n")
    out = [p + "\n" for p in parts[:-1]]
    if parts[-1]:
        out.append(parts[-1])
    return out


def _replay(text):
    from scoreboard.core.replay import replay

    return replay(lines_of(text))


# The keys of docs/notation.md's report. The engine may add keys after them (an extension the
# contract does not describe); the rules tests compare only these.
# docs/notation.md's keys, then the two that always follow them: how the match ended, and
# the times and shot-clock figures from `@MS` stamps.
KEYS = ("game", "status", "winner", "frames_won", "frames", "current", "result", "timing")


def to_dict(match):
    from host_tools.mp.replay_json import to_json

    full = json.loads(to_json(match))
    assert tuple(full) == KEYS, tuple(full)
    return full


def state(text):
    """Replay `text` and return the parsed JSON report (docs/notation.md, `replay --json`)."""
    return to_dict(_replay(text))


def report(text):
    """Replay `text` and return the raw JSON string."""
    from host_tools.mp.replay_json import to_json

    return to_json(_replay(text))


def notation_error(text):
    """Replay `text` and return the NotationError it raises; fail if it raises none."""
    from scoreboard.core.notation import NotationError

    try:
        _replay(text)
    except NotationError as e:
        return e
    raise AssertionError("no NotationError for:\n" + text)


def error_line(text):
    """The 1-based physical line number of the NotationError raised by replaying `text`."""
    return notation_error(text).line


def play(*events, header=START):
    """Replay `header` then one event per line; return the JSON state."""
    return state(header + "".join(e + "\n" for e in events))


def play_error(*events, header=START):
    """Replay `header` then the events; return the line number of the error."""
    return error_line(header + "".join(e + "\n" for e in events))


def with_crc(line):
    """A journal line: the text, a space, `*` and the CRC-32 of the text in 8 lower-case hex."""
    return "%s *%08x" % (line, zlib.crc32(line.encode("utf-8")) & 0xFFFFFFFF)
