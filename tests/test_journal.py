"""The journal on a folder as flash: checksummed appends, recovery after a reset, the
queue, match ids, a full flash and the pruning of pulled matches.

What must hold comes from docs/notation.md ("Journal lines") and docs/design.md ("Flash layout"):
one `text *crc32` line per event, appended and flushed, never rewritten; a reset
recovers exactly the match the lines describe; the box never deletes a match the host
has not marked pulled.
"""

import hashlib
import os
import sys
import zlib
from pathlib import Path

import pytest

from support import mpy
from scoreboard.core.replay import replay
from scoreboard.journal import Journal, JournalError

sys.path.insert(0, str(mpy.REPO / "tests" / "micropython"))
import journal_play as jp

BOX = "PICO-3F2A"
SCENARIO = mpy.SCENARIOS / "snooker-best-of-3.sbn"
HEAD = ['sbn 1', 'game snooker reds=15', 'match best-of 7', 'side A "Ann"', 'side B "Bob"',
        'clock shot=45 warn=10']


def scenario():
    return jp.split(SCENARIO.read_text(encoding="utf-8").split("\n"))


def started(root, head=None, **kw):
    j = Journal(str(root), BOX, **kw)
    j.start(head or HEAD)
    return j


def files(root):
    return sorted(os.listdir(Path(root) / "matches"))


def mark(root, mid, stem=None):
    """The host's mark of a pulled match (host_tools/results/sync.py): its journal's SHA-256."""
    m = Path(root) / "matches"
    digest = hashlib.sha256((m / ((stem or mid) + ".sbn")).read_bytes()).hexdigest()
    (m / (mid + ".pulled")).write_text("pulled 2026-12-01T10:00:00+00:00 sha256 %s\n"
                                       % digest)


def test_each_event_is_one_checksummed_line_flushed_at_once(tmp_path):
    head, events = scenario()
    j = Journal(str(tmp_path), BOX)
    j.start(head)
    path = tmp_path / "matches" / "PICO-3F2A-0007.sbn"
    before = path.read_bytes()
    for text in events:
        j.match.apply(jp.parse_event(j.match.family, text))
        j.append(text)
        now = path.read_bytes()  # another reader sees the line at once: flushed
        crc = "%08x" % (zlib.crc32(text.encode()) & 0xFFFFFFFF)
        assert now == before + (text + " *" + crc + "\n").encode()  # appended, not rewritten
        before = now
    assert len(jp.lines_of(before)) == len(head) + 1 + len(events)  # and `box`


def test_recovery_after_a_reset_is_the_match_exactly(tmp_path):
    head, events = scenario()
    j = Journal(str(tmp_path), BOX)
    j.start(head)
    jp.play(j, events[:30])
    live = jp.report(j.match)
    # A reset: nothing closed, a new Journal on the same flash.
    j2 = Journal(str(tmp_path), BOX)
    match, damage = j2.recover()
    assert damage is None
    assert jp.report(match) == live
    path = tmp_path / "matches" / "PICO-3F2A-0007.sbn"
    assert jp.report(replay(path.read_text().splitlines(True), journal=True)) == live
    # The recovered journal takes the rest of the match; once more after a reset.
    jp.play(j2, events[30:])
    live = jp.report(j2.match)
    match, damage = Journal(str(tmp_path), BOX).recover()
    assert damage is None and jp.report(match) == live
    assert match.finished()
    assert files(tmp_path) == ["PICO-3F2A-0007.ckpt", "PICO-3F2A-0007.sbn"]


def test_no_current_match_before_start_and_after_finish(tmp_path):
    j = Journal(str(tmp_path), BOX)
    assert j.recover() == (None, None)
    j.start(HEAD)
    assert (tmp_path / "current").read_text() == "PICO-3F2A-0001\n"
    j.finish()
    assert not (tmp_path / "current").exists()
    assert Journal(str(tmp_path), BOX).recover() == (None, None)
    assert files(tmp_path) == ["PICO-3F2A-0001.ckpt", "PICO-3F2A-0001.sbn"]


def test_an_interrupted_swap_of_current_is_still_found(tmp_path):
    j = started(tmp_path)
    jp.play(j, ["frame A", "pot red"])
    os.rename(tmp_path / "current", tmp_path / "current.new")  # reset before the rename
    match, damage = Journal(str(tmp_path), BOX).recover()
    assert damage is None and match.frame.score == [1, 0]


def test_append_without_a_match_is_refused(tmp_path):
    with pytest.raises(JournalError):
        Journal(str(tmp_path), BOX).append("frame A")


# -- the queue and match ids -------------------------------------------------------------
def _queue(root, name, lines):
    (Path(root) / "queue").mkdir(parents=True, exist_ok=True)
    (Path(root) / "queue" / (name + ".sbn")).write_text("\n".join(lines) + "\n")


def test_queue_lists_starts_and_removes_prepared_matches(tmp_path):
    _queue(tmp_path, "t2-final", ["sbn 1", "id CLUB-FINAL-1", "game snooker reds=10",
                                  "match best-of 3", 'side A "Ann" "Cy"',
                                  'side B "Bob" "Di"'])
    _queue(tmp_path, "t1-semi", HEAD)
    _queue(tmp_path, "t3-nine", ["sbn 1", "game nineball", "match race-to 5",
                                 "breaks winner", 'side A "Eve"', 'side B "Flo"'])
    j = Journal(str(tmp_path), BOX)
    assert sorted(j.queue.names()) == ["t1-semi", "t2-final", "t3-nine"]
    assert [j.queue.entry(n)[0] for n in sorted(j.queue.names())] == [
        "Ann v Bob, snooker best-of 7, clock 45s",
        "Ann & Cy v Bob & Di, snooker 10 reds best-of 3, no clock",
        "Eve v Flo, nineball race-to 5, no clock"]
    match = j.start(j.queue.read("t1-semi"), "t1-semi")
    assert match is j.match and j.id == "PICO-3F2A-0001" == match.header.id
    assert sorted(j.queue.names()) == ["t2-final", "t3-nine"]
    first = (tmp_path / "matches" / "PICO-3F2A-0001.sbn").read_text().splitlines()
    assert [line.rsplit(" *", 1)[0] for line in first] == [
        HEAD[0], "id PICO-3F2A-0001", "box PICO-3F2A"] + HEAD[1:]
    with pytest.raises(JournalError, match="in progress"):
        j.start(j.queue.read("t3-nine"), "t3-nine")
    j.finish()
    j.start(j.queue.read("t2-final"), "t2-final")
    assert j.id == "CLUB-FINAL-1"  # the host's id
    j.finish()
    j.start(j.queue.read("t3-nine"), "t3-nine")
    assert j.id == "PICO-3F2A-0003"  # the counter counts every match
    assert sorted(j.queue.names()) == []


def test_a_bad_prepared_header_is_refused_with_its_line(tmp_path):
    j = Journal(str(tmp_path), BOX)
    with pytest.raises(JournalError, match="line 3: best-of needs an odd number"):
        j.start(["sbn 1", "game snooker", "match best-of 4"])
    with pytest.raises(JournalError, match="missing 'side B' line"):
        j.start(["sbn 1", "game snooker", "match best-of 3", 'side A "Ann"'])
    with pytest.raises(JournalError, match="only header lines"):
        j.start(HEAD + ["frame A"])
    with pytest.raises(JournalError, match="'/' is not allowed"):
        j.start(HEAD + ["id a/b"])
    _queue(tmp_path, "bad", ["sbn 1", "game snooker", "match best-of 4"])
    assert j.queue.entry("bad") == ("line 3: best-of needs an odd number of frames", None)
    assert files(tmp_path) == []


def test_the_same_host_id_twice_is_refused(tmp_path):
    j = started(tmp_path, HEAD + ["id CLUB-7"])
    j.finish()
    with pytest.raises(JournalError, match="CLUB-7 is already on this box"):
        j.start(HEAD + ["id CLUB-7"])


def test_ids_are_never_reused_even_after_pruning(tmp_path):
    j = Journal(str(tmp_path), b"\x00\x01\x3f\x2a\x00\x07")
    for _ in range(3):
        j.start(HEAD)
        j.finish()
    assert j.id is None
    assert files(tmp_path)[-1] == "PICO-3F2A0007-0003.sbn"
    for n in files(tmp_path):
        os.remove(tmp_path / "matches" / n)
    j.start(HEAD)
    assert j.id == "PICO-3F2A0007-0004"
    (tmp_path / "counter").unlink()  # even without the counter: the folder still counts
    j.finish()
    j.start(HEAD)
    assert j.id == "PICO-3F2A0007-0005"


# -- a full flash ------------------------------------------------------------------------
class Flash:
    """A flash of `size` bytes: what the files in the folder leave free."""

    def __init__(self, root, size):
        self.root = Path(root)
        self.size = size

    def __call__(self):
        used = sum(p.stat().st_size for p in self.root.rglob("*") if p.is_file())
        return self.size - used


def _finished_matches(root, n, flash):
    j = Journal(str(root), BOX, free=flash, reserve=2000)
    ids = []
    for _ in range(n):
        j.start(HEAD)
        jp.play(j, ["frame A", "pot red", "pot black", "concede"] * 1 + ["frame B", "concede"])
        ids.append(j.id)
        j.finish()
    return j, ids


def test_a_full_flash_refuses_a_new_match_with_a_clear_message(tmp_path):
    j = Journal(str(tmp_path), BOX, free=lambda: 50 * 1024, reserve=160 * 1024)
    assert not j.space_ok()
    with pytest.raises(JournalError, match=r"Flash full: 50 KB free, 160 KB needed\. Pull"):
        j.start(HEAD)
    assert files(tmp_path) == []
    assert j.recover() == (None, None)


def test_pulled_matches_go_oldest_first_and_only_when_space_is_needed(tmp_path):
    flash = Flash(tmp_path, 10**6)
    j, ids = _finished_matches(tmp_path, 5, flash)
    for mid in (ids[3], ids[1], ids[4]):
        mark(tmp_path, mid)
    before = files(tmp_path)
    assert j.space_ok()  # room enough: nothing deleted
    assert files(tmp_path) == before
    # Room for one more match only once two pulled matches are gone.
    one = sum((tmp_path / "matches" / n).stat().st_size for n in before if ids[1] in n)
    flash.size = 10**6 - flash() + 2000 - one - 10  # free: 2000 - one - 10 bytes
    assert j.space_ok()
    left = files(tmp_path)
    gone = sorted(set(before) - set(left))
    assert gone == sorted(n for n in before if ids[1] in n or ids[3] in n)
    assert all(n.split(".")[0] in ids for n in left)
    # Not enough even with every pulled match gone: the unpulled ones stay.
    flash.size -= flash() + 10**4  # far too few bytes free, even without ids[4]
    assert not j.space_ok()
    assert sorted({n.split(".")[0] for n in files(tmp_path)}) == [ids[0], ids[2]]
    with pytest.raises(JournalError, match="Flash full"):
        j.start(HEAD)


def test_the_current_match_is_never_pruned_even_if_marked_pulled(tmp_path):
    flash = Flash(tmp_path, 10**6)
    j, ids = _finished_matches(tmp_path, 1, flash)
    j.start(HEAD)
    mark(tmp_path, j.id)
    mark(tmp_path, ids[0])
    j2 = Journal(str(tmp_path), BOX, free=lambda: 0, reserve=2000)  # after a reset
    assert not j2.space_ok()
    assert sorted({n.split(".")[0] for n in files(tmp_path)}) == [j.id]


# -- damage and torn lines ---------------------------------------------------------------
def _recorded(root):
    head, events = scenario()
    j = Journal(str(root), BOX)
    j.start(head)
    jp.play(j, events)
    j.close()
    return j.id


def test_a_torn_last_line_is_dropped_and_the_match_goes_on_in_a_continuation(tmp_path):
    mid = _recorded(tmp_path)
    path = tmp_path / "matches" / (mid + ".sbn")
    good = path.read_bytes()
    torn = good + b"@999000 fra"
    path.write_bytes(torn)
    j = Journal(str(tmp_path), BOX)
    match, damage = j.recover()
    assert damage is None and j.damage is None
    assert jp.report(match) == jp.replay_lines(jp.lines_of(good))
    assert path.read_bytes() == torn  # kept as it was
    cont = tmp_path / "matches" / (mid + ".2.sbn")
    assert (tmp_path / "current").read_text() == mid + ".2\n"
    lines = jp.lines_of(cont.read_bytes())
    assert b"".join(lines[:-1]) == good
    note = b"# continued from %s.sbn: line %d torn" % (mid.encode(), len(lines))
    assert lines[-1].startswith(note)
    assert jp.replay_lines(lines) == jp.report(match)


def test_damage_before_the_end_is_reported_and_the_match_recovered_up_to_it(tmp_path):
    head, events = scenario()
    j = Journal(str(tmp_path), BOX)
    j.start(head)
    jp.play(j, events[:25])
    j.close()
    path = tmp_path / "matches" / (j.id + ".sbn")
    data = bytearray(path.read_bytes())
    lines = jp.lines_of(bytes(data))
    at = sum(len(x) for x in lines[:16]) + 3  # a byte of line 17 (pot black)
    data[at] ^= 0x04
    path.write_bytes(bytes(data))
    j = Journal(str(tmp_path), BOX)
    match, message = j.recover()
    assert j.damage.line == 17 and j.damage.match_id == "PICO-3F2A-0007"
    assert message == ("match PICO-3F2A-0007: line 17 of PICO-3F2A-0007.sbn has a bad "
                       "checksum; recovered to line 16, file kept")
    assert jp.report(match) == jp.replay_lines(lines[:16])
    assert path.read_bytes() == bytes(data)  # the damaged file is kept as it is
    assert j.damage.continued == "PICO-3F2A-0007.2" == j.stem
    # The match goes on in the continuation, which a second reset reads cleanly.
    jp.play(j, ["pot red"])
    live = jp.report(j.match)
    match, damage = Journal(str(tmp_path), BOX).recover()
    assert damage is None and jp.report(match) == live
    cont = (tmp_path / "matches" / "PICO-3F2A-0007.2.sbn").read_bytes()
    assert cont.startswith(b"".join(lines[:16]) + b"# continued from PICO-3F2A-0007.sbn: "
                                                  b"line 17 has a bad checksum *")


def test_a_new_match_after_a_finished_one_needs_no_finish_call(tmp_path):
    j = started(tmp_path, HEAD[:2] + ["match best-of 1"] + HEAD[3:])
    jp.play(j, ["frame A", "pot red"])
    with pytest.raises(JournalError, match="PICO-3F2A-0001 is in progress"):
        j.start(HEAD)
    jp.play(j, ["concede"])
    assert j.match.finished()
    j.start(HEAD)
    assert j.id == "PICO-3F2A-0002"
    assert (tmp_path / "current").read_text() == "PICO-3F2A-0002\n"


class _FullFile:
    """A journal file on a flash that has just filled up."""

    def write(self, data):
        raise OSError(28, "ENOSPC")

    def flush(self):
        pass

    def close(self):
        pass


def test_a_flash_that_fills_up_during_a_match_says_so(tmp_path):
    room = [10 ** 6]
    j = started(tmp_path, free=lambda: room[0])
    jp.play(j, ["frame A"])
    kept = (tmp_path / "matches" / (j.id + ".sbn")).read_bytes()
    j._f = _FullFile()
    room[0] = 0  # and no pulled match to make room with
    with pytest.raises(JournalError, match="Flash full: 'pot red' was not saved"):
        j.append("@5 pot red")
    assert j.lines == len(HEAD) + 3  # nothing counted (the header, id, box, frame)
    assert (tmp_path / "matches" / (j.id + ".sbn")).read_bytes() == kept


def _lines(texts):
    return b"".join(("%s *%08x\n" % (t, zlib.crc32(t.encode()) & 0xFFFFFFFF)).encode()
                    for t in texts)


def test_held_lines_go_in_one_write_at_commit(tmp_path):
    """The keys a pass read after a stall: held, then one write, one flush."""
    syncs = []
    j = started(tmp_path, sync=lambda: syncs.append(1))
    jp.play(j, ["frame A"])
    path = tmp_path / "matches" / (j.id + ".sbn")
    before, lines = path.read_bytes(), j.lines
    j.hold()
    jp.play(j, ["pot red", "pot black", "end"])
    assert path.read_bytes() == before, "held: nothing on the flash yet"
    del syncs[:]
    j.commit()
    assert syncs == [1], "one write, one flush"
    assert path.read_bytes() == before + _lines(["pot red", "pot black", "end"])
    assert (j.lines, j.pos) == (lines + 3, len(path.read_bytes()))
    jp.play(j, ["pot red"])  # holding ended with the commit: written at once
    assert path.read_bytes().endswith(_lines(["pot red"]))
    want = jp.report(j.match)
    j.close()
    assert jp.report(Journal(str(tmp_path), BOX).recover()[0]) == want


def test_a_frame_line_goes_at_once_with_the_held_lines_before_it(tmp_path):
    j = started(tmp_path)
    jp.play(j, ["frame A"])
    path = tmp_path / "matches" / (j.id + ".sbn")
    before = path.read_bytes()
    j.hold()
    jp.play(j, ["pot red", "concede", "frame B"])
    assert path.read_bytes() == before + _lines(["pot red", "concede", "frame B"])
    assert j.frame_end == j.pos, "its checkpoint: the new segment starts after it"
    jp.play(j, ["pot red"])
    assert path.read_bytes().endswith(_lines(["frame B"])), "the lines after it are held"
    j.commit()
    assert path.read_bytes().endswith(_lines(["frame B", "pot red"]))


def test_held_lines_a_full_flash_refuses_are_none_of_them_saved(tmp_path):
    room = [10 ** 6]
    j = started(tmp_path, free=lambda: room[0])
    jp.play(j, ["frame A"])
    path = tmp_path / "matches" / (j.id + ".sbn")
    kept, lines = path.read_bytes(), j.lines
    j.hold()
    jp.play(j, ["pot red", "pot black"])
    j._f = _FullFile()
    room[0] = 0  # and no pulled match to make room with
    with pytest.raises(JournalError, match="Flash full: 'pot red' was not saved"):
        j.commit()
    assert (j.lines, path.read_bytes()) == (lines, kept), "nothing counted, nothing written"
    assert j.reload().frame.score == [0, 0], "the match as the flash holds it"


def test_closing_writes_the_held_lines(tmp_path):
    j = started(tmp_path)
    jp.play(j, ["frame A"])
    j.hold()
    jp.play(j, ["pot red"])
    j.close()  # Ctrl-C, mpremote: the app stops
    match, _ = Journal(str(tmp_path), BOX).recover()
    assert match.frame.score == [1, 0]


@pytest.mark.parametrize("seed", range(6))
def test_pruning_sweep_only_pulled_oldest_first_and_no_more_than_needed(tmp_path, seed):
    import random

    rng = random.Random(seed)
    flash = Flash(tmp_path, 10**6)
    j, ids = _finished_matches(tmp_path, 7, flash)
    pulled = sorted(rng.sample(ids, rng.randint(0, 7)))
    for mid in pulled:
        mark(tmp_path, mid)
    sizes = {mid: sum(p.stat().st_size for p in (tmp_path / "matches").glob(mid + ".*"))
             for mid in ids}
    short = rng.randint(0, sum(sizes.values()))  # bytes missing for a new match
    flash.size -= flash() - j.reserve + short
    ok = j.space_ok()
    left = {n.split(".")[0] for n in files(tmp_path)}
    gone = [mid for mid in ids if mid not in left]
    assert set(ids) - left <= set(pulled)  # never an unpulled match
    assert gone == pulled[:len(gone)]  # the oldest pulled ones (ids count up)
    assert sum(sizes[m] for m in gone) >= short or gone == pulled
    if gone:  # and not one more than needed
        assert sum(sizes[m] for m in gone[:-1]) < short
    assert ok == (flash() >= j.reserve)


def _flip_line(path, n):
    """Flip a byte in the middle of line n (1-based) of a file."""
    data = bytearray(path.read_bytes())
    lines = jp.lines_of(bytes(data))
    data[sum(len(x) for x in lines[:n - 1]) + len(lines[n - 1]) // 2] ^= 0x02
    path.write_bytes(bytes(data))


def test_a_continuation_that_is_damaged_too_continues_again_and_prunes_whole(tmp_path):
    head, events = scenario()
    j = Journal(str(tmp_path), BOX)
    j.start(head)
    jp.play(j, events[:20])
    m = tmp_path / "matches"
    _flip_line(m / "PICO-3F2A-0007.sbn", 14)
    j = Journal(str(tmp_path), BOX)
    j.recover()
    assert j.damage.line == 14 and j.stem == "PICO-3F2A-0007.2"
    # The events lost from line 14 on (the journal's header has `box` too), and more.
    jp.play(j, events[14 - len(head) - 2:25])
    _flip_line(m / "PICO-3F2A-0007.2.sbn", 17)
    j = Journal(str(tmp_path), BOX)
    match, message = j.recover()
    assert message.startswith("match PICO-3F2A-0007: line 17 of PICO-3F2A-0007.2.sbn ")
    assert j.stem == "PICO-3F2A-0007.3"
    assert jp.report(match) == jp.replay_lines(
        jp.lines_of((m / "PICO-3F2A-0007.2.sbn").read_bytes())[:16])
    j.finish()
    mark(tmp_path, "PICO-3F2A-0007", "PICO-3F2A-0007.3")
    j2 = Journal(str(tmp_path), BOX, free=lambda: 0, reserve=1)
    assert not j2.space_ok()
    assert files(tmp_path) == []  # every file of the match went, .pulled last


def test_a_lost_checkpoint_file_means_a_full_replay_and_a_new_one(tmp_path):
    head, events = scenario()
    j = Journal(str(tmp_path), BOX)
    j.start(head)
    jp.play(j, events[:28])
    live = jp.report(j.match)
    (tmp_path / "matches" / (j.id + ".ckpt")).unlink()
    j2 = Journal(str(tmp_path), BOX)
    match, damage = j2.recover()
    assert damage is None and jp.report(match) == live
    assert j2.replayed == 28 + len(head) + 1  # every line, the header's (and box) too
    j3 = Journal(str(tmp_path), BOX)
    match, damage = j3.recover()  # the checkpoint written again: the last frame only
    last = max(i for i, e in enumerate(events[:28]) if e.split()[e[:1] == "@"] == "frame")
    assert damage is None and jp.report(match) == live and j3.replayed == 28 - last - 1


def test_a_damaged_header_cannot_be_recovered_and_says_so(tmp_path):
    j = started(tmp_path)
    jp.play(j, ["frame A", "pot red"])
    _flip_line(tmp_path / "matches" / (j.id + ".sbn"), 3)
    j2 = Journal(str(tmp_path), BOX)
    why = "has a bad checksum; the match cannot be recovered"
    assert j2.recover() == (None, "match PICO-3F2A-0001: line 3 of PICO-3F2A-0001.sbn " + why)
    assert files(tmp_path) == ["PICO-3F2A-0001.ckpt", "PICO-3F2A-0001.sbn"]
    j2.start(HEAD)  # the box can start another match
    assert j2.id == "PICO-3F2A-0002"


# -- the journal's parts (issue 16 item 3) ---------------------------------------------------
JOURNAL_PARTS = ("journal", "recovery", "files", "space")


def test_recovery_rebuilds_the_match_from_the_flash_files_alone(tmp_path):
    # Recovery is its own step on the box's files: it needs no Journal, and what it gives
    # back is what the journal goes on appending from.
    from scoreboard import recovery
    from scoreboard.files import Files

    head, events = scenario()
    j = Journal(str(tmp_path), BOX)
    j.start(head)
    jp.play(j, events[:40])
    live, stem, pos, lines = jp.report(j.match), j.stem, j.pos, j.lines
    j.close()
    r, damage = recovery.recover(Files(str(tmp_path)))
    assert damage is None and jp.report(r.match) == live
    assert (r.stem, r.pos, r.line) == (stem, pos, lines)
    data = (tmp_path / "matches" / (stem + ".sbn")).read_bytes()
    assert r.crc == zlib.crc32(data) and r.pos == len(data)
    assert 0 < r.replayed < lines  # from the last checkpoint, not the first line


def test_no_firmware_module_reaches_into_another_objects_privates():
    # Only `self` (or `cls`) may be followed by a private name: recovery once called five
    # private methods of the journal and set its fields.
    import ast

    bad = []
    for path in sorted(mpy.FIRMWARE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Attribute) and node.attr[:1] == "_"
                    and node.attr[:2] != "__"
                    and not (isinstance(node.value, ast.Name)
                             and node.value.id in ("self", "cls"))):
                bad.append("%s:%d %s" % (path.relative_to(mpy.FIRMWARE), node.lineno,
                                         ast.unparse(node)))
    assert bad == []


@pytest.mark.parametrize("name", JOURNAL_PARTS)
def test_the_journal_is_small_modules_each_with_its_docstring(name):
    path = mpy.FIRMWARE / "scoreboard" / (name + ".py")
    text = path.read_text(encoding="utf-8")
    assert text.startswith('"""'), "a docstring at the top saying what it is for"
    assert len(text.splitlines()) <= 450, "%s: %d lines" % (name, len(text.splitlines()))


def test_the_queue_the_counter_and_pruning_live_outside_the_journal():
    from scoreboard import files, space

    src = (mpy.FIRMWARE / "scoreboard" / "journal.py").read_text(encoding="utf-8")
    for name in ("def normalised", "def summary", "def _pulled", "def _delete_match",
                 "def _next_number", "def queue_names", "hashlib", "statvfs"):
        assert name not in src, name
    assert callable(files.Queue) and callable(space.prune) and callable(files.Files)


def test_the_pruning_code_is_loaded_only_when_the_flash_is_short(tmp_path):
    # scoreboard.space (deleting pulled matches) costs heap only on a box that needs room.
    import subprocess

    script = ("import sys, host_tools\n"
              "from scoreboard.journal import Journal\n"
              "j = Journal(sys.argv[1], 'PICO-3F2A', free=lambda: int(sys.argv[2]))\n"
              "ok = j.space_ok()\n"
              "print(ok, 'scoreboard.space' in sys.modules)\n")
    out = []
    for free in (10 ** 7, 0):
        proc = subprocess.run([sys.executable, "-c", script, str(tmp_path / str(free)),
                               str(free)], capture_output=True, text=True, check=True,
                              cwd=mpy.REPO)
        out.append(proc.stdout.split())
    assert out == [["True", "False"], ["False", "True"]]
