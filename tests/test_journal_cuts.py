"""A recorded journal cut at every byte offset (a sample in the default run, every byte
under `-m slow`) and flipped at every byte: recovery always lands on the last whole good
line, reports damage before the end with the right line, drops a torn last line
quietly, and never changes the damaged file.

The recorded match is tests/scenarios/snooker-best-of-3.sbn played through the journal
(three frames, so checkpoints are crossed); the expected match after each cut is a full
replay of the whole lines left (docs/notation.md: a last line without `\\n` or with a bad
checksum is dropped; a bad line before the end is damage).
"""

import os
import sys

import pytest

from support import mpy, tiers
from scoreboard.journal import Journal

sys.path.insert(0, str(mpy.REPO / "tests" / "micropython"))
import journal_play as jp

BOX = "PICO-3F2A"
MID = "PICO-3F2A-0007"


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    root = tmp_path_factory.mktemp("recorded")
    head, events = jp.split(
        (mpy.SCENARIOS / "snooker-best-of-3.sbn").read_text(encoding="utf-8").split("\n"))
    j = Journal(str(root), BOX)
    j.start(head)
    jp.play(j, events)
    j.close()
    data = (root / "matches" / (MID + ".sbn")).read_bytes()
    ckpt = (root / "matches" / (MID + ".ckpt")).read_bytes()
    return root, data, ckpt


def _ckpt_at(ckpt, size):
    """The checkpoint file as it was when the journal had `size` bytes: every group whose
    `c` line points at or before `size`."""
    keep = 0
    pos = 0
    for line in ckpt.splitlines(True):
        pos += len(line)
        if line.startswith(b"s "):
            keep = pos
        elif line.startswith(b"c ") and int(line.split()[1]) <= size:
            keep = pos
    return ckpt[:keep]


def _flash(tmp_path, recorded, data, ckpt):
    """A flash folder with the recorded match's files replaced by `data` and `ckpt`."""
    (tmp_path / "matches").mkdir(parents=True, exist_ok=True)
    for old in (tmp_path / "matches").iterdir():  # a continuation of the previous run
        if old.name not in (MID + ".sbn", MID + ".ckpt"):
            old.unlink()
    (tmp_path / "current").write_text(MID + "\n")
    (tmp_path / "matches" / (MID + ".sbn")).write_bytes(data)
    (tmp_path / "matches" / (MID + ".ckpt")).write_bytes(ckpt)
    return tmp_path


def _header_bytes(data):
    """Bytes of the header lines (before the first event)."""
    lines = jp.lines_of(data)
    head, _ = jp.split([b.decode() for b in lines])
    return sum(len(b) for b in lines[:len(head)])


_EXPECTED = {}


def _expected(lines):
    """The report of a full replay of journal lines (a cache: many cuts share it)."""
    key = b"".join(lines)
    if key not in _EXPECTED:
        _EXPECTED[key] = jp.replay_lines(lines)
    return _EXPECTED[key]


def _one_more(j):
    """Journal one more legal event, whatever the state."""
    for text in ("undo", "frame", "end", "called"):
        try:
            j.match.apply(jp.parse_event(j.match.family, text))
        except ValueError:
            continue
        j.append(text)
        return
    raise AssertionError("no legal event")


# The default run cuts at a sample of the offsets (`make bench` and `-m slow` at all):
# every line end and the bytes either side of it (a line whole or torn by one byte, the
# checksum cut), every JOURNAL_CUT_STEP-th byte, and every 41st, where the match then
# goes on and is reset again.
SAMPLE_STEP = int(os.environ.get("JOURNAL_CUT_STEP") or tiers.stride(13, 53))
# The flipped-byte sweeps take every byte in `make test`, every 5th in `make check`.
FLIP_STEP = tiers.stride(1, 5)


def cut_offsets(data, step):
    """The offsets to cut the journal at: all of them for step 1, else the sample."""
    if step == 1:
        return list(range(len(data) + 1))
    cuts = set(range(0, len(data) + 1, step)) | set(range(0, len(data) + 1, 41))
    end = 0
    for line in jp.lines_of(data):
        end += len(line)
        cuts |= {end - 2, end - 1, end, end + 1}
    return sorted(c for c in cuts if 0 <= c <= len(data))


def _cut_and_recover(recorded, tmp_path, step):
    _, data, ckpt = recorded
    header = _header_bytes(data)
    checked = 0
    cuts = cut_offsets(data, step)
    for cut in cuts:
        for k in (_ckpt_at(ckpt, cut), ckpt):  # as it was, or ahead of the journal
            root = _flash(tmp_path / "f", recorded, data[:cut], k)
            j = Journal(str(root), BOX)
            match, damage = j.recover()
            whole = jp.lines_of(data[:cut])
            if match is None:  # start() writes the header before the match is current
                assert cut < header
                continue
            assert damage is None, (cut, damage)
            assert jp.report(match) == _expected(whole), cut
            assert (root / "matches" / (MID + ".sbn")).read_bytes() == data[:cut]
            torn = cut != sum(len(b) for b in whole)
            assert j.stem == (MID + ".2" if torn or k != _ckpt_at(ckpt, cut) else MID), cut
            checked += 1
            if cut % 41 == 0:  # the match goes on, and survives another reset
                _one_more(j)
                again, damage = Journal(str(root), BOX).recover()
                assert damage is None and jp.report(again) == jp.report(j.match), cut
    assert checked > len(cuts) // 2
    return checked


def test_cuts_recover_to_the_last_whole_line(recorded, tmp_path):
    _, data, _ = recorded
    assert len(cut_offsets(data, SAMPLE_STEP)) < len(data) // 3  # a sample, not all
    assert _cut_and_recover(recorded, tmp_path, SAMPLE_STEP) > 100


@pytest.mark.slow
def test_a_cut_at_every_byte_recovers_to_the_last_whole_line(recorded, tmp_path):
    _, data, _ = recorded
    assert _cut_and_recover(recorded, tmp_path, 1) > len(data)


def test_every_flipped_byte_is_detected_on_its_line(recorded, tmp_path):
    _, data, ckpt = recorded
    lines = jp.lines_of(data)
    starts = [sum(len(b) for b in lines[:n]) for n in range(len(lines) + 1)]
    header = len(jp.split([b.decode() for b in lines])[0])
    for at in range(0, len(data), FLIP_STEP):
        line = max(n for n in range(len(lines)) if starts[n] <= at) + 1
        flipped = bytearray(data)
        flipped[at] ^= 0x01 if at % 2 else 0x20
        root = _flash(tmp_path / "f", recorded, bytes(flipped), ckpt)
        j = Journal(str(root), BOX)
        match, message = j.recover()
        assert (root / "matches" / (MID + ".sbn")).read_bytes() == bytes(flipped)
        last = len(jp.lines_of(bytes(flipped)) or [1])  # a flipped `\n` joins two lines
        if line >= last:  # the last line: a torn write, dropped without a report
            assert j.damage is None and message is None, at
        else:
            assert j.damage is not None and j.damage.line == line, (at, message)
            assert message.startswith("match %s: line %d of %s.sbn " % (MID, line, MID))
        if match is None:  # the header is damaged before it is complete: nothing to recover
            assert line <= header, at
            continue
        assert jp.report(match) == _expected(lines[:line - 1]), at
        assert j.stem == MID + ".2"


def test_a_newline_written_into_a_line_is_damage_on_that_line(recorded, tmp_path):
    _, data, ckpt = recorded
    lines = jp.lines_of(data)
    at = sum(len(b) for b in lines[:20]) + 4
    root = _flash(tmp_path / "f", recorded, data[:at] + b"\n" + data[at + 1:], ckpt)
    j = Journal(str(root), BOX)
    match, _ = j.recover()
    assert j.damage.line == 21
    assert jp.report(match) == jp.replay_lines(lines[:20])


def test_a_damaged_checkpoint_file_never_changes_the_match(recorded, tmp_path):
    _, data, ckpt = recorded
    want = jp.replay_lines(jp.lines_of(data))
    for at in range(0, len(ckpt), FLIP_STEP):
        flipped = bytearray(ckpt)
        flipped[at] ^= 0x01
        root = _flash(tmp_path / "f", recorded, data, bytes(flipped))
        j = Journal(str(root), BOX)
        match, damage = j.recover()
        assert damage is None, at
        assert jp.report(match) == want, at
        assert (root / "matches" / (MID + ".sbn")).read_bytes() == data
