"""Issue 24: the box never stops for the desk. A referee plays in real time on the virtual
device (`scoreboard device --pty --keys`, the real MicroPython unix port) while the desk
syncs it again and again, directly and through `scoreboard live`, which follows it and
catches up again and again: every press is journaled, the table holds the journal line
for line, and the results hold the match. One owner per port: while live follows the
box, sync and setup go through live, with the same output and exit codes, and two
commands on one box are queued. A box whose firmware has no channel is named. The
desk's call (`called`, issue 27 item 1) on the real firmware while the referee plays."""

import threading
import time

import pytest

from host_tools.device.connect import open_box
from host_tools.device.channel import ChannelBox
from host_tools.device.sync_board import Board
from host_tools.live.link import Link
from host_tools.live.table import Table
from host_tools.results.db import open_db
from host_tools.results.sync import pull
from support import device
from support.livebox import KeyBox
from support.vdev import REPO, VirtualDevice, scoreboard
from support.waits import wait_for

MATCH = """sbn 1
game snooker reds=15
match best-of 3
side A "Ann"
side B "Bob"
"""
# A clearance in real time, a press every 0.3 to 0.45 s (the keys' own 80 + 150 ms and
# a wait): 15 reds, each with a black, then the colours.
POTS = ["red", "black"] * 15 + ["yellow", "green", "brown", "blue", "pink", "black"]


def script(pots, wait=150):
    return "ok\n@2500\n" + "".join("%s\n@%d\n" % (p, wait) for p in pots)


def played(box):
    """The pots on the box's flash, in order."""
    files = sorted((box.flash / "matches").glob("*.sbn"))
    return [ln for ln in device.events(files[-1])
            if ln.startswith("pot ")] if files else []


def follow(port):
    link = Link(Table(1, port), lambda *a: None)
    link.start()
    wait_for(lambda: link.table.signal, 20, "live never caught up")
    return link


def test_presses_during_syncs_and_catch_ups_are_all_journaled(tmp_path):
    box = KeyBox(tmp_path / "box", script(POTS), match=MATCH)
    db_url = str(tmp_path / "r.sqlite")
    try:
        box.begun()
        syncs = catch_ups = 0
        # The desk syncs the box directly while the referee plays...
        while syncs < 25:
            with open_box(box.port) as b:
                assert isinstance(b, ChannelBox)  # the app plays on
                db = open_db(db_url)
                counts = pull(b, db, out=lambda text: None)
                db.close()
            assert counts["unfinished"] == 1
            syncs += 1
        # ... then live follows it, catching up again and again, and the syncs go
        # through live (it owns the port now).
        link = follow(box.port)
        try:
            while catch_ups < 50 or syncs < 50:
                if catch_ups < 50:
                    before = link.catch_ups
                    link.refresh()
                    wait_for(lambda: link.catch_ups > before, 10, "no catch-up")
                    catch_ups += 1
                if syncs < 50:
                    with open_box(box.port) as b:
                        assert isinstance(b, ChannelBox) and b.channel.pipe.__class__.__name__ \
                            == "RelayPipe"
                        db = open_db(db_url)
                        pull(b, db, out=lambda text: None)
                        db.close()
                    syncs += 1
            assert len(played(box)) < len(POTS), "the desk's work overlapped the play"
            wait_for(lambda: len(played(box)) == len(POTS), 60, "presses lost: %s" % (
                played(box),))
            assert played(box) == ["pot " + p for p in POTS]
            wait_for(lambda: link.table.lines == box.journal(), 10, "the table lags")
        finally:
            link.stop()
            link.join(5)
    finally:
        box.stop()


def test_sync_and_setup_go_through_live_with_the_same_output(tmp_path):
    from support.hostfixtures import fill_box

    flash = tmp_path / "flash"
    flash.mkdir()
    fill_box(flash, 2)
    draw = tmp_path / "draw.csv"
    draw.write_text("table,a,b,game,format\n1,Ann,Bob,snooker,best-of 3\n")
    with VirtualDevice(flash) as dev:
        link = follow(dev.port)
        try:
            rc, out, err = scoreboard("sync", "--port", dev.port, "--db", tmp_path / "a.db")
            assert rc == 0 and out.strip().splitlines()[-1] == (
                "sync: pulled 2, skipped 0, refused 0"), out + err
            assert "Traceback" not in err
            rc, out, err = scoreboard("setup", "--port", dev.port, draw)
            assert rc == 0 and out.strip().endswith("setup: 1 match queued"), out + err
            assert len(list((flash / "queue").glob("*.sbn"))) == 1
            # Two commands at once on the followed box: queued, never interleaved.
            results = []

            def one(name):
                results.append(scoreboard("sync", "--port", dev.port, "--db",
                                          tmp_path / ("%s.db" % name), "--all"))

            threads = [threading.Thread(target=one, args=(n,)) for n in "xy"]
            for t in threads:
                t.start()
            for t in threads:
                t.join(60)
            assert [r[0] for r in results] == [0, 0], results
            assert link.table.signal
        finally:
            link.stop()
            link.join(5)


def test_two_commands_on_one_box_without_live_are_queued(tmp_path):
    from support.hostfixtures import fill_box

    flash = tmp_path / "flash"
    flash.mkdir()
    fill_box(flash, 3)
    import subprocess
    import sys

    with VirtualDevice(flash) as dev:
        # one desk command holds the port for a while (a long sync, say)...
        holder = subprocess.Popen([sys.executable, "-c", (
            "import time\nfrom host_tools.device.connect import open_box\n"
            "b = open_box(%r)\nprint('held', flush=True)\ntime.sleep(3)\nb.close()\n"
            % dev.port)], cwd=str(REPO), stdout=subprocess.PIPE, text=True)
        assert holder.stdout.readline().strip() == "held"
        sync = subprocess.Popen([sys.executable, "-m", "host_tools", "sync", "--port", dev.port,
                                 "--db", str(tmp_path / "r.db")], cwd=str(REPO),
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        said = sync.stderr.readline()  # ...the second waits for it, saying so
        assert "is in use by" in said and "waiting for it" in said, said
        assert holder.poll() is None and sync.poll() is None  # while the first holds it
        holder.wait(10)
        out, err = sync.communicate(timeout=60)
    rc = sync.returncode
    assert rc == 0, out + said + err
    assert out.strip().splitlines()[-1] == "sync: pulled 3, skipped 0, refused 0"


def test_a_box_without_the_channel_is_named_with_the_way_to_update_it(tmp_path):
    """Firmware from before the channel (the module and its use taken out of a copy of
    the firmware): sync still works, on the raw REPL, and says what to do once."""
    import shutil

    old = tmp_path / "firmware"
    shutil.copytree(REPO / "firmware", old)
    (old / "scoreboard" / "channel.py").unlink()
    app = old / "scoreboard" / "app.py"
    text = app.read_text()
    for was, now in (("board.echo.console_input() if board.echo is not None else None",
                      "None"),):
        assert was in text
        text = text.replace(was, now)
    app.write_text(text)
    main = old / "main.py"  # and its main.py leaves the keyboard interrupt on, as it did
    text = main.read_text()
    assert "    _interrupt(-1)" in text
    main.write_text(text.replace("    _interrupt(-1)", "    pass"))
    flash = tmp_path / "flash"
    flash.mkdir()
    from support.hostfixtures import fill_box

    fill_box(flash, 1)
    with VirtualDevice(flash, firmware=old) as dev:
        rc, out, err = scoreboard("sync", "--port", dev.port, "--db", tmp_path / "r.db")
    assert rc == 0 and out.strip().splitlines()[-1] == "sync: pulled 1, skipped 0, refused 0"
    assert err.count("\n") == 1 and ("has firmware without the request channel" in err
                                     and "scoreboard flash --port %s" % dev.port in err), err


@pytest.mark.parametrize("kind", ["missing", "busy"])
def test_port_messages_a_desk_can_act_on(tmp_path, kind):
    if kind == "missing":
        with VirtualDevice(tmp_path) as dev:
            rc, _, err = scoreboard("sync", "--port", tmp_path / "ttyACM9", "--db",
                                      tmp_path / "r.db")
            assert rc == 1 and err.count("\n") == 1 and dev.port in err, err
            assert err.startswith("sync: no port ") and "the boxes found are on" in err
        return
    import serial
    with VirtualDevice(tmp_path) as dev:
        held = serial.Serial(dev.port, exclusive=True)  # not a scoreboard command: named
        try:
            rc, _, err = scoreboard("sync", "--port", dev.port, "--db", tmp_path / "r.db")
        finally:
            held.close()
    assert rc == 1 and err.count("\n") == 1, err
    assert "is busy: " in err and "(pid " in err and "mpremote" not in err, err


def test_old_and_new_transports_agree(tmp_path):
    """The raw REPL's Board and the channel's ChannelBox give the same answers."""
    from support.hostfixtures import fill_box

    flash = tmp_path / "flash"
    flash.mkdir()
    ids = fill_box(flash, 2, unfinished=1)
    with VirtualDevice(flash) as dev:
        with open_box(dev.port) as b:
            new = (sorted(b.listdir("matches")), b.current(), b.read(
                "matches/%s.sbn" % ids[0]), b.box_id())
        with Board(dev.port) as b:
            old = (sorted(b.listdir("matches")), b.current(), b.read(
                "matches/%s.sbn" % ids[0]))
    assert new[:3] == old and new[3] == "HOST-3F2A0001"


def test_a_host_killed_at_any_step_leaves_the_box_playing(tmp_path):
    """sync, setup and live killed (SIGKILL: no clean-up at all) at every step of their
    work while the referee plays: the box answers at once after each, and every press
    is journaled. (The app was never stopped: nothing is left to restart.)"""
    import signal
    import subprocess

    box = KeyBox(tmp_path / "box", script(POTS[:24], wait=250), match=MATCH)
    draw = tmp_path / "draw.csv"
    draw.write_text("table,a,b,game,format\n1,Cy,Di,snooker,best-of 3\n")
    commands = [["sync", "--port", box.port, "--db", str(tmp_path / "r.db")],
                ["setup", "--port", box.port, str(draw)],
                ["live", "--port", box.port, "--http-port", "0"]]
    try:
        box.begun()
        for cmd in commands:
            for delay in (0.2, 0.4, 0.6, 0.9, 1.3):
                proc = subprocess.Popen([str(REPO / ".venv" / "bin" / "scoreboard"), *cmd],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                time.sleep(delay)
                proc.send_signal(signal.SIGKILL)
                proc.wait(10)
                t0 = time.monotonic()
                with open_box(box.port) as b:
                    assert isinstance(b, ChannelBox) and b.hello["state"] == "match"
                assert time.monotonic() - t0 < 2.0
        assert len(played(box)) < 24, "the kills overlapped the play"
        wait_for(lambda: len(played(box)) == 24, 60, "presses lost: %s" % (played(box),))
        assert played(box) == ["pot " + p for p in POTS[:24]]
    finally:
        box.stop()


def test_a_name_holding_the_frame_prefix_never_stops_a_match(tmp_path):
    """A player named `SB> 1`: the header's echo holds the prefix twice; live takes every
    line (no catch-up needed after the first), and every stroke goes in."""
    match = MATCH.replace('"Bob"', '"Bob SB> 7 x"')
    box = KeyBox(tmp_path / "box", script(["red", "black", "red", "pink"], wait=300),
                 match=match)
    try:
        link = Link(Table(1, box.port), lambda *a: None)
        link.start()
        try:
            wait_for(lambda: len(played(box)) == 4, 30, "strokes refused: %s" % played(box))
            wait_for(lambda: link.table.lines == box.journal(), 10, "the table lags")
            assert link.table.snapshot()["names"] == ["Ann", "Bob SB> 7 x"]
            assert link.catch_ups == 1 and link.failed_heals == 0
        finally:
            link.stop()
            link.join(5)
    finally:
        box.stop()


def test_four_boxes_with_live_sync_and_setup_at_once(tmp_path):
    """Four referees play; live follows the four boxes; the desk syncs and queues on all
    four at once, through live: every command exits 0, every press is journaled, and
    live's tables are the journals."""
    from support.livebox import Live

    boxes = [KeyBox(tmp_path / ("box%d" % i), script(POTS[:10], wait=300), match=MATCH)
             for i in range(4)]
    draw = tmp_path / "draw.csv"
    draw.write_text("table,a,b,game,format\n1,Cy,Di,snooker,best-of 3\n")
    live = None
    try:
        for b in boxes:
            b.begun()
        live = Live([b.port for b in boxes])
        live.wait(lambda t: len(t) == 4 and all(x["signal"] for x in t.values()), 30)
        results = []

        def desk(box, i):
            for k in range(3):
                results.append(scoreboard("sync", "--port", box.port, "--db",
                                          tmp_path / ("r%d.db" % i)))
                results.append(scoreboard("setup", "--port", box.port, draw))

        threads = [threading.Thread(target=desk, args=(b, i)) for i, b in enumerate(boxes)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(180)
        assert len(results) == 24 and [r[0] for r in results] == [0] * 24, [
            r for r in results if r[0]]
        assert all("Traceback" not in r[1] + r[2] for r in results)
        for b in boxes:
            wait_for(lambda b=b: len(played(b)) == 10, 60, "presses lost: %s" % played(b))
            assert played(b) == ["pot " + p for p in POTS[:10]]
            assert len(list((b.flash / "queue").glob("*.sbn"))) == 3
        tables = live.wait(lambda t: all(t[i + 1]["lines"] == len(b.journal())
                                         for i, b in enumerate(boxes)), 20)
        assert len(tables) == 4
    finally:
        if live is not None:
            err = live.stop()
            assert "Traceback" not in err, err
        for b in boxes:
            b.stop()


def test_a_box_whose_frames_never_check_is_given_up_named_and_never_stopped(
        tmp_path, monkeypatch):
    """A noisy cable that damages every stroke's echo frame (the answers come through):
    live catches up less and less often, gives the box up after GIVE_UP catch-ups that
    did not hold, says so, and the referee's presses all go in meanwhile."""
    from host_tools.live import link as link_module
    from support.livebox import Cable

    monkeypatch.setattr(link_module, "HEAL_GAP", 0.1)  # the test's patience, not live's
    box = KeyBox(tmp_path / "box", script(POTS[:16], wait=400), match=MATCH)
    cable = Cable(box.port, tmp_path / "ttyNOISY",
                  mangle=lambda data: data.replace(b" pot ", b" p0t "))
    logged = []
    link = None
    try:
        box.begun()
        link = Link(Table(1, str(tmp_path / "ttyNOISY")), lambda *a: None,
                    log=logged.append)
        link.start()
        wait_for(lambda: link.given_up is not None, 60, "never given up: %s" % logged)
        assert link.catch_ups == link_module.GIVE_UP
        assert link.table.status == "given up"
        assert any("given up" in line and "restart live" in line for line in logged)
        wait_for(lambda: len(played(box)) == 16, 60, "presses lost: %s" % played(box))
        assert played(box) == ["pot " + p for p in POTS[:16]]
    finally:
        if link is not None:
            link.stop()
            link.join(5)
        cable.close()
        box.stop()


def test_tables_are_numbered_by_the_boxes_own_tables(tmp_path):
    """Two boxes, found in port order, stand at tables 7 and 1 (their settings, set by
    `setup --table`): the pages number them 7 and 1 (the port order only stands in
    before a box says), whatever their matches' headers say (issue 37: a header's
    `table` is no box's identity; here each header names the other box's table)."""
    from support.livebox import Live

    for i in (0, 1):
        (tmp_path / ("box%d" % i) / "flash").mkdir(parents=True)
        (tmp_path / ("box%d" % i) / "flash" / "unique_id").write_text("0000007%d" % i)
    boxes = [KeyBox(tmp_path / ("box%d" % i), script(["red"], wait=300),
                    match=MATCH.replace("side A", "table %d\nside A" % n))
             for i, n in enumerate((1, 7))]
    live = None
    try:
        for b in boxes:
            b.begun()
        for b, n in zip(boxes, (7, 1)):
            rc, _, err = scoreboard("setup", "--table", str(n), "--port", b.port)
            assert rc == 0, err
        live = Live([b.port for b in boxes])
        tables = live.wait(lambda t: sorted(t) == [1, 7] and all(
            x["signal"] and x["lines"] for x in t.values()), 30, "the draw's numbers")
        desk = live.get("/api/desk")  # on loopback: no token, the device paths shown
        ports = {t["table"]: t["port"] for t in desk["tables"]}
        assert ports == {7: boxes[0].port, 1: boxes[1].port}, desk
        assert tables[7]["names"] == tables[1]["names"] == ["Ann", "Bob"]
        assert tables[7]["lines"] == len(boxes[0].journal())
        assert tables[1]["lines"] == len(boxes[1].journal())
    finally:
        if live is not None:
            err = live.stop()
            assert "Traceback" not in err, err
            assert "is table 7, as box HOST-00000070 claims" in err
        for b in boxes:
            b.stop()


CUP = """sbn 1
id Cup-W1-01
game snooker reds=6
match best-of 1
side A "Ann"
side B "Cy"
rules late=1
"""
# Ann clears the six reds, each with the black, then the colours: a press every 0.4 s.
CLEARANCE = ["red", "black"] * 6 + ["yellow", "green", "brown", "blue", "pink", "black"]


def test_the_desks_call_on_the_real_firmware_while_the_referee_plays(tmp_path):
    """Issue 27 item 1 on MicroPython (the unix port, firmware/ from source): `called`
    starts the queued match with its `called` line, answered by what the box did; the
    same call again, another match, a match past its first frame are refused with their
    reasons, asked again and again while the referee plays on: every press journaled,
    `called` once."""
    from host_tools.device.box import BoardError

    queue = tmp_path / "box" / "flash" / "queue"
    queue.mkdir(parents=True)
    (queue / "Cup-W1-01.sbn").write_text(CUP)
    # the referee waits for the call, then breaks off and clears (`ok`: A breaks off)
    box = KeyBox(tmp_path / "box", "@6000\nok\n@250\n" + "".join(
        "%s\n@250\n" % p for p in CLEARANCE), match=MATCH)
    try:
        with open_box(box.port) as b:
            assert isinstance(b, ChannelBox) and b.hello["state"] == "start"
            with pytest.raises(BoardError) as e:
                b.called("Cup-W1-02")
            assert str(e.value) == "the box refused: no match Cup-W1-02 on the box"
            assert b.called("Cup-W1-01") == (
                "started Cup-W1-01 with the call (late start 1 min)")
            assert (b.ask_hello()["state"], b.current()) == ("match", "Cup-W1-01")
            for mid, why in (("Cup-W1-01", "match Cup-W1-01 was called already"),
                             ("match", "match Cup-W1-01 is in progress on the box")):
                with pytest.raises(BoardError) as e:
                    b.called(mid)
                assert str(e.value) == "the box refused: " + why
        assert [ln.rsplit(" *", 1)[0] for ln in box.journal() if ln.startswith("@")] == [
            "@0 called"]
        box.begun()
        refusals = 0
        while len(played(box)) < len(CLEARANCE) - 4:  # asked again while the pots go in
            with open_box(box.port) as b:
                with pytest.raises(BoardError) as e:
                    b.called("Cup-W1-01")
                assert str(e.value) == (
                    "the box refused: match Cup-W1-01 is past its first frame")
            refusals += 1
        assert refusals >= 3
        wait_for(lambda: len(played(box)) == len(CLEARANCE), 60, "presses lost: %s" % (
            played(box),))
        events = [ln.rsplit(" *", 1)[0].split(" ", 1)[1] for ln in box.journal()
                  if ln.startswith("@")]
        assert events == ["called", "frame A"] + ["pot " + p for p in CLEARANCE], events
    finally:
        box.stop()
