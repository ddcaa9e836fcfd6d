"""Issue 14 ("Nothing lost, nobody in"), the host tools' side: what attacking sync, the
results database, export, report, setup and flash found, each against the real parts
(the virtual device with the real mpremote, SQLite and the PostgreSQL server on
loopback, MicroPython for the firmware's message escaping).

What must hold:
- a result corrected after a sync reaches the database as the match's next version, the
  earlier kept as history; the mark on the box carries the journal's SHA-256;
- a match is keyed by its box and its id: two boxes' matches under one id are stored
  side by side, a different match under an id its box already used is refused, never
  written over; the same bytes are the same match, never doubled;
- ids are checked where they arrive (setup, sync): nothing is written outside --files;
- CSV cells cannot run as formulas; no control character reaches the terminal;
- the database password never shows, whatever the URL or the driver's message;
- one line, never a traceback, naming the file concerned;
- setup bounds ids, the queue and the flash, and refuses cells that would smuggle lines;
- flash removes only what it put on the board.
"""

import csv
import hashlib
import io
import json
import os
import sqlite3
import subprocess
import sys

import pytest

from support import mpy, pgserver
from support.hostfixtures import *  # noqa: F403  (fixtures: flash, device, db_url, pg_server)
from support.hostfixtures import fill_box
from support.vdev import (PYTHON, REPO, VirtualDevice, journal_match, journal_text,
                          match_lines, scoreboard, stored, sync)
from host_tools.results.db import open_db
from host_tools.results.db.migrations import LATEST

CONTROLS = ("\x1b", "\x07", "\x9b", "\x85", "\x7f")
VDEV_BOX = "HOST-3F2A0001"  # the box id the virtual device's app says (boards/host.py)


def last(out):
    return out.strip().splitlines()[-1]


def one_line(rc, out, err, start):
    text = (out + err).strip()
    assert rc != 0 and len(text.splitlines()) == 1 and text.startswith(start), text
    assert "Traceback" not in text
    return text


def with_box(lines, box):
    """Match lines with a `box` header line after the `id` (as the box writes it)."""
    i = next(n for n, line in enumerate(lines) if line.startswith("id "))
    return lines[:i + 1] + ["box " + box] + lines[i + 1:]


def history(url):
    db = open_db(url)
    try:
        return db.rows("SELECT box, id, version, status, sha256 FROM match_versions "
                       "ORDER BY box, id, version")
    finally:
        db.close()


def sha(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


# -- 1. a result corrected after a sync --------------------------------------------------
def test_a_corrected_result_reaches_the_database_as_a_new_version(flash, device, db_url):
    mid = "PICO-3F2A0001-0001"
    lines = with_box(match_lines(mid, seed=3), "PICO-3F2A0001")
    path = journal_match(flash, mid, lines)
    (flash / "current").write_text(mid + "\n")  # synced the moment it ended
    rc, out, err = sync(device.port, db_url)
    assert rc == 0 and last(out) == "sync: pulled 1, skipped 0, refused 0", out + err
    mark = (flash / "matches" / (mid + ".pulled")).read_text()
    assert mark.split()[2:4] == ["sha256", sha(path)]
    first = stored(db_url)[("PICO-3F2A0001", mid)]
    assert first["status"] == "finished" and first["version"] == 1

    # The referee takes the last entry back: the match is in play again (a correction
    # of a stored result: the desk takes it).
    journal_match(flash, mid, lines + ["undo"])
    rc, out, err = sync(device.port, db_url, "--accept-corrections")
    assert rc == 0, out + err
    assert last(out) == ("sync: pulled 0, skipped 0, refused 0; 1 in progress copied as "
                         "unfinished")
    now = stored(db_url)[("PICO-3F2A0001", mid)]
    assert now["status"] == "unfinished" and now["sbn"] == journal_text(lines + ["undo"])
    assert now["version"] == 2
    assert history(db_url) == [("PICO-3F2A0001", mid, 1, "finished", first["sha256"])]

    # ... and enters the last stroke again: finished again, stored, marked anew.
    again = lines + ["undo", lines[-1]]
    journal_match(flash, mid, again)
    rc, out, err = sync(device.port, db_url)
    assert rc == 0 and last(out) == "sync: pulled 1, skipped 0, refused 0", out + err
    final = stored(db_url)[("PICO-3F2A0001", mid)]
    assert final["status"] == "finished" and final["sbn"] == journal_text(again)
    assert final["version"] == 2  # the unfinished copy in between was no result
    assert [h[2] for h in history(db_url)] == [1]
    mark = (flash / "matches" / (mid + ".pulled")).read_text()
    assert mark.split()[3] == sha(flash / "matches" / (mid + ".sbn"))
    db = open_db(db_url)
    assert db.counts() == (1, len(json.loads(final["report"])["frames"]))
    db.close()
    rc, out, _ = scoreboard("export", "--db", db_url, "--format", "json")
    assert rc == 0 and [m["id"] for m in json.loads(out)] == [mid]
    assert sync(device.port, db_url)[1].strip().endswith("pulled 0, skipped 1, refused 0")


# -- 2. two matches with one id ----------------------------------------------------------
def test_two_boxes_one_id_are_stored_side_by_side(tmp_path, db_url):
    mid = "DESK-2612011000-1-01"  # the same draw, the same --date, on two boxes
    boxes = {}
    for n, name in enumerate(("PICO-0000000A", "PICO-0000000B")):
        folder = tmp_path / name
        lines = with_box(match_lines(mid, seed=11 + n), name)
        journal_match(folder, mid, lines)
        boxes[name] = folder
    for name, folder in boxes.items():
        with VirtualDevice(folder) as dev:
            rc, out, err = sync(dev.port, db_url)
        assert rc == 0 and last(out) == "sync: pulled 1, skipped 0, refused 0", out + err
        assert (folder / "matches" / (mid + ".pulled")).exists()
    rows = stored(db_url)
    assert sorted(rows) == [("PICO-0000000A", mid), ("PICO-0000000B", mid)]
    for name, folder in boxes.items():
        assert rows[(name, mid)]["sbn"] == (folder / "matches" / (mid + ".sbn")).read_text()
    rc, out, err = scoreboard("export", "--db", db_url, "--format", "json")
    assert rc == 0 and sorted(m["box"] for m in json.loads(out)) == sorted(boxes)
    rc, out, err = scoreboard("report", mid, "--db", db_url, "-o", tmp_path / "r.html")
    one_line(rc, out, err, "report: match %s was stored from 2 boxes" % mid)
    rc, out, err = scoreboard("report", mid, "--box", "PICO-0000000B", "--db", db_url,
                              "-o", tmp_path / "r.html")
    assert rc == 0, err


def test_a_different_match_under_a_used_id_is_refused_not_written_over(tmp_path):
    """Older firmware writes no `box` word, and two virtual devices report the same box
    id (their stand-in unique_id): the two boxes cannot be told apart, so the second
    match is refused with its reason."""
    url = str(tmp_path / "r.sqlite")
    mid = "DESK-2612011000-1-01"
    first, second = tmp_path / "box1", tmp_path / "box2"
    journal_match(first, mid, match_lines(mid, seed=21))
    journal_match(second, mid, match_lines(mid, seed=22, names=("Cy", "Di")))
    with VirtualDevice(first) as dev:
        assert sync(dev.port, url)[0] == 0
    (key,) = stored(url)
    assert key[1] == mid
    kept = dict(stored(url)[key])
    with VirtualDevice(second) as dev:
        rc, out, err = sync(dev.port, url)
    assert rc == 1 and last(out) == "sync: pulled 0, skipped 0, refused 1"
    assert ("refused matches/%s.sbn: a different match %s is stored already (not a "
            "continuation of its journal); the file stays on the box" % (mid, mid)) in err
    assert not (second / "matches" / (mid + ".pulled")).exists()
    assert stored(url) == {key: kept}


class _BoardRunningCode:
    """Runs the code sync sends to a board (here under CPython) with a `machine` module
    that has unique_id(), as a Pico's has, and the firmware's main.py."""

    def __init__(self, unique_id, board_txt=None):
        self.unique_id = unique_id
        self.board_txt = board_txt

    def exec(self, code):
        import contextlib
        import types
        machine = types.SimpleNamespace(unique_id=lambda: self.unique_id)
        main = types.SimpleNamespace(board_name=lambda: self.board_txt or "pico")
        saved = {k: sys.modules.get(k) for k in ("machine", "main")}
        sys.modules.update(machine=machine, main=main)
        out = io.StringIO()
        try:
            with contextlib.redirect_stdout(out):
                exec(code, {})
        finally:
            for k, v in saved.items():
                if v is None:
                    sys.modules.pop(k, None)
                else:
                    sys.modules[k] = v
        return out.getvalue().encode()


def test_a_journal_without_a_box_word_takes_the_boards_id():
    """Older firmware writes no `box`: the board is asked, and names itself as the box
    does in the headers it writes now (scoreboard.files.box_id)."""
    from host_tools.device.sync_board import Board
    from scoreboard.files import box_id
    uid = b"\xe6\x60\x38\xb7\x3f\x2a\x9c\x01"
    assert Board.box_id(_BoardRunningCode(uid)) == box_id(uid, "pico") == "PICO-3F2A9C01"
    assert Board.box_id(_BoardRunningCode(uid, "pico2_oled")) == box_id(uid, "pico2_oled")


def test_the_same_match_again_is_the_same_never_doubled(flash, device, tmp_path):
    """A database from before boxes were known (schema 3) gets the match again: the same
    bytes are the same match, whatever box the rows name."""
    url = str(tmp_path / "old.sqlite")
    ids = fill_box(flash, 2, unfinished=1)
    from host_tools.results.db import connect
    db = connect(url)
    db.migrate(upto=3)
    db.close()
    # Schema 3's rows as the tools before this change stored them (one match, its frame).
    text = journal_text(match_lines(ids[0], seed=1))
    conn = sqlite3.connect(url)
    conn.execute("INSERT INTO matches VALUES (?, '2026-11-29T18:03', 'snooker', "
                 "'best-of 3', 'Ann', 'Bob', 'finished', 'A', 2, 0, '{}', ?, ?, "
                 "'2026-11-29T20:00:00Z', 'old')",
                 (ids[0], text, hashlib.sha256(text.encode()).hexdigest()))
    conn.execute("INSERT INTO frames VALUES (?, 1, 1, 'A', 60, 10, 'A', 'potted', '', '')",
                 (ids[0],))
    conn.commit()
    conn.close()
    for _ in range(2):
        rc, out, err = sync(device.port, url, "--all")
        assert rc == 0, out + err
    # the old row keeps its box ('': unknown then); the new ones name the box that said
    # so on its request channel (the virtual device's stand-in id)
    assert sorted(stored(url)) == [("", ids[0])] + [(VDEV_BOX, i) for i in ids[1:]]
    assert history(url) == []
    rows = sqlite3.connect(url).execute(
        "SELECT box, match_id, seq FROM frames WHERE match_id = ?", (ids[0],)).fetchall()
    assert rows == [("", ids[0], 1)]  # the old row kept as it was: same bytes, same match


def test_migration_keeps_every_row(db_url):
    from host_tools.results.db import connect
    db = connect(db_url)
    db.migrate(upto=3)
    db.execute("INSERT INTO matches (id, date, game, format, side_a, side_b, status, "
               "winner, frames_a, frames_b, report, sbn, sha256, pulled_at, source) VALUES "
               "('M-1', NULL, 'snooker', 'best-of 1', 'Ann', 'Bob', 'finished', 'A', 1, 0, "
               "'{}', 'x', 'h', 't', NULL)")
    db.execute("INSERT INTO frames (match_id, seq, number, breaker, score_a, score_b, "
               "winner, how, breaks_a, breaks_b) VALUES ('M-1', 1, 1, 'A', 70, 3, 'A', "
               "'potted', '70', '')")
    db.close()
    db = open_db(db_url)
    assert db.version() == LATEST
    assert [(m["box"], m["id"], m["version"], m["side_a"]) for m in db.matches()] == [
        ("", "M-1", 1, "Ann")]
    assert [f["score_a"] for f in db.frames("M-1", "")] == [70]
    db.close()


# -- 4. ids checked where they arrive ----------------------------------------------------
def test_sync_checks_ids_and_writes_only_inside_files(flash, device, tmp_path):
    url = str(tmp_path / "r.sqlite")
    good = fill_box(flash, 1)[0]
    out_dir = tmp_path / "a" / "b" / "c" / "files"
    evil = {
        "EVIL-0001": "../../../X",
        "EVIL-0002": "/tmp/ABS",  # an absolute path
        "EVIL-0003": "OTHER-0003",  # not the file's name
    }
    for name, header_id in evil.items():
        lines = match_lines(name, seed=5)
        lines = [("id " + header_id) if ln.startswith("id ") else ln for ln in lines]
        journal_match(flash, name, lines)
    long_id = "L" * 249
    journal_match(flash, long_id, match_lines(long_id, seed=6))
    before = set(tmp_path.rglob("*"))
    for _ in range(2):  # every later sync still works
        rc, out, err = sync(device.port, url, "--files", out_dir)
        assert rc == 1 and "Traceback" not in out + err
        assert last(out) in ("sync: pulled 1, skipped 0, refused 4",
                             "sync: pulled 0, skipped 1, refused 4"), out + err
    assert "refused matches/EVIL-0001.sbn: id '../../../X': '.' is not allowed" in err
    assert "refused matches/EVIL-0002.sbn: id '/tmp/ABS': '/' is not allowed" in err
    assert ("refused matches/EVIL-0003.sbn: its id OTHER-0003 is not its file's name "
            "EVIL-0003") in err
    assert ("refused matches/%s.sbn: file name is 249 characters (at most 40)" % long_id
            ) in err
    made = set(tmp_path.rglob("*")) - before
    outside = [p for p in made if not (p == out_dir or out_dir in p.parents or
                                       p in out_dir.parents or flash in p.parents or
                                       p.name.startswith("r.sqlite"))]
    assert outside == [], outside
    assert not list(tmp_path.rglob("X.sbn")) and not os.path.exists("/tmp/ABS.sbn")
    assert sorted(p.name for p in out_dir.iterdir()) == [good + ".sbn"]
    assert set(stored(url)) == {(VDEV_BOX, good)}
    assert not list((flash / "matches").glob("EVIL-*.pulled"))


def test_setup_checks_ids_with_their_row(flash, device, tmp_path):
    draw = tmp_path / "draw.csv"
    draw.write_text("table,a,b,game,format\n1,Ann,Bob,snooker,best-of 3\n"
                    "%s,Cy,Di,snooker,best-of 3\n" % ("9" * 300), encoding="utf-8")
    rc, out, err = scoreboard("setup", "--port", device.port, draw)
    one_line(rc, out, err, 'setup: draw.csv row 3: table "999999999999999999999999...": '
                           "tables are numbered 1 to 99")
    rc, out, err = scoreboard("setup", "--port", device.port, draw, "--prefix", "P" * 27)
    one_line(rc, out, err, "setup: draw.csv row 2: match id is 43 characters (at most 40)")
    head = tmp_path / "final.sbn"
    head.write_text('sbn 1\nid ../../etc/x\ngame snooker\nmatch best-of 3\nside A "A"\n'
                    'side B "B"\n', encoding="utf-8")
    rc, out, err = scoreboard("setup", "--port", device.port, head)
    text = one_line(rc, out, err, "setup: final.sbn")
    assert "id '../../etc/x': '.' is not allowed" in text
    assert not (flash / "queue").exists() or not list((flash / "queue").iterdir())


# -- 10. setup bounds the queue and the flash --------------------------------------------
def draw_rows(n, first=1):
    return "".join("%d,Ann,Bob,snooker,best-of 3\n" % t for t in range(first, first + n))


def test_setup_bounds_the_queue_and_the_flash(flash, device, tmp_path):
    draw = tmp_path / "draw.csv"
    draw.write_text("table,a,b,game,format\n" + draw_rows(65), encoding="utf-8")
    rc, out, err = scoreboard("setup", "--port", device.port, draw)
    one_line(rc, out, err, "setup: draw.csv: 65 matches; the box's queue holds at most 64")
    draw.write_text("table,a,b,game,format\n" + draw_rows(60), encoding="utf-8")
    rc, out, err = scoreboard("setup", "--port", device.port, draw, "--prefix", "A")
    assert rc == 0 and last(out) == "setup: 60 matches queued", err
    draw.write_text("table,a,b,game,format\n" + draw_rows(5, 61), encoding="utf-8")
    rc, out, err = scoreboard("setup", "--port", device.port, draw, "--prefix", "B")
    one_line(rc, out, err, "setup: the box has 60 matches queued; 5 more make 65, over the "
                           "64 its queue holds: play or remove some first")
    assert len(list((flash / "queue").glob("*.sbn"))) == 60
    # The same draw again replaces nothing queued (issue 24): 60 more do not fit.
    draw.write_text("table,a,b,game,format\n" + draw_rows(60), encoding="utf-8")
    rc, out, err = scoreboard("setup", "--port", device.port, draw, "--prefix", "A")
    one_line(rc, out, err, "setup: the box has 60 matches queued; 60 more make 120")
    # A full flash: not one header is sent.
    (flash / "filler.bin").write_bytes(b"\0" * ((352 - 60) * 4096))
    one = tmp_path / "one.csv"
    one.write_text("table,a,b,game,format\n70,Ann,Bob,snooker,best-of 3\n")
    rc, out, err = scoreboard("setup", "--port", device.port, one)
    one_line(rc, out, err, "setup: the box's flash has ")
    assert "1 queued header needs 4 KB" in err
    assert len(list((flash / "queue").glob("*.sbn"))) == 60


# -- 20 and 13. CSV cells that smuggle lines, quotes, huge fields -----------------------
@pytest.mark.parametrize("body, start", [
    ('1,"Ann\n# evil",Bob,snooker,best-of 3\n',
     ("setup: draw.csv row 2: column a: a line break or control character (\\x0a) is not "
      "allowed in a cell")),
    ('1,Ann,Bob,snooker,"best-of 3\nside C ""x"""\n',
     "setup: draw.csv row 2: column format: a line break or control character (\\x0a)"),
    ('1,Ann\x1b[2J,Bob,snooker,best-of 3\n',
     "setup: draw.csv row 2: column a: a line break or control character (\\x1b)"),
    ('1,Ann,Bob,snooker,best-of 3\n2,"Cy,Di,snooker,best-of 3\n3,Ed,Flo,snooker,best-of 3\n',
     'setup: draw.csv row 3: a quote (") is never closed'),
    ('1,Ann,%s,snooker,best-of 3\n' % ("B" * 140000),
     "setup: draw.csv row 2: a cell is longer than 131072 characters"),
])
def test_setup_refuses_cells_that_would_become_lines(flash, device, tmp_path, body, start):
    draw = tmp_path / "draw.csv"
    draw.write_text("table,a,b,game,format\n" + body, encoding="utf-8")
    rc, out, err = scoreboard("setup", "--port", device.port, draw)
    one_line(rc, out, err, start)
    assert "\x1b" not in err
    assert not (flash / "queue").exists() or not list((flash / "queue").iterdir())


def test_setup_normalises_the_header_on_the_way_in(flash, device, tmp_path):
    head = tmp_path / "final.sbn"
    head.write_bytes(b"\xef\xbb\xbf# the final, table 3\r\n\r\n# second comment\r\nsbn 1\r\n"
                     b"game snooker  # full size\r\nmatch best-of 9\r\n\r\nside A \"Ann\"\r\n"
                     b"side B \"Bob\"\r\n")
    rc, _, err = scoreboard("setup", "--port", device.port, head, "--date",
                            "2026-12-06T14:00")
    assert rc == 0, err
    data = (flash / "queue" / "DESK-2612061400-S-01.sbn").read_bytes()
    assert data == (b'sbn 1\nid DESK-2612061400-S-01\ndate 2026-12-06T14:00\n'
                    b'game snooker reds=15\nmatch best-of 9\nside A "Ann"\nside B "Bob"\n')


# -- 16. box errors name the file --------------------------------------------------------
def test_box_errors_name_the_file(flash, device, tmp_path):
    # (a `queue` that is a file is set aside by the box itself: test_box_layouts.py)
    mid = fill_box(flash, 1)[0]
    (flash / "matches" / (mid + ".pulled")).mkdir()  # the mark cannot be written
    rc, out, err = sync(device.port, str(tmp_path / "r.sqlite"))
    assert rc == 1 and "Traceback" not in out + err
    assert "cannot write matches/%s.pulled on the box: Is a directory" % mid in err


# -- 13 and 16. --files: a regular file, a folder in the way, a link -------------------
def test_files_option_errors_name_the_file(flash, device, tmp_path):
    mid = fill_box(flash, 1)[0]
    url = str(tmp_path / "r.sqlite")
    plain = tmp_path / "plain.txt"
    plain.write_text("x")
    rc, out, err = sync(device.port, url, "--files", plain)
    one_line(rc, out, err, "sync: --files %s: not a folder" % plain)
    assert not (flash / "matches" / (mid + ".pulled")).exists()
    folder = tmp_path / "files"
    (folder / (mid + ".sbn")).mkdir(parents=True)
    rc, out, err = sync(device.port, url, "--files", folder)
    assert rc == 1 and "Traceback" not in out + err
    assert "cannot write %s: Is a directory" % (folder / (mid + ".sbn")) in err
    (folder / (mid + ".sbn")).rmdir()
    target = tmp_path / "elsewhere.txt"
    target.write_text("keep me")
    (folder / (mid + ".sbn")).symlink_to(target)
    rc, out, err = sync(device.port, url, "--files", folder, "--all")
    assert rc == 0, err
    assert target.read_text() == "keep me"
    assert not (folder / (mid + ".sbn")).is_symlink()
    assert (folder / (mid + ".sbn")).read_text() == (flash / "matches" / (
        mid + ".sbn")).read_text()


# -- 5. CSV injection --------------------------------------------------------------------
FORMULAS = ("=HYPERLINK(\"http://x\")", "+1+1", "-2+3", "@SUM(A1)", "\tTab", "\rCR")


def test_csv_export_cannot_run_formulas(flash, device, tmp_path):
    url = str(tmp_path / "r.sqlite")
    mid = "PICO-3F2A-0001"
    lines = match_lines(mid, seed=2, names=(FORMULAS[0], FORMULAS[1]), date="=1+2")
    journal_match(flash, mid, lines)
    assert sync(device.port, url)[0] == 0
    db = open_db(url)  # names the notation cannot carry, as a damaged or foreign row has
    db.execute("UPDATE matches SET side_b = ?, game = ?", ("@SUM(A1)", "-2+3"))
    db.execute("UPDATE frames SET how = ?, breaks_a = ?", ("\tTab", "\rCR"))
    db.close()
    rc, out, err = scoreboard("export", "--db", url, "--format", "csv")
    assert rc == 0, err
    assert out.startswith("\ufeff")  # the byte-order mark a spreadsheet reads UTF-8 by
    out = out[1:]  # then the cells, each quoted
    lines_out = out.splitlines()
    for line in lines_out:
        assert line.startswith('"') and line.endswith('"'), line  # every cell quoted
    rows = list(csv.DictReader(io.StringIO(out)))
    assert rows
    for r in rows:
        assert r["side_a"] == "'" + FORMULAS[0]
        assert r["side_b"] == "'@SUM(A1)" and r["game"] == "'-2+3"
        assert r["date"] == "'=1+2"
        assert r["how"] == "'\\x09Tab" and r["breaks_a"] == "'\\x0dCR"
        for cell in r.values():
            assert cell[:1] not in ("=", "+", "-", "@", "\t", "\r"), cell
        assert r["score_a"].isdigit() and r["frame"].isdigit()  # numbers stay numbers


# -- 7. control characters never reach the terminal --------------------------------------
def raw_controls(text):
    return [c for c in CONTROLS if c in text]


def test_no_control_character_reaches_the_terminal(flash, device, tmp_path):
    url = str(tmp_path / "r.sqlite")
    evil_name = "Ann\x1b]0;owned\x07\x9b2J\x85\x7f"
    mid = "PICO-3F2A-0001"
    journal_match(flash, mid, match_lines(mid, seed=2, names=(evil_name, "Bob")))
    bad = flash / "matches" / "BAD\x1b[2J\x9b-1.sbn"
    bad.write_bytes(b"sbn 1 *00000000\n")
    rc, out, err = sync(device.port, url)
    assert rc == 1 and raw_controls(out + err) == [], repr(out + err)
    assert "refused matches/BAD\\x1b[2J\\x9b-1.sbn:" in err
    for fmt in ("csv", "json"):
        rc, out, err = scoreboard("export", "--db", url, "--format", fmt)
        assert rc == 0 and raw_controls(out + err) == [], repr(out)
    data = json.loads(scoreboard("export", "--db", url, "--format", "json")[1])
    assert data[0]["sides"]["A"] == evil_name  # JSON escapes, losing nothing
    rc, out, err = scoreboard("report", "X\x1b[2J\x9b", "--db", url)
    one_line(rc, out, err, "report: no match X\\x1b[2J\\x9b in ")
    db = open_db(url)
    page = tmp_path / "m.sbn"
    page.write_text(db.match(mid)["sbn"], encoding="utf-8")
    db.close()
    rc, out, err = scoreboard("replay", page)
    assert rc == 0 and raw_controls(out + err) == [] and "Ann\\x1b]0;owned\\x07" in out
    rc, out, err = scoreboard("replay", tmp_path / "no\x1b[2J\x9b.sbn")
    one_line(rc, out, err, str(tmp_path / "no\\x1b[2J\\x9b.sbn"))


def test_c1_controls_are_escaped_on_every_interpreter(tmp_path):
    path = tmp_path / "m.sbn"
    path.write_bytes(b'sbn 1\ngame snooker\nmatch best-of 3\nside A "A"\nside B "B"\n'
                     b"frame A\npot \xc2\x9b2J\x1bred\xc2\x85\x7f\n")
    want = "line 7: unknown ball '\\x9b2J\\x1bred\\x85\\x7f'\n"
    proc = subprocess.run([sys.executable, "-m", "host_tools", "replay", str(path)],
                          capture_output=True, cwd=str(REPO), check=False)
    assert (proc.returncode, proc.stderr.decode()) == (2, want)
    assert mpy.run_micropython(mpy.REPLAY_SCRIPT, path) == (2, want)
    from support import device as dev_support
    assert mpy.run_micropython(mpy.REPLAY_SCRIPT, path, "--path", ".frozen",
                               interpreter=dev_support.MP32) == (2, want)


# -- 13. a full device, corrupt rows -----------------------------------------------------
def test_export_and_report_to_a_full_device(flash, device, tmp_path):
    url = str(tmp_path / "r.sqlite")
    mid = fill_box(flash, 1)[0]
    assert sync(device.port, url)[0] == 0
    for fmt in ("csv", "json"):
        rc, out, err = scoreboard("export", "--db", url, "--format", fmt, "-o", "/dev/full")
        one_line(rc, out, err, "export: cannot write /dev/full: No space left on device")
        with open("/dev/full", "w") as full:
            proc = subprocess.run([str(PYTHON), "-m", "host_tools", "export", "--db", url,
                                   "--format", fmt], cwd=str(REPO), stdout=full,
                                  stderr=subprocess.PIPE, check=False)
        err = proc.stderr.decode()
        assert proc.returncode != 0 and err.strip() == (
            "export: cannot write to standard output: No space left on device"), err
    rc, out, err = scoreboard("report", mid, "--db", url, "-o", "/dev/full")
    one_line(rc, out, err, "report: cannot write /dev/full: No space left on device")


@pytest.mark.parametrize("column, value, commands", [
    ("report", "{not json", ("report", "json")),
    ("report", "[]", ("report", "json")),
    ("report", '{"frames_won": 3}', ("report",)),
    ("sbn", "sbn 1\nframe A\n", ("report",)),
    ("sbn", "sbn 1\ngame snooker\n\xff", ("report",)),
])
def test_corrupt_rows_are_one_line(flash, device, tmp_path, column, value, commands):
    url = str(tmp_path / "r.sqlite")
    mid = fill_box(flash, 1)[0]
    assert sync(device.port, url)[0] == 0
    conn = sqlite3.connect(url)
    conn.execute("UPDATE matches SET %s = ?" % column, (value,))
    conn.commit()
    conn.close()
    runs = {"report": ("report", mid, "-o", tmp_path / "m.html"),
            "json": ("export", "--format", "json")}
    for name in commands:
        rc, out, err = scoreboard(*runs[name], "--db", url)
        text = one_line(rc, out, err, "%s: database %s: match %s" % (runs[name][0], url, mid))
        assert "is damaged" in text


# -- 6. the database password ------------------------------------------------------------
def env_without_pg(**extra):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("PG") and k != "SCOREBOARD_DB"}
    env.update(extra)
    return env


def test_the_password_never_shows(tmp_path, pg_server):
    port = pgserver.free_port()
    env = env_without_pg(HOME=str(tmp_path))
    secrets = ["Qs-Secret-55", "pa/ss#wd?x", "Sec%2Fret"]
    urls = [
        "postgresql://u@127.0.0.1:%d/x?password=Qs-Secret-55" % port,
        "postgresql://u@127.0.0.1:%d/x?sslmode=disable&PASSWORD=Qs-Secret-55" % port,
        "postgresql://u:pa/ss#wd?x@127.0.0.1:%d/x" % port,
        "postgresql://u:Sec%%2Fret@[127.0.0.1:%d/x" % port,
        "postgresql://u:Qs-Secret-55@127.0.0.1:notaport/x",
        "postgresql://u:Qs-Secret-55@127.0.0.1:%d/x?bogus=1" % port,
        "host=127.0.0.1 port=%d user=u password=Qs-Secret-55 dbname=x" % port,
        "mysql://u:pa/ss#wd?x@db/x",
    ]
    for url in urls:
        for cmd in (("export", "--format", "csv"), ("report", "X")):
            rc, out, err = scoreboard(*cmd, "--db", url, env=env)
            text = one_line(rc, out, err, cmd[0] + ": ")
            assert not [s for s in secrets if s in text], text
            assert "Sec" not in text and "pa/ss" not in text, text
    # The text never depends on the password: a one-letter one is not recognisable.
    texts = set()
    for pw in ("e", "s", "Zz-Long-Password-9"):
        url = "postgresql://scoreboard:%s@127.0.0.1:%d/results" % (pw, pg_server.port)
        rc, out, err = scoreboard("export", "--format", "csv", "--db", url, env=env)
        texts.add(one_line(rc, out, err, "export: cannot connect to "))
    assert len(texts) == 1, texts
    assert "postgresql://scoreboard:***@127.0.0.1" in texts.pop()


def test_a_driver_message_with_the_password_is_masked(pg_server):
    pg_server.reset()
    from host_tools.results.db import DbError
    db = open_db(pg_server.url())
    try:
        db.execute("SELECT CAST(? AS INTEGER)", (pgserver.PASSWORD,))
        raise AssertionError("the cast passed")
    except DbError as e:
        text = str(e)
    finally:
        db.close()
    assert pgserver.PASSWORD not in text and "***" not in text.replace(":***@", "")
    assert text.startswith("database postgresql://scoreboard:***@127.0.0.1")


def test_the_database_url_from_the_environment_or_a_file(flash, device, pg_server,
                                                         tmp_path):
    pg_server.reset()
    fill_box(flash, 1)
    env = env_without_pg(HOME=str(tmp_path), SCOREBOARD_DB=pg_server.url())
    rc, out, err = scoreboard("sync", "--port", device.port, env=env)
    assert rc == 0 and last(out) == "sync: pulled 1, skipped 0, refused 0", err
    url_file = tmp_path / "db.url"
    url_file.write_text("# the club's server\n%s\n" % pg_server.url())
    url_file.chmod(0o600)
    env = env_without_pg(HOME=str(tmp_path))
    rc, out, err = scoreboard("export", "--format", "json", "--db-file", url_file, env=env)
    assert rc == 0 and [m["id"] for m in json.loads(out)] == ["PICO-3F2A-0001"], err
    rc, out, err = scoreboard("report", "PICO-3F2A-0001", "--db-file", url_file, "-o",
                              tmp_path / "r.html", env=env)
    assert rc == 0, err
    rc, out, err = scoreboard("export", "--format", "json", "--db-file",
                              tmp_path / "none.url", env=env)
    one_line(rc, out, err, "export: --db-file %s: cannot read it" % (tmp_path / "none.url"))
    rc, out, err = scoreboard("export", "--format", "json", "--db-file", url_file,
                              "--db", "x.sqlite", env=env)
    one_line(rc, out, err, "export: give --db or --db-file, not both")
    empty = tmp_path / "empty.url"
    empty.write_text("# nothing\n\n")
    rc, out, err = scoreboard("export", "--format", "json", "--db-file", empty, env=env)
    one_line(rc, out, err, "export: --db-file %s: no database URL in it" % empty)
    assert pgserver.PASSWORD not in out + err


# -- 13. Ctrl-C during start-up or a migration -------------------------------------------
INTERRUPT = r'''
import os, runpy, signal, sys
sys.path.insert(0, %(repo)r)
where = sys.argv.pop(1)
if where == "import":
    class Finder:
        def find_spec(self, name, path=None, target=None):
            if name == "host_tools.results.db":
                os.kill(os.getpid(), signal.SIGINT)  # the user's Ctrl-C
            return None
    sys.meta_path.insert(0, Finder())
else:
    import host_tools.results.db
    execute = host_tools.results.db.Database.execute
    def interrupted(self, q, params=()):
        if q.startswith(where):
            os.kill(os.getpid(), signal.SIGINT)
        return execute(self, q, params)
    host_tools.results.db.Database.execute = interrupted
sys.argv[0] = "scoreboard"
runpy.run_module("host_tools", run_name="__main__")
'''


def interrupted(tmp_path, where, *args):
    script = tmp_path / "interrupt.py"
    script.write_text(INTERRUPT % {"repo": str(REPO)})
    proc = subprocess.run([str(PYTHON), str(script), where, *map(str, args)],
                          cwd=str(REPO), capture_output=True, timeout=60, check=False)
    return proc.returncode, proc.stdout.decode(), proc.stderr.decode()


def test_ctrl_c_during_start_up_or_a_migration(tmp_path):
    url = str(tmp_path / "r.sqlite")
    rc, out, err = interrupted(tmp_path, "import", "export", "--db", url, "--format", "csv")
    assert rc == 130 and (out + err).strip() == "scoreboard: interrupted", out + err
    from host_tools.results.db import connect
    db = connect(url)
    db.migrate(upto=3)
    db.execute("INSERT INTO matches (id, game, format, side_a, side_b, status, frames_a, "
               "frames_b, report, sbn, sha256, pulled_at) VALUES ('M-1', 'snooker', "
               "'best-of 1', 'Ann', 'Bob', 'finished', 1, 0, '{}', 'x', 'h', 't')")
    db.close()
    for cmd in (("export", "--format", "csv"), ("report", "M-1")):
        rc, out, err = interrupted(tmp_path, "DROP TABLE matches", *cmd, "--db", url)
        assert rc == 130 and (out + err).strip() == "%s: interrupted" % cmd[0], out + err
        db = connect(url)
        assert db.version() == 3 and db.rows("SELECT id FROM matches") == [("M-1",)]
        db.close()
    db = open_db(url)
    assert db.version() == LATEST and [m["id"] for m in db.matches()] == ["M-1"]
    db.close()


# -- 17. flash removes only what it put there --------------------------------------------
def test_flash_removes_only_what_it_put_on_the_board(tmp_path):
    from host_tools.device.flashing import build
    box = tmp_path / "pico"
    box.mkdir()
    (box / "boot.py").write_text("# the owner's boot.py\n")
    (box / "boards").mkdir()
    (box / "boards" / "mybox.py").write_text("# the owner's board variant\n")
    with VirtualDevice(box, firmware=None) as dev:
        rc, out, err = scoreboard("flash", "--port", dev.port)
        assert rc == 0, out + err
        assert (box / "boot.py").read_text() == "# the owner's boot.py\n"
        assert (box / "boards" / "mybox.py").exists()
        files = build()
        manifest = (box / "firmware.txt").read_text().splitlines()
        assert sorted(line.split(" ", 1)[1] for line in manifest
                      if not line.startswith("#")) == sorted(files)
        # A module of an earlier flash that this one no longer ships goes.
        (box / "scoreboard" / "gone.mpy").write_bytes(b"old")
        with open(box / "firmware.txt", "a") as f:
            f.write("%s scoreboard/gone.mpy\n" % hashlib.sha256(b"old").hexdigest())
        rc, out, err = scoreboard("flash", "--port", dev.port)
        assert rc == 0 and "removed scoreboard/gone.mpy" in out, out + err
        assert not (box / "scoreboard" / "gone.mpy").exists()
        assert (box / "boot.py").exists() and (box / "boards" / "mybox.py").exists()
        # A source file that would shadow a shipped module, not put there by flash:
        # refused by name, nothing copied or removed.
        (box / "scoreboard" / "app.py").write_text("raise SystemExit\n")
        (box / "scoreboard" / "ui" / "led.mpy").write_bytes(b"stale")
        rc, out, err = scoreboard("flash", "--port", dev.port)
        one_line(rc, out, err, "flash: scoreboard/app.py on the board would shadow "
                               "scoreboard/app.mpy and flash did not put it there")
        assert (box / "scoreboard" / "app.py").exists()
        assert (box / "scoreboard" / "ui" / "led.mpy").read_bytes() == b"stale"
