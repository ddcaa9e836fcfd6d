"""CPython is the oracle: every scenario replays to the same bytes under MicroPython.

For each tests/scenarios/*.sbn, MicroPython runs host_tools/mp/replay.py on it (what
`make bench` runs too) and CPython replays it in-process with the core API: the exit
codes (2 for `error-*.sbn`, whose `line N: why` is printed; 0 for the others, which
print the replay JSON) and the outputs must be the same, byte for byte. What the
outputs must be (the `.json` and `.err` files) is tests/core/test_scenarios.py's to check.
"""

import pytest

from support import mpy
from scoreboard.core.notation import NotationError
from scoreboard.core.replay import replay
from host_tools.mp.replay_json import to_json

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


@pytest.mark.parametrize("path", SCENARIOS, ids=_name)
def test_scenario(path):
    mp_rc, mp_out = mpy.run_micropython(mpy.REPLAY_SCRIPT, path)
    cp_rc, cp_out = _cpython(path)
    assert cp_rc == (2 if path.name.startswith("error-") else 0), cp_out
    assert (mp_rc, mp_out) == (cp_rc, cp_out)
    assert cp_out.isascii()


# Random legal matches of every kind, with `@MS` stamps on some, replayed under both
# interpreters: far more paths than the scenario files. `make test` samples a few seeds.
KINDS = ("snooker", "snooker-points", "eightball", "nineball", "tenball", "straight")


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("seed", [11, 12])
def test_random_match_is_byte_identical(kind, seed, tmp_path):
    from host_tools.measure.matchgen import generate, header

    target = {"snooker": 5, "snooker-points": 3, "straight": 60}.get(kind, 4)
    head = header(kind, target)
    if seed % 2:
        head.append("clock shot=35 warn=10 ext=1x25 first=60")
    lines = generate(head, seed=seed, max_events=1500)
    if seed % 2:  # stamp the events 1.5 to 40 s apart
        at = 0
        for i in range(len(head), len(lines)):
            at += 1500 + (i * 7919) % 38500
            lines[i] = "@%d %s" % (at, lines[i])
    path = tmp_path / ("%s-%d.sbn" % (kind, seed))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    mp_rc, mp_out = mpy.run_micropython(mpy.REPLAY_SCRIPT, path)
    cp_rc, cp_out = _cpython(path)
    assert cp_rc == mp_rc == 0, mp_out
    assert mp_out == cp_out


# The club's rules keys (issue 27 item 3): random matches under each switch, replayed
# alike by both interpreters (the generator's `warn` and `push` lines then refused and
# left out, its fouls in a row going past three).
CLUB = (("nineball", "rules threefoul=0 pushout=0"), ("tenball", "rules pushout=0"),
        ("eightball", "rules threefoul=1"), ("straight", "rules threefoul=0 late=5"))


@pytest.mark.parametrize("kind, rules", CLUB, ids=[c[0] for c in CLUB])
def test_random_match_under_the_clubs_rules_is_byte_identical(kind, rules, tmp_path):
    from host_tools.measure.matchgen import generate, header

    # seed 6: the eight-ball match has a warning (its three-foul rule on)
    lines = generate(header(kind, 60 if kind == "straight" else 4) + [rules], seed=6,
                     max_events=1500)
    path = tmp_path / ("%s-club.sbn" % kind)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    mp_rc, mp_out = mpy.run_micropython(mpy.REPLAY_SCRIPT, path)
    cp_rc, cp_out = _cpython(path)
    assert cp_rc == mp_rc == 0, mp_out
    assert mp_out == cp_out
    words = [line.split()[0] for line in lines]
    assert ("warn" in words) is ("threefoul=1" in rules) or "threefoul" not in rules
    if "pushout=0" in rules:
        assert "push" not in words  # refused, left out
