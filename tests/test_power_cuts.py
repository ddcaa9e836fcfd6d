"""Power cuts: a best-of-3 played by keys, its flash cut at every byte of every write and
between every two writes (a sample here; `make bench` runs them all), the app restarted
on what the cut left: it must come up (never the error screen) exactly in the state the
live box had after the last whole journal line, which is what the replay of those lines
gives too.
"""

import os

import pytest
from host_tools.measure.app_bench import HEADER, match_keys
from host_tools.mp.device import Runner
from scoreboard.core.notation import NotationError, Reader
from host_tools.mp.replay_json import to_json
from support import device, powercut, tiers

SAMPLE_STEP = int(os.environ.get("POWER_CUT_STEP") or tiers.stride(89, 997))
# Every op boundary in `make test`; every 5th in `make check`.
BOUNDARY_STEP = tiers.stride(1, 5)


def complete_events(flash):
    """How many event lines of the match journal are whole (newline and checksum)."""
    files = sorted((flash / "matches").glob("*.sbn")) if (flash / "matches").exists() else []
    if not files:
        return 0
    data = files[0].read_bytes()
    reader = Reader(True)
    events = 0
    for raw in data.split(b"\n")[:-1]:
        try:
            if reader.feed(raw.decode()) is not None:
                events += 1
        except (NotationError, UnicodeError):
            break
    return events


def record(tmp_path, monkeypatch):
    """Play the match with every flash change logged; return (ops, states, start, root)."""
    root = tmp_path / "flash"
    lines = [line % 3 if "%d" in line else line for line in HEADER]
    device.queue(root, "m1", lines)
    start = tmp_path / "start"
    import shutil

    shutil.copytree(root, start)
    rec = powercut.Recorder(root)
    rec.install(monkeypatch, *powercut.journal_modules())
    r = Runner(str(root))
    states = {0: None}
    for key in match_keys(3):
        r.press(key, 80)
        if r.app.match is not None and r.app.journal.stem is not None:
            states[complete_events(root)] = to_json(r.app.match)
    rec.on = False
    monkeypatch.undo()
    return rec.ops, states, start, root


def cut_points(ops, step, every=1):
    """(k, j) cut points: every `every`-th op boundary, and every `step`-th byte inside
    writes."""
    n = 0
    for k, op in enumerate(ops):
        if k % every == 0:
            yield k, 0
        if op[0] == "write":
            for j in range(1, len(op[2])):
                n += 1
                if n % step == 0:
                    yield k, j


def run_cuts(tmp_path, monkeypatch, step, every=1):
    ops, states, start, root = record(tmp_path, monkeypatch)
    tried = recovered = 0
    dest = tmp_path / "cut"
    for k, j in cut_points(ops, step, every):
        powercut.flash_at(ops, k, j, start, root, dest)
        events = complete_events(dest)
        r = Runner(str(dest))
        r.wait(20)
        tried += 1
        assert not r.app.stopped and r.app.screen.kind != "error", (k, j, r.app.screen.error)
        where = "cut at op %d byte %d: %d whole events" % (k, j, events)
        if r.app.match is None:
            # Cut before the match's header was whole: nothing began, the prepared
            # match is still in the queue.
            assert events == 0, where
            assert [name for name, _ in r.app.screen.queue] == ["m1"], where
        elif events == 0:
            # The header is on flash, the first `frame` line is not: the match waits for
            # its first frame (the start screen's `ok` is not repeated).
            assert r.app.match.number == 0, where
        else:
            assert to_json(r.app.match) == states[events], where
        recovered += 1
    return tried, recovered, len(ops), powercut.writes(ops)


def test_power_cuts_sample(tmp_path, monkeypatch):
    tried, recovered, ops, points = run_cuts(tmp_path, monkeypatch, SAMPLE_STEP,
                                             BOUNDARY_STEP)
    assert tried == recovered and tried > ops // BOUNDARY_STEP
    print("power cuts: %d tried, %d recovered (of %d cut points, %d writes)"
          % (tried, recovered, points, ops))


@pytest.mark.slow
def test_power_cuts_at_every_byte(tmp_path, monkeypatch):
    tried, recovered, ops, points = run_cuts(tmp_path, monkeypatch, 1)
    assert tried == recovered
    print("power cuts: %d tried, %d recovered (of %d cut points, %d writes)"
          % (tried, recovered, points, ops))
