"""Whole-match scenarios in tests/scenarios/.

`snooker-*.sbn` replays to the JSON object in the `.json` beside it (worked out by hand
from RULES.md and NOTATION.md). `error-*.sbn` must stop with a NotationError on the line
named in the `.err` beside it, which holds the exact `line N: why` that both interpreters
print (tests/test_micropython_parity.py compares the whole text; the line numbers were
worked out by hand before the engine's reasons were written in).
"""

import glob
import json
import os
import re

import pytest
from support.sbn import lines_of, notation_error, state, to_dict

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "scenarios")


def _names(pattern):
    return sorted(os.path.basename(p)[:-4] for p in glob.glob(os.path.join(HERE, pattern)))


def _read(name):
    with open(os.path.join(HERE, name), encoding="utf-8", newline="") as f:
        return f.read()


SNOOKER = _names("snooker-*.sbn")
ERRORS = _names("error-*.sbn")


def test_scenarios_present():
    assert len(SNOOKER) >= 7
    assert len(ERRORS) >= 14
    for name in SNOOKER:
        assert os.path.exists(os.path.join(HERE, name + ".json")), name
    for name in ERRORS:
        assert os.path.exists(os.path.join(HERE, name + ".err")), name


@pytest.mark.parametrize("name", SNOOKER)
def test_snooker_scenario(name):
    expected = json.loads(_read(name + ".json"))
    assert state(_read(name + ".sbn")) == expected


def _expected_line(name):
    first = _read(name + ".err").split("\n", 1)[0].strip()
    m = re.fullmatch(r"line (\d+): .+", first)
    assert m, "bad .err first line: %r" % first
    return int(m.group(1))


def _word(line):
    """The first word of a line, past an `@MS` stamp; `#` comments and checksums aside."""
    words = line.split("#", 1)[0].split()
    if words and words[0].startswith("@"):
        words = words[1:]
    return words[0] if words else None


@pytest.mark.parametrize("name", ERRORS)
def test_error_scenario(name):
    from scoreboard.core.match import Match
    from scoreboard.core.notation import NotationError, Reader
    from scoreboard.core.replay import replay

    text = _read(name + ".sbn")
    n = _expected_line(name)
    e = notation_error(text)
    assert e.line == n, str(e)
    assert str(e).startswith("line %d: " % n)
    assert len(str(e)) > len("line %d: " % n)

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
