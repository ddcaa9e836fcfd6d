"""Whole frames played by keys alone on the box (the real app under real MicroPython), each
journal replayed by `scoreboard replay` to the JSON of the notation a referee would write.

The expected lines are written from docs/notation.md and docs/rules.md by hand; the box must have
journaled exactly those events (stamped and checksummed), and the replay of its journal
must equal the replay of the hand-written match in everything but the times.
"""


import pytest

from scoreboard.keys.keymaps import number_key
from support import device, mpy

SNOOKER = ["sbn 1", "game snooker reds=15", "match best-of 3", 'side A "Ann"',
           'side B "Bob"']
SIX_REDS = ["sbn 1", "game snooker reds=6", "match best-of 3", 'side A "Ann"',
            'side B "Bob"']
NINEBALL = ["sbn 1", "game nineball", "match race-to 3", 'side A "Cy"', 'side B "Di"']
STRAIGHT = ["sbn 1", "game straight", "match points 100", 'side A "Ed"', 'side B "Flo"']
COLOURS = ["yellow", "green", "brown", "blue", "pink", "black"]


@pytest.fixture(params=[None, device.MP32], ids=["unix64", "unix32-frozen"])
def interpreter(request):
    """Every game by keys runs on the 64-bit unix port and on the 32-bit build with the
    firmware frozen in, where small integers are 31 bits as on a Pico."""
    return request.param


def expected_json(tmp_path, header, events):
    """The replay of the hand-written match, without its times."""
    return mpy.replay_text(tmp_path, "\n".join(header + events) + "\n", timing=False,
                           name="expected.sbn")


def check(tmp_path, header, keys, events, interpreter=None):
    flash = tmp_path / "flash"
    device.queue(flash, "m1", header)
    journal, out = device.play(flash, keys, interpreter)
    assert journal is not None, out
    assert device.events(journal) == events
    got = mpy.replay_json(journal, timing=False)
    assert got == expected_json(tmp_path, header, events)
    return got, journal


def test_147_by_keys(tmp_path, interpreter):
    keys = ["ok"] + ["red", "black"] * 15 + COLOURS
    events = ["frame A"] + ["pot red", "pot black"] * 15 + ["pot " + c for c in COLOURS]
    got, _ = check(tmp_path, SNOOKER, keys, events, interpreter)
    frame = got["frames"][0]
    assert frame["score"] == {"A": 147, "B": 0}
    assert frame["breaks"]["A"] == [147]
    assert got["frames_won"] == {"A": 1, "B": 0}


def test_foul_and_miss_replaced_twice(tmp_path, interpreter):
    keys = ["ok", "red", "end",  # A pots a red, misses the next; B to the table
            "foul", "miss", "replace",  # B misses the red: foul 4, miss; A has it replaced
            "foul", "miss", "replace"]
    events = ["frame A", "pot red", "end", "foul 4 miss", "replace", "foul 4 miss",
              "replace"]
    got, _ = check(tmp_path, SNOOKER, keys, events, interpreter)
    cur = got["current"]
    assert cur["striker"] == "B"
    assert cur["score"] == {"A": 9, "B": 0}
    assert cur["misses_in_a_row"]["B"] == 2
    assert "warn-miss" in cur["prompts"]


def test_free_ball(tmp_path, interpreter):
    keys = ["ok", "end", "foul", "ok",  # B fouls (4) and leaves A snookered
            "free", "green", "pink"]  # A takes the free ball (green, as a red), then pink
    events = ["frame A", "end", "foul 4", "free", "pot free", "pot pink"]
    got, _ = check(tmp_path, SNOOKER, keys, events, interpreter)
    assert got["current"]["score"] == {"A": 11, "B": 0}
    assert got["current"]["free_ball"] is False


def test_respotted_black(tmp_path, interpreter):
    # Six reds. A 24; B 11 from the reds, then the colours to pink (31); A's black levels.
    keys = (["ok"] + ["red", "black"] * 3 + ["end"]
            + ["red", "yellow", "red", "yellow", "red", "brown"] + COLOURS[:5] + ["end"]
            + ["black", "menu", "ok", "ok", "black"])
    events = (["frame A"] + ["pot red", "pot black"] * 3 + ["end"]
              + ["pot red", "pot yellow", "pot red", "pot yellow", "pot red", "pot brown"]
              + ["pot " + c for c in COLOURS[:5]] + ["end", "pot black", "respot A",
                                                     "pot black"])
    got, _ = check(tmp_path, SIX_REDS, keys, events, interpreter)
    frame = got["frames"][0]
    assert frame["score"] == {"A": 38, "B": 31}
    assert frame["winner"] == "A"


def test_nineball_rack_lost_on_three_fouls(tmp_path, interpreter):
    # A fouls at each of three visits (B's visits in between end without a foul); A is
    # warned on two fouls, so the third loses the rack (seed 004 2.13).
    keys = ["ok", "foul", "end", "foul", "end", "warn", "foul"]
    events = ["frame A", "foul", "end", "foul", "end", "warn A", "foul"]
    got, _ = check(tmp_path, NINEBALL, keys, events, interpreter)
    assert got["frames"][0]["how"] == "fouls"


def test_straight_pool_with_rerack(tmp_path, interpreter):
    # `score`, then the key that stands for 14 in a number entry (keymaps.NUMBERS): one
    # ball left, the board racks 14 by itself, so a `rerack` is refused; the 15th ball
    # in the way, the referee racks all 15 (a long `rerack`).
    keys = ["ok", "score", number_key("straight", 14), "rerack", "rerack long", "ball",
            "end", "foul"]
    events = ["frame A", "score 14", "rerack 15", "score 1", "end", "foul"]
    got, _ = check(tmp_path, STRAIGHT, keys, events, interpreter)
    assert got["current"]["score"] == {"A": 15, "B": -1}


def test_refused_entry_changes_nothing(tmp_path, interpreter):
    flash = tmp_path / "flash"
    device.queue(flash, "m1", SNOOKER)
    journal, _ = device.play(flash, ["ok", "pink"], interpreter)  # a colour when a red is on
    assert device.events(journal) == ["frame A"]


def test_reset_comes_back_where_it_was(tmp_path, interpreter):
    flash = tmp_path / "flash"
    device.queue(flash, "m1", SNOOKER)
    device.play(flash, ["ok", "red", "black", "red"], interpreter)
    journal, _ = device.play(flash, ["pink"], interpreter)  # a new process: the box was reset
    assert device.events(journal) == ["frame A", "pot red", "pot black", "pot red",
                                      "pot pink"]


def test_the_32_bit_build_runs_the_frozen_firmware(tmp_path):
    rc, out = device.run(tmp_path, ["where"], device.MP32)
    assert rc == 0, out
    assert not out[0].startswith(str(mpy.FIRMWARE)), out[0]
    assert out[0].endswith("scoreboard/app.py")
    rc, out = device.run(tmp_path, ["where"])
    assert out[0] == str(mpy.FIRMWARE / "scoreboard" / "app.py")


def test_a_checksummed_line_that_is_not_utf8_is_damage_not_a_crash(tmp_path, interpreter):
    """Bytes that are not UTF-8 behind a right checksum (a bad write that happened to
    check): recovery reports the line and goes on up to it, on every build."""
    import binascii

    device.queue(tmp_path, "m1", SNOOKER)
    device.play(tmp_path, ["ok", "red", "black"], interpreter)
    path = device.journal_files(tmp_path)[-1]
    bad = b"@900 pot \xff\xfe"
    path.write_bytes(path.read_bytes()
                     + bad + b" *%08x\n" % (binascii.crc32(bad) & 0xFFFFFFFF))
    rc, out = device.run(tmp_path, ["status"], interpreter)
    assert rc == 0, out
    status = next(line for line in out if line.startswith("M "))
    assert status == "M score 0 0 running", out
    files = device.journal_files(tmp_path)
    assert device.events(files[-1]) == ["frame A", "pot red", "pot black"]
