"""CPython is the oracle: every scenario replays to the same bytes under MicroPython.

For each tests/scenarios/*.sbn:
- MicroPython runs host_tools/mp/replay.py on it (what `make bench` runs too); CPython
  replays it in-process with the core API; both outputs must be byte-identical;
- a sibling NAME.json holds the expected report: the parsed CPython JSON must equal it;
- `error-*.sbn` must fail: the sibling NAME.err holds the exact `line N: why`, which both
  interpreters give, and the MicroPython run exits 2.
"""

import json

import pytest

import mpy
from scoreboard.core.notation import NotationError
from scoreboard.core.replay import replay
from scoreboard.core.report import to_json

SCENARIOS = mpy.scenario_files()


def _name(path):
    return path.name


def _cpython(path):
    """(exit code, output) as replay.py prints them, computed in this process."""
    text = path.read_bytes().decode("utf-8")
    try:
        match = replay(mpy.split_lines(text))
    except NotationError as err:
        return 2, str(err) + "\n"
    return 0, to_json(match) + "\n"


def test_there_are_scenarios():
    assert SCENARIOS, "no tests/scenarios/*.sbn"


def test_every_error_scenario_has_its_err_file():
    missing = [p.name for p in SCENARIOS
               if p.name.startswith("error-") and not p.with_suffix(".err").exists()]
    assert not missing, "error scenarios without a .err file: %s" % ", ".join(missing)


@pytest.mark.parametrize("path", SCENARIOS, ids=_name)
def test_scenario(path):
    mp_rc, mp_out = mpy.run_micropython(mpy.REPLAY_SCRIPT, path)
    cp_rc, cp_out = _cpython(path)

    if path.name.startswith("error-"):
        expected = path.with_suffix(".err").read_text(encoding="utf-8").rstrip("\n") + "\n"
        assert cp_rc == 2, "CPython replayed an error scenario without an error"
        assert cp_out == expected
        assert mp_rc == 2, mp_out
        assert mp_out == expected
        return

    assert cp_rc == 0, cp_out
    assert mp_rc == 0, mp_out
    assert mp_out == cp_out
    assert cp_out.isascii()
    report = json.loads(cp_out)
    expected_json = path.with_suffix(".json")
    if expected_json.exists():
        assert report == json.loads(expected_json.read_text(encoding="utf-8"))
