"""Issue 24: `scoreboard live`'s web side, without a box (tests/support/liveweb.py serves
server.py's application in this process). The overlay answers before its box is found;
the event ids of a live started again follow on from the last run's; `live --help`
says what happens to the results; who may ask what (a Host header of a name this
computer does not have is refused, a token beyond loopback for the desk's view, no
device path on the read-only pages); and the attacks: too many streams, a history
asked for from the start by readers that never read, a reader that stalls while a box
talks, a client that leaves before its headers, a flood of connections past the
process's file limit."""

import asyncio
import contextlib
import http.client
import json
import logging
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest
from aiohttp import web

from host_tools import cli
from host_tools.live import stream
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
    assert json.loads(body)["streams"] == {"streams": 0, "peak": 0, "refused": 0,
                                           "dropped": 0}


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


# -- 5. attacks ---------------------------------------------------------------------------
def test_streams_past_the_cap_are_told_to_come_back(served, monkeypatch):
    monkeypatch.setattr(stream, "MAX_STREAMS", 3)
    w = served()
    w.publish("table", snapshot(1))
    held = []
    try:
        for _ in range(3):
            c = http.client.HTTPConnection("127.0.0.1", w.port, timeout=10)
            c.request("GET", "/api/stream")
            assert c.getresponse().status == 200
            held.append(c)
        wait(lambda: w.hub.stats["streams"] == 3)
        status, headers, body = get(w, "/api/stream")
        assert status == 503 and int(headers["Retry-After"]) > 0
        assert "\n" not in body.strip()
        assert w.hub.stats["refused"] == 1
        assert get(w, "/api/tables")[0] == 200  # the rest of the server answers
        held.pop().close()
        wait(lambda: w.hub.stats["streams"] == 2)
        assert len(events(w, count=1)) == 1
    finally:
        for c in held:
            c.close()


def test_the_history_goes_out_in_bounded_pages(served, monkeypatch):
    """A stream from the start writes the history a page at a time (a reader that does
    not read holds a page, not the whole history as one string)."""
    sizes = []
    write = web.StreamResponse.write

    async def counted(self, data):
        sizes.append(len(data))
        await write(self, data)
    monkeypatch.setattr(web.StreamResponse, "write", counted)
    w = served()
    snap = snapshot(1)
    snap["last"] = "x" * 3000  # fat events
    first = w.hub.last_id + 1
    for n in range(300):
        w.publish("table", dict(snap, lines=n))
    got = events(w, "/api/stream?last=%d" % (first - 1), until=w.hub.last_id)
    assert [e[0] for e in got] == list(range(first, w.hub.last_id + 1))
    assert [e[2]["state"]["lines"] for e in got] == list(range(300))
    one = len(w.hub.events[-1][2])
    assert max(sizes) <= stream.PAGE + one, (max(sizes), stream.PAGE)


def test_the_history_is_kept_within_its_bounds(served, monkeypatch):
    monkeypatch.setattr(stream, "KEEP_CHARS", 50000)
    monkeypatch.setattr(stream, "KEEP", 30)
    w = served()
    snap = snapshot(1)
    for n in range(100):
        w.publish("table", dict(snap, last="x" * (3000 if n < 50 else 10), lines=n))
    hub = w.hub
    assert len(hub.events) == 30 and hub.chars == sum(len(e[2]) for e in hub.events)
    assert [e[0] for e in hub.events] == list(range(hub.last_id - 29, hub.last_id + 1))
    for n in range(3):
        w.publish("table", dict(snap, last="x" * 20000, lines=n))
    assert hub.chars <= 50000 and len(hub.events) == 2
    # A reader back from before the history gets every table instead.
    got = events(w, "/api/stream?last=%d" % (hub.last_id - 10), count=1)
    assert got[0][1] == "tables" and got[0][0] == hub.last_id


def test_a_reader_that_falls_behind_is_dropped_and_resumes_from_its_id(served,
                                                                        monkeypatch):
    monkeypatch.setattr(stream, "QUEUE", 40)
    w = served()
    w.publish("table", snapshot(1))
    stalled = socket.socket()
    stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    stalled.connect(("127.0.0.1", w.port))
    stalled.sendall(b"GET /api/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    wait(lambda: w.hub.stats["streams"] == 1)
    snap = snapshot(1)
    snap["last"] = "x" * 20000

    async def chatty():  # a box far faster than the reader reads: until it is dropped
        for n in range(5000):
            w.hub.publish("table", dict(snap, lines=n))
            assert all(c.queue.qsize() <= 40 for c in w.hub.clients)
            if w.hub.stats["dropped"]:
                return n
            await asyncio.sleep(0)  # the stream's handler writes meanwhile
    try:
        sent = w.call(chatty())
        assert sent is not None and sent < 5000
        wait(lambda: w.hub.stats["dropped"] == 1 and w.hub.stats["streams"] == 0,
             what="the stalled reader dropped")
    finally:
        stalled.close()
    # Back with its last id, a reader gets what followed it from the history.
    last = w.hub.last_id - 5
    got = events(w, "/api/stream?last=%d" % last, until=w.hub.last_id)
    assert [e[0] for e in got] == list(range(last + 1, w.hub.last_id + 1))


def test_a_client_that_leaves_before_its_headers_leaves_no_traceback(served, caplog):
    caplog.set_level(logging.DEBUG)
    w = served()
    w.publish("table", snapshot(1))
    for _ in range(20):
        s = socket.create_connection(("127.0.0.1", w.port))
        s.sendall(b"GET /api/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
        s.close()  # a reset, before the answer's headers
    # The server has come to them all once it answers a request made after them.
    c = http.client.HTTPConnection("127.0.0.1", w.port, timeout=10)
    c.request("GET", "/api/tables")
    assert c.getresponse().status == 200
    c.close()
    wait(lambda: w.hub.stats["streams"] == 0)
    noisy = [r for r in caplog.records if r.exc_info or r.levelno >= logging.WARNING]
    assert not noisy, [r.getMessage() for r in noisy]
    wait(lambda: w.hub.stats["streams"] == 0)  # and their places given back


FLOOD = """
import asyncio, resource, sys
resource.setrlimit(resource.RLIMIT_NOFILE, (80, 80))
from host_tools.commands import live
from host_tools.live.follow import serve
def ready(url, links):
    print("URL", url, flush=True)
sys.exit(asyncio.run(serve([], False, "127.0.0.1", 0, None, 10.0, live._Log(), ready=ready)))
"""


@pytest.mark.heavy  # a server process of its own, flooded
def test_a_flood_past_the_file_limit_is_one_line_and_the_pages_answer_after():
    proc = subprocess.Popen([sys.executable, "-c", FLOOD], cwd=str(REPO),
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True)
    socks = []
    said = bytearray()  # the server's stderr up to its one line of refusals
    try:
        port = int(_readline(proc, 20, b"URL ").rsplit(":", 1)[1].strip("/"))
        for _ in range(150):  # streams that never read, well past 80 open files
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            s.sendall(b"GET /api/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            socks.append(s)
        _readline(proc, 20, b"live: cannot take more connections: ", proc.stderr, said)
        for s in socks:
            s.close()
        socks = []
        end = time.monotonic() + 10
        while True:
            try:
                c = http.client.HTTPConnection("127.0.0.1", port, timeout=3)
                c.request("GET", "/api/tables")
                assert c.getresponse().status == 200
                c.close()
                break
            except (OSError, http.client.HTTPException):
                assert time.monotonic() < end, "the pages never answered again"
                time.sleep(0.2)
    finally:
        for s in socks:
            s.close()
        _, err = _stop(proc)
    err = (bytes(said) + err).decode()
    assert "Traceback" not in err, err[:2000]
    assert err.count("live: cannot take more connections") == 1, err[:2000]
    assert len(err) < 1000, err[:2000]
    assert err.count("too many open files") == 1, err
