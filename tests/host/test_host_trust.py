"""Issue 24: results you can trust, and a desk that can find them. Against the virtual
device with the real mpremote, into SQLite and the PostgreSQL server on loopback.

What must hold:
- a stored match is bound to the device that first delivered it (its USB serial number;
  the virtual device has none: then its box id): another box claiming its id is refused;
- a result that changed after it was stored is held, its before and after named, until
  the desk takes it with `sync --accept-corrections`;
- `live --db` stores what sync stores: another box's match under a stored id, and holds
  a correction with its reason in the live log; it stores from its link threads;
- sync names the database and the ids it stored; `scoreboard list` shows what is stored.
"""

import json
import threading
from pathlib import Path

import serial.tools.list_ports

from support.hostfixtures import *  # noqa: F403  (fixtures: flash, device, db_url, pg_server)
from support.hostfixtures import fill_box
from support.vdev import (VirtualDevice, journal_match, journal_text, match_lines,
                          scoreboard, stored, sync)
from support.waits import wait_for
from host_tools.results.db import masked_url, open_db
from host_tools.results.db.migrations import LATEST
from scoreboard.core.replay import replay


def with_box(lines, box):
    """Match lines with a `box` header line after the `id` (as the box writes it)."""
    i = next(n for n, line in enumerate(lines) if line.startswith("id "))
    return lines[:i + 1] + ["box " + box] + lines[i + 1:]


def last(out):
    return out.strip().splitlines()[-1]


class UsbPort:
    """What pyserial's list_ports gives for a USB serial device."""

    def __init__(self, device, serial_number):
        self.device = device
        self.serial_number = serial_number
        self.vid, self.pid = 0x2E8A, 0x0005

    def __lt__(self, other):
        return self.device < other.device


def sync_over_usb(monkeypatch, capsys, port, url, serial_number, *more):
    """`scoreboard sync` in this process, the port seen as a USB device with this serial
    number (as a Pico's is: its unique id)."""
    from host_tools.cli import main

    monkeypatch.setattr(serial.tools.list_ports, "comports",
                        lambda *a, **k: [UsbPort(port, serial_number)])
    rc = main(["sync", "--port", port, "--db", url, *more])
    out, err = capsys.readouterr()
    return rc, out, err


def result_of(lines):
    """`Ann 2-1 Bob` (and `, in play` while unfinished) of match lines."""
    m = replay(journal_text(lines).splitlines(True), journal=True)
    won = m.frames_won()
    text = "Ann %d-%d Bob" % (won[0], won[1])
    return text if m.result() is not None else text + ", in play"


# -- 1. a stored match is bound to the device that delivered it ---------------------------
def test_device_identity_is_the_usb_serial_number_else_the_box(monkeypatch):
    from host_tools.results.sync import device_identity

    monkeypatch.setattr(serial.tools.list_ports, "comports", lambda *a, **k: [
        UsbPort("/dev/ttyACM0", "E66038B73F2A9C01"), UsbPort("/dev/ttyACM1", None)])
    assert device_identity("/dev/ttyACM0", "PICO-3F2A9C01") == "E66038B73F2A9C01"
    assert device_identity("/dev/ttyACM1", "PICO-00000001") == "PICO-00000001"
    assert device_identity("/dev/pts/7", "") == ""


def test_another_box_claiming_a_stored_id_is_refused(tmp_path, db_url, monkeypatch, capsys):
    mid = "PICO-0000000A-0001"
    lines = with_box(match_lines(mid, seed=3), "PICO-0000000A")
    real, other = tmp_path / "real", tmp_path / "other"
    journal_match(real, mid, lines)
    with VirtualDevice(real) as dev:
        rc, out, err = sync_over_usb(monkeypatch, capsys, dev.port, db_url, "E6600000000000A1")
    assert rc == 0 and last(out) == "sync: pulled 1, skipped 0, refused 0", out + err
    first = stored(db_url)[("PICO-0000000A", mid)]

    # Another box writes the first one's id and box, takes the end back and ends anew.
    journal_match(other, mid, lines + ["undo", lines[-1]])
    with VirtualDevice(other) as dev:
        rc, out, err = sync_over_usb(monkeypatch, capsys, dev.port, db_url,
                                     "E6600000000000B2", "--accept-corrections")
    assert rc == 1 and last(out) == "sync: pulled 0, skipped 0, refused 1", out + err
    assert ("refused matches/%s.sbn: claims id %s, stored from box PICO-0000000A"
            % (mid, mid)) in err, err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in out + err
    assert not (other / "matches" / (mid + ".pulled")).exists()
    assert stored(db_url) == {("PICO-0000000A", mid): first}

    # The box that delivered it corrects it: that is a correction, taken when asked.
    journal_match(real, mid, lines + ["undo", lines[-1]])
    with VirtualDevice(real) as dev:
        rc, out, err = sync_over_usb(monkeypatch, capsys, dev.port, db_url,
                                     "E6600000000000A1", "--accept-corrections")
    assert rc == 0, out + err
    assert stored(db_url)[("PICO-0000000A", mid)]["version"] == 2


# -- 1. a correction waits for the desk ---------------------------------------------------
def test_a_correction_is_held_until_the_desk_takes_it(flash, device, db_url):
    mid = "PICO-3F2A0001-0001"
    lines = with_box(match_lines(mid, seed=3), "PICO-3F2A0001")
    journal_match(flash, mid, lines)
    (flash / "current").write_text(mid + "\n")  # synced the moment it ended
    assert sync(device.port, db_url)[0] == 0
    first = stored(db_url)[("PICO-3F2A0001", mid)]
    mark = (flash / "matches" / (mid + ".pulled")).read_text()

    journal_match(flash, mid, lines + ["undo"])  # the end taken back: in play again
    want = ("refused matches/%s.sbn: corrected on the box: %s -> %s; `scoreboard sync "
            "--accept-corrections` takes it" % (mid, result_of(lines),
                                                result_of(lines + ["undo"])))
    for _ in range(2):  # held: refused again until the desk takes it
        rc, out, err = sync(device.port, db_url)
        assert rc == 1 and last(out) == "sync: pulled 0, skipped 0, refused 1", out + err
        assert err.strip() == want
        assert stored(db_url) == {("PICO-3F2A0001", mid): first}
        assert (flash / "matches" / (mid + ".pulled")).read_text() == mark

    rc, out, err = sync(device.port, db_url, "--accept-corrections")
    assert rc == 0, out + err
    now = stored(db_url)[("PICO-3F2A0001", mid)]
    assert now["version"] == 2 and now["sbn"] == journal_text(lines + ["undo"])
    assert now["status"] == "unfinished"


# -- 3. sync names the database and the ids -----------------------------------------------
def test_sync_names_the_database_and_the_ids_it_stored(flash, device, db_url):
    ids = fill_box(flash, 2, unfinished=1)
    where = str(Path(db_url).resolve()) if db_url.endswith(".sqlite") else masked_url(db_url)
    rc, out, err = sync(device.port, db_url)
    assert rc == 0, err
    assert out.strip().splitlines() == [
        "sync: database %s" % where,
        "sync: stored %s, %s" % (ids[0], ids[1]),
        "sync: copied in progress %s" % ids[2],
        "sync: pulled 2, skipped 0, refused 0; 1 in progress copied as unfinished"]
    if not db_url.endswith(".sqlite"):
        assert ":***@" in where and "://scoreboard:" + "***" in out
    journal_match(flash, ids[2], match_lines(ids[2], seed=3))  # played to its end
    rc, out, err = sync(device.port, db_url)
    assert rc == 0, err
    assert out.strip().splitlines()[1:] == [
        "sync: updated %s" % ids[2], "sync: pulled 1, skipped 2, refused 0"]


# -- 4. scoreboard list ------------------------------------------------------------------
def test_list_shows_each_stored_match_on_one_line(flash, device, db_url, tmp_path):
    ids = fill_box(flash, 2, unfinished=1)
    assert sync(device.port, db_url)[0] == 0
    rows = {m["id"]: m for m in stored(db_url).values()}
    rc, out, err = scoreboard("list", "--db", db_url)
    assert rc == 0, err
    got = out.splitlines()
    assert len(got) == 3
    for text, mid in zip(got, ids):
        m = rows[mid]
        assert text.split()[0] == mid
        assert "%s %d-%d %s" % (m["side_a"], m["frames_a"], m["frames_b"], m["side_b"]) in text
        assert m["date"] in text
    assert "in play" in got[2] and "in play" not in got[0]
    rc, out, err = scoreboard("list", "--db", db_url, "--json")
    assert rc == 0, err
    data = json.loads(out)
    assert [d["id"] for d in data] == ids
    assert data[0]["sides"] == {"A": "Ann", "B": "Bob"}
    assert data[0]["frames_won"] == {"A": rows[ids[0]]["frames_a"],
                                     "B": rows[ids[0]]["frames_b"]}
    assert data[2]["stored"] == "unfinished" and data[0]["date"] == rows[ids[0]]["date"]
    rc, out, err = scoreboard("list", "--db", str(tmp_path / "none.sqlite"))
    text = (out + err).strip()
    assert rc == 2 and len(text.splitlines()) == 1 and text.startswith(
        "list: no results database at "), text


# -- 2 and 5. live --db stores as sync does, from its link threads ------------------------
def test_live_results_store_from_a_worker_thread(flash, device, db_url):
    from host_tools.device.sync_board import Board
    from host_tools.live.results import Results

    ids = fill_box(flash, 2)
    results = Results(db_url)
    failed = []

    def work():
        try:
            with Board(device.port) as board:
                results.pull(board, 1)
        except Exception as e:  # the test reports what the thread got
            failed.append(e)

    try:
        worker = threading.Thread(target=work)
        worker.start()
        worker.join(60)
    finally:
        results.close()
    assert failed == []
    assert sorted(m["id"] for m in stored(db_url).values()) == ids


def follow(port, results, done, logged, timeout=40):
    """Follow the box on `port` as `live --db` does (one link) until done()."""
    from host_tools.live.link import Link
    from host_tools.live.table import Table

    link = Link(Table(1, port), lambda *a: None, results, idle=0.2, log=logged.append)
    link.start()
    try:
        wait_for(done, timeout, lambda: "live to get there: %s" % logged, every=0.1)
    finally:
        link.stop()
        link.join(10)


def test_live_keys_on_box_and_id_and_holds_corrections(tmp_path, db_url):
    from host_tools.live.results import Results

    mid = "DESK-2612011000-1-01"  # the same draw on two boxes
    folders, lines = {}, {}
    for n, box in enumerate(("PICO-0000000A", "PICO-0000000B")):
        folders[box] = tmp_path / box
        lines[box] = with_box(match_lines(mid, seed=11 + n), box)
        journal_match(folders[box], mid, lines[box])
        (folders[box] / "current").write_text(mid + "\n")
    logged = []
    results = Results(db_url, logged.append)
    try:
        for box, folder in folders.items():
            with VirtualDevice(folder) as dev:
                follow(dev.port, results,
                       lambda f=folder: (f / "matches" / (mid + ".pulled")).exists(), logged)
        assert sorted(stored(db_url)) == [("PICO-0000000A", mid), ("PICO-0000000B", mid)]

        # Box A's last stroke is taken back and entered again while live is away (live
        # visits a finished match): a correction, held for the desk.
        box = "PICO-0000000A"
        first = stored(db_url)[(box, mid)]
        again = lines[box] + ["undo", lines[box][-1]]
        journal_match(folders[box], mid, again)
        want = ("table 1: refused matches/%s.sbn: corrected on the box: %s -> %s; "
                "`scoreboard sync --accept-corrections` takes it" % (
                    mid, result_of(lines[box]), result_of(again)))
        with VirtualDevice(folders[box]) as dev:
            follow(dev.port, results, lambda: want in logged, logged)
        assert stored(db_url)[(box, mid)] == first
    finally:
        results.close()


# -- the schema: the device column, every row kept ---------------------------------------
def test_migration_to_the_device_column_keeps_every_row(db_url):
    from host_tools.results.db import connect

    db = connect(db_url)
    db.migrate(upto=4)
    cols = ("box, id, version, date, game, format, side_a, side_b, status, winner, "
            "frames_a, frames_b, report, sbn, sha256, pulled_at, source")
    row = ("PICO-0000000A", "M-1", 2, None, "snooker", "best-of 1", "Ann", "Bob",
           "finished", "A", 1, 0, "{}", "x", "h", "t", None)
    db.execute("INSERT INTO matches (%s) VALUES (%s)" % (cols, ", ".join("?" * 17)), row)
    db.execute("INSERT INTO match_versions (%s, replaced_at) VALUES (%s, 'r')" % (
        cols, ", ".join("?" * 17)), row[:2] + (1,) + row[3:])
    db.execute("INSERT INTO frames (box, match_id, seq, number, breaker, score_a, score_b, "
               "winner, how, breaks_a, breaks_b) VALUES ('PICO-0000000A', 'M-1', 1, 1, "
               "'A', 70, 3, 'A', 'potted', '70', '')")
    db.close()
    db = open_db(db_url)
    try:
        assert db.version() == LATEST  # every migration since, the device column among them
        m = db.match("M-1")
        assert (m["box"], m["version"], m["side_a"], m["device"]) == (
            "PICO-0000000A", 2, "Ann", None)
        assert db.rows("SELECT id, version, device FROM match_versions") == [("M-1", 1, None)]
        assert [f["score_a"] for f in db.frames("M-1", "PICO-0000000A")] == [70]
    finally:
        db.close()
