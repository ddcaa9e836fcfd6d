"""`undo` costs what it withdraws (issue 6, point 5) and the segment's buffer does not
reallocate on every event (point 12).

Long runs of undos cross the snapshots that the match keeps inside a segment: after
each, the state must be exactly that of replaying the lines that remain (JSON and every
internal field), in long frames of every game. The cost is measured in events folded,
not in seconds (timing belongs to `make bench`).
"""

import random

import host_tools  # noqa: F401
import pytest
from host_tools.measure.matchgen import generate, header
from support import mpy
from support.state import deep

from scoreboard.core.match import Match
from scoreboard.core.notation import NotationError, Reader
from host_tools.mp.replay_json import to_json
from scoreboard.core.segment import Segment
from scoreboard.core.snapshot import Snapshots

LONG = {"end": 60, "foul": 10, "claim": 0, "concede": 0, "rack": 0, "score": 0.2}
UNDO = (None, "undo", ())


def _events(kind, target, seed, boost=LONG):
    lines = generate(header(kind, target), frames=1, seed=seed, boost=boost, max_events=900)
    reader = Reader()
    events = [e for e in (reader.feed(t) for t in lines) if e is not None]
    return reader.header, [e for e in events if e[1] != "undo"]


def _state(match):
    return to_json(match), deep(match)


def _fresh(head, events):
    m = Match(head)
    for e in events:
        m.apply(e)
    return m


class Counting(Match):
    """A match that counts the events it folds (applied or folded again)."""

    folded = 0

    def _apply(self, event):
        Counting.folded += 1
        return super()._apply(event)


@pytest.mark.parametrize("kind, target", [("snooker", 3), ("nineball", 5), ("straight", 150)])
def test_runs_of_undos_give_back_the_state_of_the_lines_that_remain(kind, target):
    head, events = _events(kind, target, seed=4)
    rng = random.Random(7)
    m = Match(head)
    kept = []
    checks = 0
    for e in events:
        try:
            m.apply(e)
        except ValueError:
            continue  # an `undo` earlier changed what is legal; skip this line
        kept.append(e)
        if rng.random() < 0.04 and kept[-1][1] != "frame":
            k = rng.choice((1, 2, 5, 9, 33, 70))
            frame_at = max(i for i, x in enumerate(kept) if x[1] == "frame")
            k = min(k, len(kept) - 1 - frame_at)
            for _ in range(k):
                m.apply(UNDO)
                kept.pop()
            assert _state(m) == _state(_fresh(head, kept)), (len(kept), k)
            checks += 1
    assert checks >= 3


def test_undo_all_the_way_back_to_the_frame_line():
    head, events = _events("snooker", 3, seed=5)
    first_frame = next(i for i, e in enumerate(events) if e[1] == "frame")
    second = [i for i, e in enumerate(events) if e[1] == "frame"]
    end = second[1] if len(second) > 1 else len(events)
    m = Match(head)
    for e in events[:end]:
        m.apply(e)
    n = end - first_frame - 1
    assert n > 100
    for _ in range(n):
        m.apply(UNDO)
    assert _state(m) == _state(_fresh(head, events[:first_frame + 1]))
    with pytest.raises(ValueError, match="nothing to undo"):
        m.apply(UNDO)


def test_undo_costs_what_it_withdraws():
    """2,000 visits then 2,000 undos fold a small multiple of the events, not 2,000**2."""
    text = ('sbn 1\ngame snooker\nmatch best-of 7\nside A "Ann"\nside B "Bob"\n'
            "frame A\n")
    reader = Reader()
    for line in text.split("\n"):
        reader.feed(line)
    end = (None, "end", ())
    Counting.folded = 0
    m = Counting(reader.header)
    m.apply((None, "frame", ("A",)))
    for _ in range(2000):
        m.apply(end)
    plain = Counting.folded
    for _ in range(2000):
        m.apply(UNDO)
    undo = Counting.folded - plain
    assert plain == 2000
    # Each undo folds again the events since a fine snapshot (a 16th of the coarse
    # spacing, 512 here), plus the coarse stretch once per stretch: a few times the
    # events withdrawn, far below the 2,000,000 of folding the frame again each time.
    assert undo < 12 * 2000, undo
    assert len(m.events) == 0 and m.current().striker == 0


def test_snapshots_stay_few_in_a_long_frame():
    snaps = Snapshots()

    class Thing:
        STATE = ("n",)
        n = 0

    t = Thing()
    for count in range(1, 20001):
        snaps.appended(t, count, count)
    assert len(snaps.items) <= 8 and snaps.every >= 2048


# -- point 12: Segment.append ------------------------------------------------------------------
def test_segment_grows_by_chunks_and_keeps_them_for_the_next_segment():
    """No allocation bigger than a chunk (a doubling buffer needed its whole size in one
    piece), every event decoded back across the chunks' edges, `undo` back over them, and
    a segment as long as the last one allocates no chunk."""
    from scoreboard.core import segment

    seg = Segment("snooker")
    for i in range(3000):
        seg.append((1000 * i, "foul", (4, "red", "miss")))
    assert {len(c) for c in seg.chunks} == {segment._CHUNK}
    assert len(seg.chunks) > 100
    assert list(seg) == [(1000 * i, "foul", (4, "red", "miss")) for i in range(3000)]
    assert len(seg) == 3000
    # from a position in the middle (as a snapshot keeps it), on
    pos = next(end for n, (e, end) in enumerate(seg.entries(0, 0)) if n == 1499)
    assert [e for e, _ in seg.entries(1500, pos)] == [
        (1000 * i, "foul", (4, "red", "miss")) for i in range(1500, 3000)]
    for _ in range(2000):  # undo back over the chunks' edges
        seg.pop()
    assert list(seg) == [(1000 * i, "foul", (4, "red", "miss")) for i in range(1000)]
    seg.append((1, "pot", ("red",)))
    assert list(seg)[-1] == (1, "pot", ("red",)) and len(seg) == 1001
    chunks = list(seg.chunks)
    seg.clear()
    for i in range(3000):
        seg.append((1000 * i, "end", ()))
    assert len(seg) == 3000 and all(a is b for a, b in zip(chunks, seg.chunks))
    # an event longer than a chunk (none of the notation's is) gets a chunk of its size
    word = "shot=" + "4" * 300
    seg.append((5, "clock", ("on", word)))
    last = seg.chunks[seg.k]
    assert len(last) > segment._CHUNK and bytes(last[:seg.ends[seg.k]]) == (
        "@5 clock on %s\n" % word).encode()


def test_segment_keeps_its_words_in_constant_tuples():
    """The words an event holds, with their bytes, are constant tuples (in flash when
    frozen), not a table built at import (a dict of 51 bytes objects: 1.3 KB of heap on
    the 32-bit build); and they cover every word of every event of every scenario and
    of random matches of each game, so appending none of them allocates."""
    from scoreboard.core import segment, vocab

    assert not [k for k, v in vars(segment).items()
                if isinstance(v, (dict, list, set)) and not k.startswith("__")]
    assert segment._TEXT == tuple(w.encode() for w in segment._WORDS)
    assert len(set(segment._WORDS)) == len(segment._WORDS)
    missing = {row[0] for row in vocab.TABLE} | set(vocab.SIDES) | set(vocab.COLOURS)
    missing |= set(vocab.AWARD_WHY) | set(vocab.FORFEIT_WHY) | {"on", "off"}
    missing -= set(segment._WORDS)
    files = [p.read_text(encoding="utf-8") for p in mpy.scenario_files()]
    files += ["\n".join(generate(header(kind, target), frames=3, seed=seed))
              for kind, target in (("snooker", 3), ("nineball", 3), ("straight", 60))
              for seed in range(5)]
    for text in files:
        reader = Reader()
        for line in text.splitlines():
            try:
                event = reader.feed(line)
            except NotationError:
                break  # the error scenarios: their good lines came first
            if event is None:
                continue
            words = [event[1]] + [a for a in event[2] if isinstance(a, str)]
            missing |= {w for w in words if w not in segment._WORDS and "=" not in w}
    assert not missing  # a clock setting (`shot=45`) is the one kind encoded on the spot


def test_segment_append_allocates_nothing_under_heap_lock_once_sized():
    """The MicroPython check: with its buffer sized once, appending every event of a long
    frame runs with the heap locked; and the bytes per event allocated while it grows."""
    rc, out = mpy.run_micropython(mpy.REPO / "tests" / "micropython" / "core_segment_heap.py")
    assert rc == 0, out
    words = out.split()
    assert words[0] == "locked" and words[1] == words[2], out  # all appended, locked
    # Bytes per event, growth included: chunks allocate a little over the text (a doubling
    # buffer took under 4 times it, and
    # a fresh buffer and bytes object per event made it about 105 on this frame).
    assert float(words[4]) < 4 * float(words[6]) < 80, out
