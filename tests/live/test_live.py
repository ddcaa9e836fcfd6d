"""Issue 19: `scoreboard live` following virtual devices that play key scripts in real time
(`scoreboard device --pty --keys`): the tables' lines are the boxes' journals, line for
line, their scores what the keys mean; the host started after the match began catches
up; the event stream resumes with Last-Event-ID; a cable pulled and plugged back and a
box reset mid-frame never double or lose a stroke, and the table says `no signal` while
the box is gone. And the pieces alone: the frames, the table's bookkeeping, bad input."""

import json
import socket
import subprocess
import time
import urllib.request

import pytest

from host_tools.device.frames import Splitter, parse
from host_tools.live.table import HEAL, NEW, SAME, TAKEN, Table
from scoreboard.core.words import with_checksum
from support.livebox import (KEYS_1, KEYS_2, MATCH, MATCH_2, SCORES_1, SCORES_2, SCOREBOARD,
                             Cable, KeyBox, Live, read_events, score)
from support.waits import wait_for


def line(text):
    return with_checksum(text)


# -- the frames and the table ------------------------------------------------------------
def test_frames_are_read_out_of_console_noise():
    s = Splitter()
    raw = (b"MicroPython v1.28\r\n>>> SB> PICO-1-0001 1 sbn 1 *6f6c9038\r\nsoft reboot\r\n"
           b"SB> PICO-1-0001 3 pot reSB> PICO-1-0001 4 end *939e093a\r\nSB> PICO-1-0001 4\r\n"
           b"SB> bad/id 2 x\r\nSB> PICO-1-0001 x y\r\nSB> PICO-1-0001 5 \xff\r\nhalf")
    frames = [parse(r) for r in s.feed(raw)]
    assert frames == [None, ("PICO-1-0001", 1, "sbn 1 *6f6c9038"), None,
                      ("PICO-1-0001", 4, "end *939e093a"), ("PICO-1-0001", 4, None),
                      ("", 0, ""), ("", 0, ""), ("", 0, "")]
    assert s.feed(b" *1\r\n") == [b"half *1"]


def test_a_table_takes_each_line_once_in_order_and_asks_for_the_journal_otherwise():
    head = [line(t) for t in MATCH.splitlines()] + [line("@0 frame A")]
    t = Table(1, "p")
    assert t.accept("M-1", 1, head[0]) == NEW
    for n, text in enumerate(head[1:], 2):
        assert t.accept("M-1", n, text) == TAKEN
    assert t.accept("M-1", 3, head[2]) == SAME  # a repeat after a reconnect
    assert t.accept("M-1", len(head), None) == SAME  # the box agrees
    pot = line("@900 pot red")
    n = len(head) + 1
    assert t.accept("M-1", n + 1, line("@1000 pot black")) == HEAL  # a line missing
    assert "missing" in t.note
    assert t.accept("M-1", n, pot[:-1] + ("0" if pot[-1] != "0" else "1")) == HEAL  # CRC
    assert t.accept("M-1", n, pot) == TAKEN
    assert score(t.snapshot()) == (1, 0)
    assert t.accept("M-1", n, line("@900 pot blue")) == HEAL  # not the line held
    assert t.accept("M-1.2", n + 1, line("@1000 end")) == HEAL  # a continuation
    assert t.accept("M-1", n + 5, None) == HEAL  # the box holds more
    assert t.accept("", 0, "") == HEAL  # a damaged frame
    assert t.accept("M-1", n + 1, line("@1000 pot red")) == HEAL  # rules refuse it
    assert len(t.lines) == n and t.snapshot()["last"] == "pot red"
    snap = t.snapshot()
    assert snap["names"] == ["Ann", "Bob"] and snap["clock"]["running"]
    assert snap["clock"]["remaining_ms"] == 45000 and snap["clock"]["warn_ms"] == 10000


# -- bad input ----------------------------------------------------------------------------
def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("args, words", [
    (["--http-port", "70000"], "0 to 65535"),
    (["--bind", "no-such-host.invalid"], "not an address"),
    (["--idle", "-1"], "--idle"),
    (["--db", "nosuchscheme://x"], "unknown database URL"),
])
def test_bad_options_are_one_line(args, words):
    proc = subprocess.run([str(SCOREBOARD), "live", "--port", "/dev/null-box", *args],
                          capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and words in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr


def test_a_port_already_taken_is_one_line():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        proc = subprocess.run([str(SCOREBOARD), "live", "--port", "/dev/null-box",
                               "--http-port", str(port)],
                              capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 1
    assert proc.stderr.strip().splitlines()[-1].startswith("live: cannot listen on")
    assert "Traceback" not in proc.stderr


# -- two boxes, real time ----------------------------------------------------------------
def _stream(url, last=None, count=3, timeout=10):
    """The first `count` events of /api/stream (from `last`): [(id, kind, data)]."""
    req = urllib.request.Request(url.rstrip("/") + "/api/stream")
    if last is not None:
        req.add_header("Last-Event-ID", str(last))
    with urllib.request.urlopen(req, timeout=timeout) as r:
        return read_events(r, count)


def _scores_of(journal):
    """The frame scores the journal passes through, each change once, by the core."""
    from host_tools.results.sync import load

    seen = []
    for n in range(1, len(journal) + 1):
        try:
            m = load(journal[:n])
        except Exception:  # a header still incomplete
            continue
        v = m.view() if m.current() is not None else None
        if v is not None and v.score is not None and (not seen or seen[-1] != tuple(v.score)):
            seen.append(tuple(v.score))
    return seen


def test_two_boxes_followed_from_after_the_start(tmp_path):
    box1 = KeyBox(tmp_path / "b1", KEYS_1)
    box2 = KeyBox(tmp_path / "b2", KEYS_2, MATCH_2)
    live = None
    try:
        box1.begun()  # both matches have begun: the host catches up from the journals
        box2.begun()
        live = Live([box1.port, box2.port])
        done = live.wait(lambda t: all(t[n]["lines"] == len(b.journal()) and t[n]["signal"]
                                       and score(t[n]) == s[-1]
                                       for n, b, s in ((1, box1, SCORES_1),
                                                       (2, box2, SCORES_2))),
                         timeout=30, what="both matches")
        for n, box, scores, names in ((1, box1, SCORES_1, ["Ann", "Bob"]),
                                      (2, box2, SCORES_2, ["Cy", "Di"])):
            journal = box.journal()
            assert _scores_of(journal) == scores  # what the keys mean
            t = done[n]
            assert t["names"] == names and t["status"] == "live"
            assert t["box"] == "HOST-3F2A0001" and t["id"] == t["stem"]
            # The table's replay is the core's of the box's journal: the notation's JSON.
            from host_tools.results.sync import load
            from host_tools.mp.replay_json import to_json

            assert t["replay"] == json.loads(to_json(load(journal)))
        one = live.get("/api/tables/2")
        assert one["names"] == ["Cy", "Di"]
        # The event stream: every table first, then one event per line; resumable.
        events = _stream(live.url, count=1)
        assert events[0][1] == "tables" and len(events[0][2]["tables"]) == 2
        last = events[0][0]
        again = _stream(live.url, last=last - 3, count=3)
        assert [e[0] for e in again] == [last - 2, last - 1, last]
        assert all(e[1] in ("line", "table") for e in again)
        # A page that does not exist, a table that does not: 404 (but an overlay waits
        # for its table: test_live_web.py).
        for path in ("/table/x/overlay", "/api/tables/9", "/api/tables/x"):
            with pytest.raises(urllib.error.HTTPError) as e:
                urllib.request.urlopen(live.url.rstrip("/") + path, timeout=10)
            assert e.value.code == 404
    finally:
        if live is not None:
            err = live.stop()
            assert "Traceback" not in err, err
        box1.stop()
        box2.stop()


# The cable is pulled after the pink (line 13), plugged back after the end (line 16),
# the box reset after the black (line 18), each in a wait of the script.
KEYS_LONG = """ok
@3000
red
black
red
pink
@2500
red
blue
end
@3000
red
black
@3000
red
green
end
red
pink
"""


def test_a_cable_pull_and_a_reset_mid_frame_lose_and_double_nothing(tmp_path):
    box = KeyBox(tmp_path / "b", KEYS_LONG)
    box.begun()
    cable = Cable(box.port, tmp_path / "ttyACM0")
    live = None
    journal = box.journal

    def until(n, timeout=20):
        wait_for(lambda: len(journal()) >= n, timeout, "the box to reach line %d" % n,
                 every=0.02)

    try:
        live = Live([cable.link])
        live.wait(lambda t: t[1]["lines"] == 13 and t[1]["signal"], what="the pink")
        cable.pull()
        t0 = time.monotonic()
        gone = live.wait(lambda t: not t[1]["signal"], timeout=5, what="no signal")
        assert time.monotonic() - t0 < 1.5
        assert gone[1]["status"] == "no signal" and gone[1]["lines"] == 13
        until(16)  # the box plays on meanwhile: red, blue, end
        cable.plug()
        t0 = time.monotonic()
        back = live.wait(lambda t: t[1]["signal"] and t[1]["lines"] == 16, timeout=10,
                         what="the box back")
        took = time.monotonic() - t0
        assert took < 1.5, took  # the right score within a second of the box coming back
        assert score(back[1]) == (21, 0)
        until(18)
        box.reset()  # a power cut mid-frame: the app recovers, the keys go on
        final = live.wait(lambda t: t[1]["signal"] and t[1]["lines"] == 23
                          and t[1]["last"] == "pot pink", timeout=30, what="the last stroke")
        assert len(journal()) == 23
        got = live.get("/api/tables/1")
        assert got["lines"] == final[1]["lines"]
        from host_tools.results.sync import load
        from host_tools.mp.replay_json import to_json

        assert got["replay"] == json.loads(to_json(load(journal())))
        assert score(got) == (28, 12)
    finally:
        if live is not None:
            err = live.stop()
            assert "Traceback" not in err, err
        cable.close()
        box.stop()
