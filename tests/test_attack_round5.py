"""Issue 37: the round-5 attacks (the box and the desk under attack), one test a class,
each written from the finding's description and failing while the defect was there.

- N1: two boxes hold one tournament match; the second's result is held for the desk (a
  `held` line in sync, `tournament show`), never written over the first (SQLite and
  the real PostgreSQL).
- N2: a match moved to another table is taken back from the first table's box first;
  refused once that box has started it.
- N3: the desk maps a table to the box whose settings claim it; two boxes claiming one
  table are a conflict, neither gets its matches; a box moved to another port keeps its
  table.
- N4: a database locked while `live --db` pulls: the table says so, the match is stored
  once the lock goes.
- N5: 200 idle streams from one address leave the TV its stream.
- N6: a box that floods its answer (a fake box on a pty) is named in one line, and
  `sync` stays small.
- N7: a stray Ctrl-C or Ctrl-A during play (on the virtual device) stops nothing.
"""

import asyncio
import json
import os
import re
import socket
import subprocess
import time

import pytest

from support.hostfixtures import *  # noqa: F403  (fixtures: db_url, pg_server)
from support.floodbox import FloodBox, peak_rss_kb
from support.livebox import SCOREBOARD, KeyBox, checkout_env
from support.vdev import REPO, VirtualDevice, scoreboard
from host_tools.device.channel import answer
from host_tools.device.frames import STOP_REQUEST
from scoreboard.core.words import crc

PLAYERS = "name,seed\nAnn,1\nBob,2\nCy,\nDana,\n"


def ok(*args):
    rc, out, err = scoreboard(*args)
    assert rc == 0, out + err
    return out


def box_flash(tmp_path, name, unique):
    """A virtual box's flash folder with its own chip id (boards/host.py's unique_id)."""
    flash = tmp_path / name
    flash.mkdir()
    (flash / "unique_id").write_text(unique)
    return flash


def play(flash, tmp_path, keys, name):
    script = tmp_path / name
    script.write_text("\n".join(keys) + "\n", encoding="utf-8")
    ok("device", "--flash", flash, "--keys", script)


def bracket(url, name="Pool"):
    data = json.loads(ok("tournament", "show", name, "--json", "--db", url))
    return {m["id"]: m for m in data["matches"]}, data["held"]


# -- N1 ------------------------------------------------------------------------------------
@pytest.mark.needs_build
def test_two_boxes_with_one_tournament_match_the_second_is_held(tmp_path, db_url):
    """Box A (table 2) is assigned W1-02 and its result (side B) fills the bracket. Box
    EVIL holds the same match (its header copied) and plays it the other way: its sync
    says `held`, the bracket keeps A's result, `tournament show` lists it, and the desk
    keeps the bracket's. While the defect was there EVIL's sync said "pulled 1" and the
    winner (and F1's side) became the other player."""
    players = tmp_path / "players.csv"
    players.write_text(PLAYERS, encoding="utf-8")
    ok("tournament", "create", "Pool", "--format", "single", "--players", players, "--race",
       "1", "--breaks", "winner", "--seed", "3", "--db", db_url)
    fa = box_flash(tmp_path, "a", "000000a1")
    fe = box_flash(tmp_path, "evil", "000000e1")
    with VirtualDevice(fa) as dev:
        out = ok("setup", "--table", "2", "--port", dev.port)
        assert out.strip() == "setup: box HOST-000000A1 on %s is table 2" % dev.port
        out = ok("tournament", "assign", "Pool", "W1-02", "--table", "2", "--port", dev.port,
                 "--db", db_url)
        assert "(box HOST-000000A1)" in out
    (fe / "queue").mkdir()
    (fe / "queue" / "Pool-W1-02.sbn").write_bytes((fa / "queue" / "Pool-W1-02.sbn").read_bytes())
    play(fa, tmp_path, ["ok", "rackB"], "a.txt")
    play(fe, tmp_path, ["ok", "rackA"], "e.txt")
    with VirtualDevice(fa) as dev:
        rc, out, err = scoreboard("sync", "--port", dev.port, "--db", db_url)
    assert rc == 0 and out.strip().endswith("sync: pulled 1, skipped 0, refused 0"), out + err
    m, held = bracket(db_url)
    b = m["W1-02"]["b"]
    assert (m["W1-02"]["winner"], m["F1"]["b"], held) == (b, b, [])
    with VirtualDevice(fe) as dev:
        rc, out, err = scoreboard("sync", "--port", dev.port, "--db", db_url)
    assert rc == 0, out + err
    lines = out.strip().splitlines()
    assert lines[-1] == "sync: pulled 0, skipped 0, refused 0, held 1 for the desk", out
    held_line = next(ln for ln in lines if ln.startswith("held 1: "))
    assert "W1-02 from box HOST-000000E1" in held_line and "the bracket has W1-02" in held_line
    assert "assigned to table 2's box HOST-000000A1, not to box HOST-000000E1" in held_line
    assert held_line.endswith("the desk decides (scoreboard tournament decide Pool 1 "
                              "take|keep)")
    m, held = bracket(db_url)
    assert (m["W1-02"]["winner"], m["F1"]["b"]) == (b, b)  # unchanged
    assert [h["box"] for h in held] == ["HOST-000000E1"]
    text = ok("tournament", "show", "Pool", "--db", db_url)
    assert "held 1: W1-02 from box HOST-000000E1" in text
    # The same journal again: held once, not twice; then the desk keeps the bracket's.
    with VirtualDevice(fe) as dev:
        rc, out, _ = scoreboard("sync", "--port", dev.port, "--db", db_url)
    assert len(bracket(db_url)[1]) == 1
    assert ok("tournament", "decide", "Pool", "1", "keep", "--db", db_url).strip() == (
        "Pool: held result 1 kept out: the bracket's stays")
    assert bracket(db_url)[1] == []
    assert bracket(db_url)[0]["W1-02"]["winner"] == b


# -- N2 ------------------------------------------------------------------------------------
@pytest.mark.needs_build
def test_a_moved_match_is_taken_back_from_its_first_box(tmp_path):
    """W1-01 assigned to table 5 (box A), then to table 6 (box B): it leaves A's queue
    first. Started on B, a move back is refused with B's reason. While the defect was
    there both boxes kept it queued."""
    url = str(tmp_path / "r.sqlite")
    players = tmp_path / "players.csv"
    players.write_text(PLAYERS, encoding="utf-8")
    ok("tournament", "create", "Cup", "--format", "single", "--players", players, "--race",
       "1", "--seed", "3", "--db", url)
    fa = box_flash(tmp_path, "a", "000000a5")
    fb = box_flash(tmp_path, "b", "000000b6")
    with VirtualDevice(fa) as a, VirtualDevice(fb) as b:
        ok("setup", "--table", "5", "--port", a.port)
        ok("setup", "--table", "6", "--port", b.port)
        ok("tournament", "assign", "Cup", "W1-01", "--table", "5", "--port", a.port,
           "--db", url)
        assert (fa / "queue" / "Cup-W1-01.sbn").exists()
        out = ok("tournament", "assign", "Cup", "W1-01", "--table", "6", "--port", b.port,
                 "--db", url)
        assert "Cup: taken back from table 5's box HOST-000000A5" in out, out
        assert not (fa / "queue" / "Cup-W1-01.sbn").exists()
        assert (fb / "queue" / "Cup-W1-01.sbn").exists()
        # A box at table 6 may not be given table 5's match either.
        rc, out, err = scoreboard("tournament", "assign", "Cup", "W1-02", "--table", "5",
                                  "--port", b.port, "--db", url)
        assert rc == 1 and "is table 6's (its settings), not table 5's" in err, err
        # Started on B (the call starts it), the match cannot move back to A.
        ok("tournament", "call", "Cup", "W1-01", "--port", b.port, "--db", url)
        rc, out, err = scoreboard("tournament", "assign", "Cup", "W1-01", "--table", "5",
                                  "--port", a.port, "--db", url)
    assert rc == 1 and err.strip() == ("tournament: not moved: table 6's box HOST-000000B6 "
                                       "says match Cup-W1-01 has started on the box"), err
    assert not (fa / "queue" / "Cup-W1-01.sbn").exists()


# -- N3 ------------------------------------------------------------------------------------
def test_the_desk_finds_a_tables_box_by_its_claim_and_refuses_a_claimed_twice_table():
    """The desk's box map from the links' snapshots: table 5 is the box that claims 5,
    never the one whose match header says `table 5`; two boxes claiming 5: neither, and
    an assign to table 5 is refused naming both."""
    from host_tools.live.desk import Desk
    from host_tools.live.stream import Hub
    from host_tools.tournament import TournamentError

    hub = Hub()
    snaps = [  # (table number on the pages, port, box id, claim)
        (1, "/dev/ttyACM0", "PICO-REAL0005", 5), (2, "/dev/ttyACM1", "PICO-STRAY001", None),
        (3, "/dev/ttyACM2", "PICO-OTHER007", 7)]
    for n, port, box, claim in snaps:
        hub.tables[n] = {"table": n, "port": port, "signal": True, "box_id": box,
                         "claim": claim, "box": "PICO-STRAY001", "id": "X-0001"}
    desk = Desk(url=None)
    desk.hub = hub
    assert desk.box_port(5) == "/dev/ttyACM0"  # by its claim, whatever port order
    assert desk.box_port(1) is None and desk.box_port(2) is None
    hub.tables[4] = {"table": 4, "port": "/dev/ttyACM3", "signal": True,
                     "box_id": "PICO-CLAIMS005", "claim": 5}
    assert desk.box_port(5) is None
    assert [b["box"] for b in desk.box_rows() if b["conflict"]] == ["PICO-CLAIMS005",
                                                                  "PICO-REAL0005"]
    with pytest.raises(TournamentError) as e:
        asyncio.run(desk._assign("Cup", {"match": "W1-01", "table": 5}, "test"))
    assert str(e.value).startswith("table 5 is claimed by 2 boxes (PICO-REAL0005 on "
                                   "/dev/ttyACM0, PICO-CLAIMS005 on /dev/ttyACM3)")
    desk.pool.shutdown()
    desk.boxes.shutdown()


@pytest.mark.needs_build
def test_a_box_keeps_its_table_on_another_port_and_list_boxes_shows_a_conflict(tmp_path):
    fa = box_flash(tmp_path, "a", "000000c1")
    fb = box_flash(tmp_path, "b", "000000c2")
    with VirtualDevice(fa) as a:
        ok("setup", "--table", "3", "--port", a.port)
    with VirtualDevice(tmp_path / "spare") as _, VirtualDevice(fa) as a:  # another pty
        out = ok("list", "--boxes", "--port", a.port)
    assert out == "table 3   HOST-000000C1  %s\n" % a.port
    with VirtualDevice(fa) as a, VirtualDevice(fb) as b:
        ok("setup", "--table", "3", "--port", b.port)
        out = ok("list", "--boxes", "--port", a.port, "--port", b.port)
    assert out.splitlines() == [
        "table 3   HOST-000000C1  %s  (conflict: two boxes claim table 3)" % a.port,
        "table 3   HOST-000000C2  %s  (conflict: two boxes claim table 3)" % b.port]


# -- N4 ------------------------------------------------------------------------------------
@pytest.mark.needs_build
@pytest.mark.parametrize("engine", ["sqlite", "postgresql"])
def test_a_database_away_during_live_db_is_waited_out_and_the_match_stored(tmp_path, engine,
                                                                           request):
    """The SQLite file is held by another program (BEGIN EXCLUSIVE), or the PostgreSQL
    server stopped, while the match ends: the table says `database unavailable` and
    keeps following; once the database is back the match is stored. While the defect
    was there the link's thread died: the table said "live" for good and the match was
    never stored."""
    from support.round5_figures import LockedTable

    pg = None
    if engine == "postgresql":
        pg = request.getfixturevalue("pg_server")
        pg.reset()
    with LockedTable(tmp_path, pg) as t:
        time.sleep(1.0)
        assert t.live.tables()[1]["status"] == "database unavailable"
        assert t.stored(t.release()) == [("finished", "B")]
        t.live.wait(lambda tables: tables[1]["status"] == "live", 10, "the table live again")
    assert "database unavailable" in t.err and "Traceback" not in t.err, t.err


# -- N5 ------------------------------------------------------------------------------------
def test_two_hundred_idle_streams_from_one_address_leave_the_tv_its_stream():
    """One client opens 200 streams and never reads: at most PER_ADDRESS of them are
    taken, and the TV (another address) gets its stream. While the defect was there the
    TV got 503."""
    from host_tools.live import stream
    from support.liveweb import Web

    web = Web()
    request = b"GET /api/stream HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % web.port
    held = []
    try:
        statuses = []
        for _ in range(200):
            s = socket.create_connection(("127.0.0.1", web.port), timeout=5)
            s.sendall(request)
            statuses.append(s.recv(64).split(b"\r\n")[0])
            held.append(s)
        assert statuses.count(b"HTTP/1.1 200 OK") == stream.PER_ADDRESS
        assert statuses.count(b"HTTP/1.1 503 Service Unavailable") == 200 - stream.PER_ADDRESS
        tv = socket.socket()
        tv.bind(("127.0.0.2", 0))  # the room's TV: another address
        tv.settimeout(5)
        tv.connect(("127.0.0.1", web.port))
        tv.sendall(request)
        assert tv.recv(64).split(b"\r\n")[0] == b"HTTP/1.1 200 OK"
        tv.close()
    finally:
        for s in held:
            s.close()
        web.stop()


# -- N6 ------------------------------------------------------------------------------------
def test_a_flooding_box_is_named_and_sync_stays_small(tmp_path):
    """While the defect was there sync grew to 947 MB in 40 s and never ended."""
    box = FloodBox()
    try:
        proc = subprocess.Popen([str(SCOREBOARD), "sync", "--port", box.port, "--db",
                                 str(tmp_path / "r.sqlite")], cwd=str(REPO),
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, env=checkout_env())
        peak = 0
        start = time.monotonic()
        while proc.poll() is None and time.monotonic() - start < 60:
            peak = max(peak, peak_rss_kb(proc.pid))
            time.sleep(0.05)
        took = time.monotonic() - start
        if proc.poll() is None:
            proc.kill()
        _, err = proc.communicate()
    finally:
        box.close()
    err = err.decode()
    assert proc.returncode == 1, err
    assert len(err.strip().splitlines()) == 1, err
    assert re.fullmatch(
        r"sync: the box on %s: its answer to `ls matches` passed the bound \((65537 "
        r"pieces|\d+ KB)\) and never ended: a faulty or hostile box, left alone; what was "
        r"stored is kept and marked, run sync again\n" % re.escape(box.port), err), err
    assert took < 30 and peak < 150 * 1024, (took, peak)


# -- N7 ------------------------------------------------------------------------------------
PRESSES = ["ok"] + ["@400", "red", "@400", "black"] * 5  # six reds on the table


@pytest.mark.needs_build
def test_a_stray_ctrl_c_and_ctrl_a_during_play_stop_nothing(tmp_path):
    """Another program writes Ctrl-C, then Ctrl-A, then a terminal's `\\r\\x03\\x03` to the
    port while the referee presses: every press is journaled, the app answers. Only the
    `stop` request stops it, and then it says so. While the defect was there one byte
    stopped the match: 0 of 40 presses journaled."""  # here 10 presses, 3 strays
    box = KeyBox(tmp_path / "box", "\n".join(PRESSES) + "\n")
    try:
        box.begun()
        fd = os.open(box.port, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        try:
            for stray in (b"\x03", b"\x01", b"\r\x03\x03"):
                os.write(fd, stray)
                time.sleep(1.0)
            end = time.monotonic() + 30
            while sum(1 for ln in box.journal() if ln.split(" ")[-2:-1] in (
                    ["red"], ["black"])) < 10:
                assert time.monotonic() < end, "\n".join(box.journal())
                time.sleep(0.1)
            pots = [ln.rsplit(" *", 1)[0].split(" ", 1)[1] for ln in box.journal()
                    if ln.startswith("@") and (" red" in ln or " black" in ln)]
            assert pots == ["pot red", "pot black"] * 5, box.journal()
            os.write(fd, STOP_REQUEST)
            got = b""
            end = time.monotonic() + 10
            while b"scoreboard: stopped" not in got and time.monotonic() < end:
                try:
                    got += os.read(fd, 4096)
                except BlockingIOError:
                    time.sleep(0.05)
            assert b"scoreboard: stopped" in got
            assert any(answer(ln) and answer(ln)[1:] == ("ok", ["stopping"])
                       for ln in got.split(b"\n"))
        finally:
            os.close(fd)
    finally:
        box.stop()


# -- N15 (found beside the attacks) --------------------------------------------------------
def test_a_second_setup_in_the_same_minute_is_queued_beside_a_started_match():
    """Both setups make DESK-<minute>-S-01; the first was started on the box meanwhile:
    the second gets -2 (it was refused "already on the box")."""
    from host_tools.results.draw import Queued, free_names

    lines = ["sbn 1", "id DESK-2612061803-S-01", "game nineball", "match race-to 3"]
    got = free_names([Queued("DESK-2612061803-S-01", lines, "row 2", True)],
                     {"DESK-2612061803-S-01": "matches/DESK-2612061803-S-01.sbn"}, set())
    assert [(q[0], q[1][1]) for q in got] == [("DESK-2612061803-S-01-2",
                                                    "id DESK-2612061803-S-01-2")]


# -- N9 and N16 (the host's side of the channel) ------------------------------------------
def test_a_name_with_sb_bang_stays_the_echos_frame():
    """A player named `Ann SB! 1 ok`: the echo's frame of that header line is a frame,
    not an answer (live lost the frame and caught up for it); a real answer, and a
    damaged one (asked again), are answers."""
    from host_tools.device.channel import is_answer
    from scoreboard.core.words import with_checksum

    frame = b'SB> Cup-W1-01 6 ' + with_checksum('side A "Ann SB! 1 ok"').encode()
    assert not is_answer(frame)
    body = "12 ok sb 1"
    assert is_answer(("SB! %s *%s" % (body, crc(body))).encode())
    assert is_answer(b"SB! 12 ok sb 1 *00000000")


def test_a_hello_answered_after_the_host_asked_again_is_heard():
    """A box busy for longer than HELLO_TIMEOUT (a flash erase backlog) answers the
    first `hello` while the host waits for the second: that answer is taken (sync said
    "no answer to the request channel")."""
    from host_tools.device.channel import Channel

    class Slow:
        def __init__(self):
            self.sent = []

        def send(self, data):
            self.sent.append(data)

        def line(self, timeout):
            if len(self.sent) < 2:
                return None  # the first try times out
            seq = self.sent[0].split(b" ")[1].decode()  # the first try's answer, late
            body = "%s ok sb 1 box PICO-1 table 4" % seq
            return ("SB! %s *%s" % (body, crc(body))).encode()

    words, pieces = Channel(Slow()).ask("hello", timeout=0.01)
    assert words == ["sb", "1", "box", "PICO-1", "table", "4"] and pieces == []


def test_when_the_app_stops_both_panels_say_so(tmp_path):
    """N7's other half: a box whose app has stopped shows it, so that no referee presses
    keys into it: the e-ink's stopped screen (a full refresh), the LED's STOP."""
    import framebuf

    from boards.host import HostBoard
    from scoreboard import lang
    from scoreboard.app import App
    from scoreboard.ui import led

    board = HostBoard(str(tmp_path))
    app = App(board)
    app.boot(0)
    full = board.refreshes[1]
    app.stop()
    app.show_stopped()
    assert (app.screen.kind, app.screen.error) == ("error", lang.t("a.stopped"))
    assert board.refreshes[1] == full + 1
    want = bytearray(len(board.led_buf))
    led.stopped(framebuf.FrameBuffer(want, 32, 16, framebuf.MONO_HLSB))
    assert bytes(board.led_buf) == bytes(want) and any(want)
