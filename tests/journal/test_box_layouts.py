"""Issue 24, the box's side: odd things on the flash never stop the box starting. A bad
`settings.txt`, `counter` or `current` (a byte that is not UTF-8, a folder in its place)
and a file where `queue/` or `matches/` should be are set aside as NAME.bad (settings.txt
as settings.bad), the panel says so, and the match in play is recovered byte for byte.

Each layout runs on CPython and on the real MicroPython unix port, through the box under
attack (tests/micropython/box_attack.py: the real app on the host board); both must print
the same.
"""

import subprocess
import sys
from pathlib import Path

import pytest
from support import device, mpy

sys.path.insert(0, str(mpy.REPO / "tests" / "micropython"))
import journal_play as jp

SCRIPT = mpy.REPO / "tests" / "micropython" / "box_attack.py"
INTERPRETERS = {"cpython": Path(sys.executable), "micropython": mpy.MICROPYTHON}
HEADER = ["sbn 1", "game snooker reds=15", "match best-of 3", 'side A "Ann"', 'side B "Bob"']
HOST_BOX = "HOST-3F2A0001"
IN_PLAY = HOST_BOX + "-0003"  # the match in play on the flash: the box's third
SET_UP = ["press menu"] + ["press ok"] * 4  # a match set up on the box: the defaults, Start


def box(flash, cmds, interpreter):
    cmd = [str(mpy.tool(interpreter)), str(SCRIPT), "--flash", str(flash)]
    proc = subprocess.run(cmd, input="\n".join([*cmds, "quit"]) + "\n", text=True,
                          capture_output=True, timeout=300, check=False)
    return proc.returncode, mpy.normalise(proc.stdout + proc.stderr).splitlines()


def both(tmp_path, prepare, cmds):
    """The commands on a flash made by `prepare(flash)` under each interpreter; the
    outputs must be the same. ({name: flash}, output lines)."""
    outs, flashes = {}, {}
    for name, interpreter in INTERPRETERS.items():
        flash = tmp_path / name
        flash.mkdir()
        prepare(flash)
        rc, out = box(flash, cmds, interpreter)
        assert rc == 0 and out[-1] == ". stopped", "\n".join(out[-20:])
        outs[name], flashes[name] = out, flash
    assert outs["micropython"] == outs["cpython"]
    return flashes, outs["cpython"]


def tagged(out, tag):
    return [line[2:] for line in out if line.startswith(tag + " ")]


def shown(out):
    return [tuple(None if x == "None" else x for x in line.split("|"))
            for line in tagged(out, "N")]


def in_play(flash):
    """The box's third match, two entries in, left in play (a reset, not finished)."""
    from scoreboard.journal import Journal

    (flash / "counter").write_text("2\n")
    j = Journal(str(flash), HOST_BOX)
    j.start(HEADER)
    jp.play(j, ["frame A", "pot red"])
    assert j.id == IN_PLAY
    j.close()


def journal(flash):
    return (flash / "matches" / (IN_PLAY + ".sbn")).read_bytes()


def _write(path, data):
    path.write_bytes(data)


def _folder(path):
    path.mkdir()
    (path / "x").write_bytes(b"something of someone's")


# name: (what is done to the flash, the name spoilt, what it is set aside as, the notice)
REPAIRED = "FLASH REPAIRED: "
NEXT = ", match numbers go on from 4"
LAYOUTS = {
    "settings-not-utf8": (lambda f: _write(f / "settings.txt", b"volume=30\nlang=p\xfcl\n"),
                          "settings.txt", "settings.bad",
                          "settings.txt set aside as settings.bad, default settings"),
    "counter-not-utf8": (lambda f: _write(f / "counter", b"\xff3\n"), "counter",
                         "counter.bad", "counter set aside as counter.bad" + NEXT),
    "counter-folder": (lambda f: (f / "counter").unlink() or _folder(f / "counter"),
                       "counter", "counter.bad", "counter set aside as counter.bad" + NEXT),
    "counter-new-folder": (lambda f: _folder(f / "counter.new"), "counter.new",
                           "counter.new.bad", "counter.new set aside as counter.new.bad"),
    "queue-file": (lambda f: (f / "queue").rmdir() or _write(f / "queue", b"a queue?"),
                   "queue", "queue.bad", "queue set aside as queue.bad"),
    "matches-file": (None, "matches", "matches.bad", "matches set aside as matches.bad"),
}


@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_the_box_boots_on_an_odd_flash_and_says_what_it_set_aside(tmp_path, layout):
    spoil, name, aside, notice = LAYOUTS[layout]
    kept = {}

    def prepare(flash):
        if spoil is None:  # a file where matches/ should be: no journal can be there
            _write(flash / "matches", b"not a folder")
        else:
            in_play(flash)
            kept["journal"] = journal(flash)
            spoil(flash)
        kept["aside"] = _snapshot(flash, name)

    if spoil is None:  # the start screen: a key, then a match set up on the box
        cmds = ["text", "status", "press menu", "text", "press menu", *SET_UP[1:]]
    else:  # the match in play: a key, then abandoned, and a match set up on the box
        cmds = ["text", "status", "press black", "text", "choose abandon no_winner",
                "press ok", "press ok", *SET_UP]
    flashes, out = both(tmp_path, prepare, [*cmds, "text", "status"])
    booted, after_key, started = shown(out)
    assert booted[2] == REPAIRED + notice, booted
    assert after_key[2] is None, "the notice goes with the next key"
    assert started[0] == "score", "a new match starts on the repaired flash"
    assert tagged(out, "M")[-1] == "score 0 0 running"
    for flash in flashes.values():
        assert _snapshot(flash, aside) == kept["aside"], "set aside as it was"
        assert (flash / "matches").is_dir() and (flash / "queue").is_dir()
        if spoil is None:
            assert tagged(out, "M")[0] == "start 0 0 running"
            assert device.journal_files(flash)[-1].name == HOST_BOX + "-0001.sbn"
            continue
        assert tagged(out, "M")[0] == "score 0 0 running", "the match in play recovered"
        assert journal(flash).startswith(kept["journal"]), "the journal kept byte for byte"
        events = device.events(flash / "matches" / (IN_PLAY + ".sbn"))
        assert events == ["frame A", "pot red", "pot black", "abandon"]
        newest = device.journal_files(flash)[-1].name
        assert newest == HOST_BOX + "-0004.sbn", "no match id is used twice"
        assert (flash / "counter").read_text().strip() == "4"


def _snapshot(flash, name):
    """What NAME holds: a file's bytes, or a folder's {name: bytes}."""
    path = flash / name
    if path.is_dir():
        return {p.name: p.read_bytes() for p in path.iterdir()}
    return path.read_bytes()


def test_a_bad_settings_file_is_set_aside_and_the_next_save_works(tmp_path):
    """A settings.txt the box cannot read: defaults, and changing the volume writes a new
    one (a folder in its place would make every save fail)."""
    def prepare(flash):
        _folder(flash / "settings.txt")

    cmds = ["text", "long menu", "text"]
    flashes, out = both(tmp_path, prepare, cmds)
    booted, saved = shown(out)
    assert booted[2] == REPAIRED + "settings.txt set aside as settings.bad, default settings"
    assert saved[2] == "SOUND: 30%"
    for flash in flashes.values():
        assert (flash / "settings.txt").read_text() == "led=8\nvolume=30\n"
        assert (flash / "settings.bad" / "x").exists()


def test_a_bad_current_is_set_aside_and_its_journal_kept(tmp_path):
    """`current` a folder: nothing says which match was in play; its journal stays as it
    is for the host, and a new match starts after it."""
    kept = {}

    def prepare(flash):
        in_play(flash)
        kept["journal"] = journal(flash)
        (flash / "current").unlink()
        _folder(flash / "current")

    flashes, out = both(tmp_path, prepare, ["text", *SET_UP, "status"])
    assert shown(out)[0] == ("start", None, REPAIRED + "current set aside as current.bad")
    assert tagged(out, "M")[-1] == "score 0 0 running"
    for flash in flashes.values():
        assert journal(flash) == kept["journal"]
        assert device.journal_files(flash)[-1].name == HOST_BOX + "-0004.sbn"


def test_a_second_repair_never_overwrites_the_first(tmp_path):
    from scoreboard.files import Files

    (tmp_path / "queue").write_bytes(b"one")
    Files(str(tmp_path))
    (tmp_path / "queue").rmdir()
    (tmp_path / "queue").write_bytes(b"two")
    files = Files(str(tmp_path))
    assert files.repaired == [("queue", "queue.2.bad")]
    assert (tmp_path / "queue.bad").read_bytes() == b"one"
    assert (tmp_path / "queue.2.bad").read_bytes() == b"two"


def test_a_counter_that_is_no_number_is_set_aside_and_rebuilt(tmp_path):
    from scoreboard.journal import Journal

    (tmp_path / "matches").mkdir()
    for n in (2, 7):
        (tmp_path / "matches" / ("%s-%04d.sbn" % (HOST_BOX, n))).write_bytes(b"")
    (tmp_path / "counter").write_text("seven\n")
    (tmp_path / "current.new").write_bytes(b"\xc0\xaf\n")  # an overlong form: not UTF-8
    j = Journal(str(tmp_path), HOST_BOX)
    assert j.files.repaired == [("counter", "counter.bad"), ("current.new", "current.new.bad")]
    assert (tmp_path / "counter").read_text() == "7\n"
    assert j.files.next_number(HOST_BOX) == 8
    assert Journal(str(tmp_path), HOST_BOX).files.repaired == [], "nothing the second time"
