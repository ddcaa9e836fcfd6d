"""Checkpoints: after a reset the box replays at most the current frame (docs/design.md
"Budgets": boot time does not grow with the match), and the match it rebuilds is the
full replay's, byte for byte in the report.

The long match is a best-of-35 from host_tools/measure/matchgen.py, stamped as the app stamps
its lines (`@MS`, ms since the match started).
"""

import sys

import pytest

from host_tools.measure.matchgen import generate, header
from support import mpy
from scoreboard.journal import Journal

sys.path.insert(0, str(mpy.REPO / "tests" / "micropython"))
import journal_play as jp

BOX = "PICO-3F2A"


@pytest.fixture(scope="module")
def long_match():
    head, events = jp.split(jp.stamped(generate(header("snooker", 35), seed=35)))
    frames = [i for i, e in enumerate(events) if e.split()[1] == "frame"]
    assert len(frames) >= 18
    return head, events, frames


def _reset_at(root, head, events, n):
    """Play the first n events, then reset (a new Journal) and recover."""
    j = Journal(str(root), BOX)
    j.start(head)
    jp.play(j, events[:n])
    live = jp.report(j.match)
    j2 = Journal(str(root), BOX)
    match, damage = j2.recover()
    assert damage is None
    assert jp.report(match) == live
    path = root / "matches" / (j.id + ".sbn")
    assert jp.report(match) == jp.replay_lines(jp.lines_of(path.read_bytes()))
    return j2


@pytest.mark.parametrize("which", ["first", "last"])
def test_a_reset_replays_only_the_current_frame(long_match, tmp_path, which):
    head, events, frames = long_match
    start = frames[0] if which == "first" else frames[-1]
    end = frames[1] if which == "first" else len(events)
    n = (start + 1 + end) // 2  # in the middle of that frame
    j = _reset_at(tmp_path, head, events, n)
    assert j.replayed == n - start - 1  # the lines after that frame's `frame` line
    assert j.match.number == (1 if which == "first" else len(frames))
    # The rest of the match goes on from there and survives one more reset.
    jp.play(j, events[n:])
    assert j.match.finished()
    live = jp.report(j.match)
    match, _ = Journal(str(tmp_path), BOX).recover()
    assert jp.report(match) == live


def test_a_reset_right_after_a_frame_line_replays_nothing(long_match, tmp_path):
    head, events, frames = long_match
    j = _reset_at(tmp_path, head, events, frames[10] + 1)
    assert j.replayed == 0 and j.match.number == 11


def test_a_reset_before_the_checkpoint_was_written_replays_one_more_frame(long_match,
                                                                          tmp_path):
    head, events, frames = long_match
    n = frames[-1] + 3
    j = Journal(str(tmp_path), BOX)
    j.start(head)
    jp.play(j, events[:n])
    live = jp.report(j.match)
    kpath = tmp_path / "matches" / (j.id + ".ckpt")
    ckpt = kpath.read_bytes()
    last = ckpt.rindex(b"\nr ", 0, ckpt.rindex(b"\nc ")) + 1  # the last frame's group
    kpath.write_bytes(ckpt[:last] + b"r 1 A 9")  # lost, and a torn record after it
    j2 = Journal(str(tmp_path), BOX)
    match, damage = j2.recover()
    assert damage is None and jp.report(match) == live
    assert j2.replayed == n - frames[-2] - 1  # two segments: the previous frame's too
    assert j2.stem == j.id  # the journal itself was whole: no continuation
    # Recovery wrote the missing checkpoint: the next reset replays one segment again.
    j3 = Journal(str(tmp_path), BOX)
    match, damage = j3.recover()
    assert damage is None and jp.report(match) == live and j3.replayed == 2


def test_damage_in_an_early_frame_is_found_line_by_line(long_match, tmp_path):
    head, events, frames = long_match
    n = frames[-1] + 5
    j = Journal(str(tmp_path), BOX)
    j.start(head)
    jp.play(j, events[:n])
    j.close()
    path = tmp_path / "matches" / (j.id + ".sbn")
    data = bytearray(path.read_bytes())
    lines = jp.lines_of(bytes(data))
    third = len(head) + 2 + frames[2]  # start() added `id` and `box` lines to the header
    assert lines[third].split()[1] == b"frame"
    bad = third + 4  # a line (0-based) in the third frame
    data[sum(len(b) for b in lines[:bad]) + 2] ^= 0x01
    path.write_bytes(bytes(data))
    j2 = Journal(str(tmp_path), BOX)
    match, message = j2.recover()
    assert j2.damage.line == bad + 1
    assert message.startswith("match %s: line %d of %s.sbn has a bad checksum" % (
        j.id, bad + 1, j.id))
    assert jp.report(match) == jp.replay_lines(lines[:bad])
    assert j2.replayed == 3  # from the third frame's checkpoint to the damage
    assert match.number == 3


def test_a_checkpoint_the_core_refuses_means_a_full_replay(long_match, tmp_path):
    from scoreboard.core.words import with_checksum

    head, events, frames = long_match
    n = frames[5] + 4
    j = Journal(str(tmp_path), BOX)
    j.start(head)
    jp.play(j, events[:n])
    live = jp.report(j.match)
    kpath = tmp_path / "matches" / (j.id + ".ckpt")
    lines = kpath.read_bytes().splitlines(True)
    words = lines[-1].decode().rsplit(" *", 1)[0].split(" ")
    words[-1] = words[-1].replace("won=", "won=x")  # checksummed, but no checkpoint
    lines[-1] = (with_checksum(" ".join(words)) + "\n").encode()
    kpath.write_bytes(b"".join(lines))
    j2 = Journal(str(tmp_path), BOX)
    match, damage = j2.recover()
    assert damage is None and jp.report(match) == live
    assert j2.replayed == n + len(head) + 2  # every line, the header (and id, box) too
