"""Issue 24: `scoreboard live`'s web side, without a box (tests/support/liveweb.py serves
server.py's application in this process). The overlay answers before its box is found;
the event ids of a live started again follow on from the last run's; `live --help`
says what happens to the results; who may ask what (a Host header of a name this
computer does not have is refused, a token beyond loopback for the desk's view, no
device path on the read-only pages); and the attacks: too many streams, a history
asked for from the start by readers that never read, a reader that stalls while a box
talks, a client that leaves before its headers, a flood of connections past the
process's file limit."""

import contextlib
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

from host_tools import cli
from host_tools.live.stream import Hub
from support.livebox import _readline
from support.liveweb import Web, snapshot
from support.mpy import REPO


def get(web_, path, host=None, headers=None):
    """(status, headers, body text) of GET `path`, with `host` as the Host header."""
    conn = http.client.HTTPConnection("127.0.0.1", web_.port, timeout=10)
    try:
        hdrs = dict(headers or {})
        if host is not None:
            hdrs["Host"] = host
        conn.request("GET", path, headers=hdrs)
        r = conn.getresponse()
        return r.status, dict(r.getheaders()), r.read().decode()
    finally:
        conn.close()


def events(web_, path="/api/stream", until=None, count=None, timeout=10):
    """The events of a stream: [(id, kind, data)] until an event of id `until` (or
    `count` events)."""
    conn = http.client.HTTPConnection("127.0.0.1", web_.port, timeout=timeout)
    out, event = [], {}
    try:
        conn.request("GET", path)
        r = conn.getresponse()
        assert r.status == 200, r.status
        while True:
            raw = r.readline().decode().rstrip("\n")
            if raw.startswith("id: "):
                event["id"] = int(raw[4:])
            elif raw.startswith("event: "):
                event["kind"] = raw[7:]
            elif raw.startswith("data: "):
                event["data"] = json.loads(raw[6:])
            elif raw == "" and "kind" in event:
                out.append((event["id"], event["kind"], event["data"]))
                if event["id"] == until or len(out) == count:
                    return out
                event = {}
    finally:
        conn.close()


def wait(test, timeout=10.0, what="the server"):
    end = time.monotonic() + timeout
    while not test():
        assert time.monotonic() < end, "timed out waiting for " + what
        time.sleep(0.02)


@pytest.fixture
def served():
    started = []

    def start(*args, **kwargs):
        w = Web(*args, **kwargs)
        started.append(w)
        return w
    yield start
    for w in started:
        w.stop()


# -- 1. the overlay before its box --------------------------------------------------------
def test_the_overlay_answers_before_its_box_is_found(served):
    w = served()
    status, headers, body = get(w, "/table/3/overlay")
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    assert "Live.start" in body
    for path in ("/table/x/overlay", "/table/0/overlay", "/api/tables/3"):
        assert get(w, path)[0] == 404, path
    # The table appears (live finds its port): a page already waiting is told.
    last = w.hub.last_id
    w.loop.call_soon_threadsafe(w.hub.add, snapshot(3))
    got = events(w, "/api/stream?table=3&last=%d" % last, count=1)
    assert got[0][1] == "table" and got[0][2]["state"]["names"] == ["Ann", "Bob"]
    assert [t["table"] for t in events(w, "/api/stream?table=3", count=1)[0][2]["tables"]] \
        == [3]


# -- 2. live started again ------------------------------------------------------------------
def test_a_live_started_again_numbers_its_events_after_the_last_run():
    """A page that comes back to a new `live` with its Last-Event-ID must be sent every
    table (the id is past the new history), never the new run's events after it."""
    first = Hub()
    for n in range(50):
        first.publish("table", snapshot(1, pots=()) if n == 0 else first.tables[1])
    again = Hub()
    again.publish("table", snapshot(1, pots=()))
    assert again.last_id > first.last_id


# -- 3. the help ---------------------------------------------------------------------------
def test_live_help_says_without_db_nothing_is_stored(capsys):
    with pytest.raises(SystemExit):
        cli.main(["live", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "without --db or --db-file nothing is stored" in text, text
    assert "results.sqlite" not in text and "default: $" not in text


# -- 4. who may ask what ------------------------------------------------------------------
def test_a_host_header_of_another_name_is_refused_everywhere(served):
    w = served(hosts=["scores.club.example"])
    w.publish("table", snapshot(1))
    for path in ("/", "/tables", "/table/1/overlay", "/api/tables", "/api/stream",
                 "/static/live.js", "/nothing"):
        status, _, body = get(w, path, host="rebound.attacker.example:%d" % w.port)
        assert status == 403, (path, status)
        assert "rebound.attacker.example" in body and "\n" not in body.strip()
    for host in ("127.0.0.1:%d" % w.port, "localhost:%d" % w.port, "LOCALHOST.",
                 "[::1]:%d" % w.port, socket.gethostname(), "scores.club.example"):
        assert get(w, "/api/tables", host=host)[0] == 200, host


def test_beyond_loopback_the_desk_needs_the_token_and_viewers_see_no_device_path(served):
    token = "k" * 24
    w = served(bind="0.0.0.0", token=token)
    w.publish("table", snapshot(1, port="/dev/ttyACM7"))
    # The read-only pages: no token, and no device path anywhere in them.
    for path in ("/", "/tables", "/table/1/overlay", "/api/tables", "/api/tables/1"):
        status, _, body = get(w, path)
        assert status == 200 and "ttyACM7" not in body, path
    assert "port" not in json.loads(get(w, "/api/tables")[2])[0]
    got = events(w, "/api/stream", count=1)
    assert "ttyACM7" not in json.dumps(got)
    w.publish("table", snapshot(1, port="/dev/ttyACM7", pots=("red", "black")))
    got = events(w, "/api/stream?last=%d" % (w.hub.last_id - 1), count=1)
    assert got[0][1] == "table" and "port" not in got[0][2]["state"]
    # The desk's view: the token, by header or query; refused without it.
    for headers, path in (({}, "/api/desk"), ({}, "/api/desk?token=wrong"),
                          ({"Authorization": "Bearer wrong"}, "/api/desk")):
        status, _, body = get(w, path, headers=headers)
        assert status == 401 and "token" in body and "\n" not in body.strip()
    for headers, path in (({"Authorization": "Bearer " + token}, "/api/desk"),
                          ({}, "/api/desk?token=" + token)):
        status, _, body = get(w, path, headers=headers)
        assert status == 200
        assert json.loads(body)["tables"][0]["port"] == "/dev/ttyACM7"


def test_on_loopback_the_desk_needs_no_token(served):
    w = served()
    w.publish("table", snapshot(1, port="/dev/ttyACM7"))
    status, _, body = get(w, "/api/desk")
    assert status == 200 and json.loads(body)["tables"][0]["port"] == "/dev/ttyACM7"


def _live(*args, env=None):
    """`python -m host_tools live ...` from this checkout (its own code, not another)."""
    return subprocess.Popen([sys.executable, "-m", "host_tools", "live", "--http-port", "0",
                             *args], cwd=str(REPO), stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True, env=env)


def _stop(proc):
    with contextlib.suppress(ProcessLookupError):
        proc.send_signal(signal.SIGTERM)
    try:
        return proc.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        return proc.communicate(timeout=10)


def test_live_beyond_loopback_prints_the_desk_token_once():
    proc = _live("--bind", "0.0.0.0", "--port", "/dev/null-box")
    try:
        desk = _readline(proc, 20, b"live: desk: http://").split()[2]
        port = int(desk.split(":")[2].split("/")[0])
        token = desk.rsplit("?token=", 1)[1]
        here = "http://127.0.0.1:%d/api/desk" % port
        with urllib.request.urlopen(here + "?token=" + token, timeout=10) as r:
            assert json.loads(r.read())["tables"][0]["port"] == "/dev/null-box"
        with pytest.raises(urllib.error.HTTPError) as e:
            urllib.request.urlopen(here, timeout=10)
        assert e.value.code == 401
    finally:
        out, err = _stop(proc)
    assert len(token) >= 20 and (out + err).decode().count(token) == 0
