"""Key mashing (a sample; `make bench` presses 100,000 keys): random keys into the real
app under MicroPython with resets at random moments. No crash, never the error screen,
and after every press the journal replays to the state on the screens."""

import pytest

from support import device, mpy

MASH = mpy.REPO / "host_tools" / "mp" / "mash.py"
QUEUE = {
    "s": ["sbn 1", "game snooker reds=6", "match best-of 3", 'side A "Ann"', 'side B "Bob"',
          "clock shot=45 warn=10"],
    "n": ["sbn 1", "game nineball", "match race-to 3", 'side A "Cy"', 'side B "Di"'],
    "t": ["sbn 1", "game straight", "match points 25", 'side A "Ed"', 'side B "Flo"'],
}


def mash(flash, seed, presses, interpreter=None, reset_every=100):
    for i in range(6):
        for tag, header in QUEUE.items():
            device.queue(flash, "%s%d" % (tag, i), header)
    rc, out = mpy.run_micropython(MASH, "--flash", flash, "--seed", seed, "--presses",
                                  presses, "--reset-every", reset_every,
                                  interpreter=interpreter, timeout=600)
    return rc, out.strip().splitlines()[-1]


@pytest.mark.parametrize(("seed", "interpreter"), [(1, None), (2, device.MP32)],
                         ids=["unix64", "unix32-frozen"])
def test_random_keys_with_resets(tmp_path, seed, interpreter):
    rc, last = mash(tmp_path, seed, 1500, interpreter)
    assert rc == 0, last
    words = last.split()
    counts = dict(zip(words[1::2], map(int, words[2::2])))
    assert counts["presses"] == 1500
    assert counts["resets"] > 5, "resets happened"
    assert counts["matches"] >= 2, "matches were played to their end and new ones begun"
    assert counts["lines"] > 100


def test_the_same_seed_mashes_the_same_way_on_both_builds(tmp_path):
    a = mash(tmp_path / "a", 7, 400)
    b = mash(tmp_path / "b", 7, 400, device.MP32)
    assert a == b and a[0] == 0
