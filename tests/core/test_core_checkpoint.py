"""Checkpoints and the frame store (issue 6, point 11 and the journal's checkpoint API).

`Match.checkpoint()` at any moment describes the match right after its last `frame`
line; `Match.restore(header, store, text)` rebuilds it, and replaying the rest of the
lines on the rebuilt match must give byte-identical report JSON to a full replay: over
every scenario file and random legal matches of every game, on CPython and (through
host_tools/mp/replay.py --checkpoints) on MicroPython. A frame store on flash carries
the journal's checksum on every record, so a torn or flipped record is found and the
store is rebuilt from the journal.
"""

import os

import host_tools  # noqa: F401
import pytest
from host_tools.measure.matchgen import generate, header
from host_tools.mp.filestore import FileStore, StoreError, rebuild_store, record_line
from support import mpy
from support.sbn import lines_of

from scoreboard.core.match import Match
from scoreboard.core.notation import NotationError, Reader
from scoreboard.core.replay import replay
from host_tools.mp.replay_json import to_json
from scoreboard.core.store import ListStore

KINDS = ("snooker", "snooker-points", "eightball", "nineball", "tenball", "straight")


def _events(lines):
    """The header and the events up to the first line that does not read."""
    reader = Reader()
    out = []
    try:
        for text in lines:
            e = reader.feed(text)
            if e is not None:
                out.append(e)
    except NotationError:
        pass
    return reader.header, out


def _outcome(match, events):
    """Apply events; (json, error text) where the error is the first refusal."""
    for e in events:
        try:
            match.apply(e)
        except ValueError as err:
            return to_json(match), str(err)
    return to_json(match), None


def check_restores(lines):
    """At every `frame` line: checkpoint, restore, go on; the same JSON (and the same
    refusal) as applying every line to one match. Returns the number of restores."""
    head, events = _events(lines)
    full = _outcome(Match(head), events)
    restores = 0
    for i, e in enumerate(events):
        if e[1] != "frame":
            continue
        m = Match(head)
        refused = _outcome(m, events[:i + 1])[1]
        if refused is not None:
            break  # this `frame` line itself was refused: no segment starts here
        text = m.checkpoint()
        assert text.isascii() and " " not in text and "\n" not in text, text
        rebuilt = Match.restore(head, ListStore(m.store), text)
        assert rebuilt.checkpoint() == text
        assert _outcome(rebuilt, events[i + 1:]) == full, (i, text)
        # Later in the segment, the checkpoint still describes its start.
        assert _outcome(m, events[i + 1:])[0] == full[0]
        restores += 1
    return restores


SCENARIOS = list(mpy.scenario_files())


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.name)
def test_restore_gives_the_full_replay_on_every_scenario(path):
    lines = lines_of(path.read_bytes().decode("utf-8"))
    head, events = _events(lines)
    try:
        head.check()
    except ValueError:
        return  # a header that does not read: no match to checkpoint
    restores = check_restores(lines)
    if not path.name.startswith("error-"):
        assert restores == sum(1 for e in events if e[1] == "frame")


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_restore_gives_the_full_replay_on_random_matches(kind, seed):
    target = {"snooker": 3, "snooker-points": 2, "straight": 40}.get(kind, 3)
    head = header(kind, target)
    if seed % 2:
        head.append("clock shot=35 warn=10 ext=1x25 first=60")
    lines = generate(head, seed=seed, max_events=600)
    if seed % 2:
        at = 0
        for i in range(len(head), len(lines)):
            at += 1500 + (i * 7919) % 38500
            if i % 5:
                lines[i] = "@%d %s" % (at, lines[i])
    restores = check_restores(lines)
    assert restores >= 1


def test_restore_keeps_clock_changes_and_suspensions():
    text = ('sbn 1\ngame snooker\nmatch best-of 3\nside A "A"\nside B "B"\n'
            "clock shot=30\n@100 called\n@5000 frame A\n@6000 pot red\n@7000 suspend\n"
            "@9000 resume\n@9500 clock on shot=40 ext=2x20\n@10000 pot black\n"
            "@12000 concede\n@20000 frame\n@21000 extend\n@22000 end\n")
    assert check_restores(lines_of(text)) == 2


def test_restore_refuses_a_damaged_or_foreign_checkpoint():
    lines = generate(header("snooker", 3), seed=4)
    m = replay(lines)
    text = m.checkpoint()
    head = m.header
    for bad in ("", "ck2;n=1", text.replace("ck1", "ck1 "), text.replace("n=", "n=x"),
                text.replace(";cnt=", ";cnt=-")):
        with pytest.raises(ValueError, match="bad checkpoint"):
            Match.restore(head, ListStore(m.store), bad)
    with pytest.raises(ValueError, match="frame store holds"):
        Match.restore(head, ListStore(), text)


# -- the frame store ---------------------------------------------------------------------------
def _store_lines(path):
    with open(path, "rb") as f:
        return f.read().split(b"\n")


def test_file_store_records_carry_the_journal_checksum(tmp_path):
    lines = generate(header("snooker", 5), seed=6)
    path = str(tmp_path / "frames")
    on_flash = replay(lines, FileStore(path))
    in_ram = replay(lines)
    assert to_json(on_flash) == to_json(in_ram)
    rows = _store_lines(path)
    assert rows[-1] == b""
    assert [r.decode() for r in rows[:-1]] == [record_line(r) for r in in_ram.store]
    assert FileStore(path).damage is None and len(FileStore(path)) == len(in_ram.store)


@pytest.mark.parametrize("damage", ["flip", "torn", "cut"])
def test_damaged_store_is_found_and_rebuilt_from_the_journal(tmp_path, damage):
    lines = generate(header("snooker", 7), seed=8)
    path = str(tmp_path / "frames")
    replay(lines, FileStore(path))
    with open(path, "rb") as f:
        data = bytearray(f.read())
    assert data.count(b"\n") >= 3
    second = data.index(b"\n") + 1
    if damage == "flip":
        data[second + 2] ^= 0x01  # one bit of the second record
    elif damage == "torn":
        data = data[:-3]  # a write cut short: the last record has no line end
    with open(path, "wb") as f:
        f.write(data if damage != "cut" else data[:second])
    store = FileStore(path)
    if damage == "cut":
        # A file cut at a record boundary reads as fewer records: the checkpoint's
        # record count (Match.restore) is what finds it.
        assert store.damage is None and len(store) == 1
        with pytest.raises(ValueError, match="frame store holds 1 records"):
            Match.restore(replay(lines).header, store, replay(lines).checkpoint())
    else:
        line, why = store.damage
        assert line == (2 if damage == "flip" else data.count(b"\n") + 1), store.damage
        assert "checksum" in why or "torn" in why
        # A store opened before the damage reads it as an error, never as a frame.
        full = FileStore(path)
        full.count = full.count + 1
        with pytest.raises(StoreError, match="line %d" % line):
            list(full)
    match = rebuild_store(store, lines, journal=False)
    assert store.damage is None
    again = FileStore(path)
    assert again.damage is None
    assert to_json(replay(lines)) == to_json(match)
    assert list(again) == list(replay(lines).store)


def test_store_is_rebuilt_from_journal_lines(tmp_path):
    """The journal's own lines (each with its checksum) rebuild the store."""
    from scoreboard.core.words import with_checksum
    lines = generate(header("tenball", 4), seed=12)
    journal = [with_checksum(line) + "\n" for line in lines]
    path = str(tmp_path / "frames")
    store = FileStore(path)
    match = rebuild_store(store, journal)
    assert to_json(match) == to_json(replay(lines))
    assert len(FileStore(path)) == len(replay(lines).store) > 0
    with pytest.raises(NotationError, match="line 3: bad checksum"):
        rebuild_store(FileStore(str(tmp_path / "other")),
                      journal[:2] + [_flip_last_digit(journal[2])] + journal[3:])


def _flip_last_digit(line):
    body = line.rstrip("\n")
    return body[:-1] + ("0" if body[-1] != "0" else "1") + "\n"


# -- both interpreters ----------------------------------------------------------------------
def _cpython_json(path):
    try:
        return to_json(replay(mpy.split_lines(path.read_bytes().decode("utf-8")))) + "\n"
    except NotationError as e:
        return str(e) + "\n"


@pytest.mark.parametrize("kind", KINDS)
def test_micropython_restores_give_the_same_bytes(kind, tmp_path):
    head = header(kind, {"snooker": 3, "snooker-points": 2, "straight": 40}.get(kind, 3))
    lines = generate(head, seed=21, max_events=800)
    path = tmp_path / "m.sbn"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    rc, out = mpy.run_micropython(mpy.REPLAY_SCRIPT, path, "--checkpoints")
    assert rc == 0, out
    assert out == _cpython_json(path)


def test_micropython_restores_on_the_scenarios(tmp_path):
    checked = 0
    for path in SCENARIOS:
        if not path.name.startswith(("snooker-", "nineball", "tenball", "eightball",
                                     "straight")):
            continue
        rc, out = mpy.run_micropython(mpy.REPLAY_SCRIPT, path, "--checkpoints")
        assert rc == 0, out
        assert out == _cpython_json(path), path.name
        checked += 1
    assert checked >= 10


def test_micropython_reads_its_own_file_store(tmp_path):
    lines = generate(header("nineball", 5), seed=9)
    path = tmp_path / "m.sbn"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    store = tmp_path / "frames"
    rc, out = mpy.run_micropython(mpy.REPLAY_SCRIPT, path, "--store", store)
    assert rc == 0, out
    assert out == _cpython_json(path)
    assert os.path.getsize(store) > 0 and FileStore(str(store)).damage is None
