# ruff: noqa: RUF001  (Cyrillic letters look like Latin ones: they are the language)
"""Issue 38, the desk's actions over HTTP (live's application with the desk's routes,
real SQLite, no browser):
- N10: a body of the wrong shape (stages as a list or a string, JSON nested 100,000
  deep, a winner that is a list) is a 400 of one line, never a 500; `"correct"` is a JSON
  boolean: `"no"` is refused, not taken as yes;
- the refusals in the desk's language (`--lang pl|bg`);
- the event's name as the club writes it, found by its id in the addresses;
- a call taken back (`uncall`);
- the status follows the table: a match assigned or called is `playing` once its box has
  begun its first frame (the box's lines, as the links publish them), not before, and
  not from the box of another table."""

import json
import time
import urllib.error
import urllib.request

import pytest

from host_tools.live.table import Table
from host_tools.results.db import open_db
from host_tools.tournament import store
from host_tools.tournament.header import header_lines
from scoreboard.core.words import with_checksum
from support.deskpage import csv_text, played, served


def post(url, body, raw=None):
    req = urllib.request.Request(url, raw if raw is not None else json.dumps(body).encode(),
                                 {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=20) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def get(url):
    with urllib.request.urlopen(url, timeout=20) as r:
        return json.loads(r.read())


def status(web, mid, name="Cup"):
    return next(m for m in get(web.url + "api/tournament/" + name)["matches"]
                if m["id"] == mid)["status"]


@pytest.fixture
def cup(tmp_path):
    db = tmp_path / "results.sqlite"
    played(db, upto=2)  # two results in: W1-03 and W1-04 ready
    return db


def test_odd_json_is_a_400_of_one_line(cup):
    web = served(cup)
    try:
        act = web.url + "api/tournament"
        for stages in ([1, 2], "winners", 5):
            got = post(act, {"name": "X", "format": "single", "players": csv_text(),
                             "stages": stages})
            assert got == (400, {"error": '"stages": an object {stage: {"race" or "best_of": '
                                          'N}}'}), got
        got = post(act, None, raw=b"[" * 200000)
        assert got == (400, {"error": "the action's body is not JSON (or nested too deep)"})
        for field, value in (("name", ["x"]), ("players", 5), ("clock", {"a": 1})):
            got = post(act, {"name": "X", "format": "single", "players": csv_text(),
                             field: value})
            assert got == (400, {"error": '"%s": a text is needed' % field}), got
        result = web.url + "api/tournament/Cup/result"
        t = get(web.url + "api/tournament/Cup")
        done = next(m for m in t["matches"] if m["status"] == "done")
        for correct in ("no", "false", 0, 1, None):
            got = post(result, {"match": done["id"], "winner": done["b"], "score": [0, 3],
                                "how": "played", "correct": correct})
            assert got == (400, {"error": '"correct": true or false (a JSON boolean)'}), got
        assert status(web, done["id"]) == "done"
        assert get(web.url + "api/tournament/Cup")["matches"] == t["matches"]  # unchanged
        for winner in (["x"], True, {"a": 1}, None):
            got = post(result, {"match": "W1-03", "winner": winner, "score": [3, 0]})
            assert got == (400, {"error": "\"winner\": a player's id or name"}), got
        # a correction as a JSON boolean is taken
        got = post(result, {"match": done["id"], "winner": done["a"], "score": [3, 2],
                            "how": "played", "correct": True})
        assert got[0] == 200
    finally:
        web.stop()


@pytest.mark.parametrize("lang, want", [
    ("pl", ("W1-03 gra się do 3 wygranych: zwycięzca ma 3, przegrany mniej; 3:3 nie kończy "
            "go z tym zwycięzcą")),
    ("bg", ("W1-03 се играе до 3 победи: победителят има 3, загубилият по-малко; 3:3 не го "
            "завършва с този победител")),
    ("en", ("W1-03 is race-to 3: the winner has 3, the loser fewer; 3-3 does not end it "
            "with that winner"))])
def test_the_desks_refusals_speak_its_language(cup, lang, want):
    web = served(cup, lang=lang)
    try:
        t = get(web.url + "api/tournament/Cup")
        m = next(m for m in t["matches"] if m["id"] == "W1-03")
        got = post(web.url + "api/tournament/Cup/result", {"match": "W1-03", "winner": m["a"],
                                                          "score": [3, 3], "how": "played"})
        assert got == (400, {"error": want})
        got = post(web.url + "api/tournament", {"name": "Turniej sobotni", "format": "single",
                                                "players": "name\nAnn\nBob\n"})
        assert got[0] == 400 and got[1]["error"] == {
            "pl": "lista zawodników: zawodników: 2; turniej przyjmuje od 3 do 256",
            "bg": "списъкът с играчи: играчи: 2; турнирът приема от 3 до 256",
            "en": "players: 2 players; a tournament takes 3 to 256"}[lang]
    finally:
        web.stop()


def test_the_event_is_named_as_the_club_writes_it(tmp_path):
    web = served(tmp_path / "results.sqlite")
    try:
        players = "nazwisko;imię;klub\nŁuczak;Ewa;KS\nПетров;Иван;\nLee;Ann;\nKray;Bob;\n"
        got = post(web.url + "api/tournament", {"name": "Turniej sobotni 12.12",
                                                "format": "single", "players": players,
                                                "race": 2})
        assert got[0] == 200, got
        assert (got[1]["name"], got[1]["id"]) == ("Turniej sobotni 12.12",
                                                  "Turniej-sobotni-12.12")
        assert [p["name"] for p in got[1]["players"]] == ["Ewa Łuczak", "Иван Петров",
                                                          "Ann Lee", "Bob Kray"]
        listed = get(web.url + "api/tournaments")
        assert listed["tournaments"] == [{"name": "Turniej sobotni 12.12",
                                          "id": "Turniej-sobotni-12.12"}]
        for key in ("Turniej-sobotni-12.12", "Turniej%20sobotni%2012.12"):
            assert get(web.url + "api/tournament/" + key)["name"] == "Turniej sobotni 12.12"
        got = post(web.url + "api/tournament/Turniej-sobotni-12.12/assign",
                   {"match": "W1-01", "table": 2})
        assert got[0] == 200 and got[1]["matches"][0]["table"] == 2
    finally:
        web.stop()


def test_a_call_is_taken_back(cup):
    web = served(cup, lang="pl")
    try:
        base = web.url + "api/tournament/Cup/"
        assert post(base + "assign", {"match": "W1-03", "table": 2})[0] == 200
        got = post(base + "uncall", {"match": "W1-03"})
        assert got == (400, {"error": "W1-03 nie jest wywołany: przydzielony"})
        assert post(base + "call", {"match": "W1-03"})[0] == 200
        got = post(base + "uncall", {"match": "W1-03"})
        assert got[0] == 200
        m = next(m for m in got[1]["matches"] if m["id"] == "W1-03")
        assert (m["status"], m["table"]) == ("assigned", 2)
        assert post(base + "call", {"match": "W1-03"})[0] == 200  # and called again
        db = open_db(str(cup))
        try:
            whats = [r[2] for r in store.audit(db, "Cup")]
        finally:
            db.close()
        assert whats[-4:] == ["assign", "call", "uncall", "call"]
    finally:
        web.stop()


def box_snapshot(db, table, mid, events):
    """The snapshot of `table` whose box plays `mid` of Cup (its queued header, then
    `events`), as a link publishes it."""
    d = open_db(str(db))
    try:
        t = store.load(d, "Cup")
    finally:
        d.close()
    lines = [with_checksum(x) for x in header_lines(t, mid)]
    lines += [with_checksum("@%d %s" % (1000 * i, e)) for i, e in enumerate(events)]
    box = Table(table, "/dev/ttyACM%d" % table)
    box.load("Cup-" + mid, lines)
    box.signal, box.status = True, "live"
    return box.snapshot()


def wait_status(web, mid, want, timeout=10):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if status(web, mid) == want:
            return
        time.sleep(0.05)
    raise AssertionError("%s stayed %s, not %s" % (mid, status(web, mid), want))


def test_the_status_follows_the_table_from_the_first_stroke(cup):
    web = served(cup)
    try:
        base = web.url + "api/tournament/Cup/"
        assert post(base + "assign", {"match": "W1-03", "table": 2})[0] == 200
        assert post(base + "call", {"match": "W1-03"})[0] == 200
        assert post(base + "assign", {"match": "W1-04", "table": 3})[0] == 200
        # the box of table 2 starts W1-03: its header, its `called` line: not yet in play
        web.publish("line", box_snapshot(cup, 2, "W1-03", ["called"]))
        time.sleep(0.5)
        assert status(web, "W1-03") == "called"
        # the box of another table says it plays W1-04: the desk's assignment says where
        web.publish("line", box_snapshot(cup, 5, "W1-04", ["called", "frame A"]))
        time.sleep(0.5)
        assert status(web, "W1-04") == "assigned"
        # the referee's `ok`: the first frame's break-off, on table 2
        web.publish("line", box_snapshot(cup, 2, "W1-03", ["called", "frame A"]))
        wait_status(web, "W1-03", "playing")
        # an assigned match not called yet, begun on its own table: playing too
        web.publish("line", box_snapshot(cup, 3, "W1-04", ["frame A"]))
        wait_status(web, "W1-04", "playing")
        db = open_db(str(cup))
        try:
            trail = [(r[2], r[3].split()[0], json.loads(r[4])["match"])
                     for r in store.audit(db, "Cup") if r[2] == "playing"]
        finally:
            db.close()
        assert trail == [("playing", "box", "W1-03"), ("playing", "box", "W1-04")]
    finally:
        web.stop()


def test_two_writers_at_once_take_turns_on_sqlite(tmp_path):
    """A box's pull storing a match while the desk marks another table's match in play:
    two write transactions at once on one SQLite file wait for each other (BEGIN
    IMMEDIATE) instead of one failing at once with `database is locked` (a deferred
    BEGIN that reads first deadlocks against a writer)."""
    import threading

    path = str(tmp_path / "results.sqlite")
    played(path, upto=0)
    done, errors = [], []

    def reader_then_writer():
        db = open_db(path)
        try:
            db.begin()
            db.rows("SELECT changes FROM tournaments")
            time.sleep(0.4)  # the other writer comes in between the read and the write
            db.execute("UPDATE tournaments SET changes = changes + 1")
            db.commit()
            done.append("first")
        except Exception as e:
            errors.append(e)
        finally:
            db.close()

    def writer():
        time.sleep(0.1)
        db = open_db(path)
        try:
            db.begin()
            db.execute("UPDATE tournaments SET changes = changes + 1")
            db.commit()
            done.append("second")
        except Exception as e:
            errors.append(e)
        finally:
            db.close()

    threads = [threading.Thread(target=reader_then_writer), threading.Thread(target=writer)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(30)
    assert not errors, errors
    assert done == ["first", "second"]
