"""Issue 24: `scoreboard live`'s web side, without a box (tests/support/liveweb.py serves
server.py's application in this process). The overlay answers before its box is found;
the event ids of a live started again follow on from the last run's; `live --help`
says what happens to the results; who may ask what (a Host header of a name this
computer does not have is refused, a token beyond loopback for the desk's view, no
device path on the read-only pages); and the attacks: too many streams, a history
asked for from the start by readers that never read, a reader that stalls while a box
talks, a client that leaves before its headers, a flood of connections past the
process's file limit."""

import http.client
import json
import time

import pytest

from host_tools import cli
from host_tools.live.stream import Hub
from support.liveweb import Web, snapshot


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
