"""Whole-match scenarios in tests/scenarios/, against their expected files: the one test
of each `.json` and `.err` (tests/core/test_micropython_parity.py then checks that
MicroPython prints the same bytes as CPython, and test_mp32_parity.py the 32-bit build).

Every `NAME.sbn` replays to the JSON object in the `NAME.json` beside it (worked out by
hand from docs/rules.md and docs/notation.md); `error-*.sbn` must stop with a NotationError whose
text is exactly the `line N: why` in the `.err` beside it (the line numbers were worked
out by hand before the engine's reasons were written in).
"""

import glob
import json
import os
import re

import pytest
from support.sbn import lines_of, notation_error, state, to_dict

HERE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scenarios")


def _names(pattern):
    return sorted(os.path.basename(p)[:-4] for p in glob.glob(os.path.join(HERE, pattern)))


def _read(name):
    with open(os.path.join(HERE, name), encoding="utf-8", newline="") as f:
        return f.read()


ERRORS = _names("error-*.sbn")
MATCHES = [n for n in _names("*.sbn") if n not in ERRORS]


def test_every_scenario_has_its_expected_file():
    assert len(MATCHES) >= 7 and len(ERRORS) >= 14
    expected = {n + ".err" for n in ERRORS} | {n + ".json" for n in MATCHES}
    present = {os.path.basename(p) for p in glob.glob(os.path.join(HERE, "*.err"))
               + glob.glob(os.path.join(HERE, "*.json"))}
    assert present == expected  # none missing, none left over


@pytest.mark.parametrize("name", MATCHES)
def test_scenario_replays_to_its_json(name):
    expected = json.loads(_read(name + ".json"))
    assert state(_read(name + ".sbn")) == expected


def _expected(name):
    """(line number, text) of the `.err` file: one line, `line N: why`."""
    text = _read(name + ".err")
    assert text.endswith("\n") and text.count("\n") == 1, "one line in %s.err" % name
    m = re.fullmatch(r"line (\d+): .+", text[:-1])
    assert m, "bad .err line: %r" % text
    return int(m.group(1)), text[:-1]


def _word(line):
    """The first word of a line, past an `@MS` stamp; `#` comments and checksums aside."""
    words = line.split("#", 1)[0].split()
    if words and words[0].startswith("@"):
        words = words[1:]
    return words[0] if words else None


@pytest.mark.parametrize("name", ERRORS)
def test_error_scenario_stops_as_its_err_says(name):
    from scoreboard.core.match import Match
    from scoreboard.core.notation import NotationError, Reader
    from scoreboard.core.replay import replay

    text = _read(name + ".sbn")
    n, expected = _expected(name)
    e = notation_error(text)
    assert str(e) == expected
    assert e.line == n

    # The lines before the error were good: replaying them alone raises nothing on them.
    # (A header is checked for completeness when it ends, so a prefix that stops inside
    # the header, before any `frame` line, is not a whole match; skip those.)
    prefix = lines_of(text)[: n - 1]
    if not any(_word(line) == "frame" for line in prefix):
        return
    before = replay(prefix)
    # The bad line changes nothing: the match, fed line by line, is at the error exactly
    # where the lines before it left it (every field of the report).
    reader = Reader()
    match = None
    for line in lines_of(text)[: n]:
        try:
            event = reader.feed(line)
            if event is None:
                continue
            if match is None:
                match = Match(reader.header)
            match.apply(event)
        except (NotationError, ValueError):
            assert reader.line == n
            break
    else:
        raise AssertionError("line %d did not fail when fed alone" % n)
    assert match is not None
    assert to_dict(match) == to_dict(before)
