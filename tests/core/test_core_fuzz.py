"""The fuzzer's sample (issue 6, part D): mutated notation files replayed on CPython and
MicroPython end the same way on both, and never in a crash (any exception other than
a NotationError). `make bench` runs the full sweep (host_tools/measure/fuzz.py)."""

import random

import host_tools  # noqa: F401
from host_tools.measure import fuzz


def test_mutations_change_the_file_and_keep_it_bytes():
    rng = random.Random(5)
    base = fuzz.seeds(rng, generated=2)
    changed = 0
    for _ in range(200):
        data = rng.choice(base)
        out = fuzz.mutate(data, rng, base)
        assert isinstance(out, bytes)
        changed += out != data
    assert changed > 150


def test_a_sample_of_mutants_agrees_on_both_interpreters():
    r = fuzz.run(400, seed=11)
    assert r["files"] == 400 == r["ok"] + r["error"] + r["crash_cpython"]
    assert r["ok"] > 5 and r["error"] > 100  # the mutants reach both outcomes
    assert r["cases"] == [], r["cases"][:5]
    assert r["slowest_ms"] < 2000, "no file takes long"
    assert 0 < r["most_heap"] < 2 * 1024 * 1024, "every file within the capped heap"


def test_the_comparison_sees_a_disagreement(tmp_path):
    """A file that replays fine next to one that does not: the outcomes differ, so the
    comparison is not vacuous."""
    good = fuzz.seeds(random.Random(1), generated=0)[0]
    assert fuzz.cpython_outcome(good) != fuzz.cpython_outcome(good + b"\nnonsense\n")
    path = tmp_path / "g.sbn"
    path.write_bytes(good)
    assert fuzz.micropython_outcomes([str(path)])[0] == [fuzz.cpython_outcome(good)]
