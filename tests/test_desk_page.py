"""Issue 27 item 2, `scoreboard desk`, in Debian's headless Chromium at 1920x1080: an
8-player double elimination created and drawn from the desk's form, every match
assigned, called and its result entered by hand from the board (one a walkover), the
grand final won by the losers' side so that its reset is played, until the champion
shows on the TV page, which follows by itself; on SQLite and on PostgreSQL. The bracket's
SVG shows every result (on the desk and on the TV page), as `scoreboard tournament show
--json` has them from the same database; a refusal of the library shows its one line;
beyond loopback an action without the token is refused while the pages and their JSON
answer; the print view is A4 landscape bracket sheets and one A4 match sheet per
match that is not a bye (a PDF of it, page by page), in Bulgarian the rule book's
"протокол от срещата".
"""

import base64
import json
import os
import re
import subprocess
import threading
import time
import urllib.error
import urllib.request

import pytest
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from host_tools.device.connect import call_box
from host_tools.live.words import words
from support import mpy
from host_tools.results.db import open_db
from host_tools.tournament import players, store
from support.deskdriver import (click, match_of, state, status_is, svg_results, tv_results,
                                who)
from support.deskpage import NAMES, DeskServer, csv_text, pictures, played, served
from support.livebox import SCOREBOARD, _readline, checkout_env, stop
from support.hostfixtures import *  # noqa: F403  (fixtures: db_url, pg_server)
from support.liveweb import snapshot
from support.vdev import VirtualDevice
from support.waits import wait_js

EN = words("en")
OUTPUT = mpy.REPO / "test-output" / "desk"


def show_json(db, name="Cup"):
    proc = subprocess.run([str(mpy.BIN / "scoreboard"), "tournament", "show", name, "--json",
                           "--db", str(db)], cwd=str(mpy.REPO), capture_output=True, text=True,
                          timeout=120, check=True,
                          env=dict(os.environ, PYTHONPATH=str(mpy.REPO)))
    return json.loads(proc.stdout)


def message(d):
    return wait_js(d, "const m = document.getElementById('msg'); return m.textContent && "
                      "[m.textContent, m.className]", what="the page's message line")


def enter(d, mid, a, b, how="played", winner=None, act="result"):
    """Type a result in a match's inputs and enter it (all again when the page drew the
    board again meanwhile)."""
    for _ in range(5):
        try:
            _type(d, mid, a, b, how, winner)
            break
        except StaleElementReferenceException:
            continue
    click(d, act, mid)


def _type(d, mid, a, b, how, winner):
    for cls, value in (("sa", a), ("sb", b)):
        box = d.find_element(By.CSS_SELECTOR, 'input.%s[data-match="%s"]' % (cls, mid))
        box.clear()
        box.send_keys(str(value))
    Select(d.find_element(By.CSS_SELECTOR, 'select.how[data-match="%s"]' % mid)) \
        .select_by_value(how)
    if winner is not None:
        Select(d.find_element(By.CSS_SELECTOR, 'select.win[data-match="%s"]' % mid)) \
            .select_by_value(str(winner))


def create_from_the_form(d, url):
    d.get(url + "desk")
    wait_js(d, "return document.getElementById('c-name').offsetParent !== null",
            what="the create form")
    d.find_element(By.ID, "c-name").send_keys("Cup")
    Select(d.find_element(By.ID, "c-format")).select_by_value("double")
    players = d.find_element(By.ID, "c-players")
    players.clear()
    players.send_keys(csv_text())
    Select(d.find_element(By.ID, "c-kind")).select_by_value("race")
    n = d.find_element(By.ID, "c-n")
    n.clear()
    n.send_keys("3")
    d.find_element(By.ID, "c-st-final").send_keys("4")
    d.find_element(By.ID, "c-seed").send_keys("7")
    d.find_element(By.ID, "c-shot").send_keys("45")  # the shot clock: shot=45 warn=10
    d.find_element(By.ID, "c-warn").send_keys("10")
    d.find_element(By.ID, "c-late").send_keys("10")
    Select(d.find_element(By.ID, "c-threefoul")).select_by_value("on")  # a club's eight-ball
    d.find_element(By.ID, "c-go").click()
    wait_js(d, "return location.pathname === '/desk/Cup' && Desk.t", what="the new desk")


def test_a_double_elimination_from_the_desk_page_to_its_champion(tmp_path, browser, db_url):
    desk = DeskServer(tmp_path, db_url)
    d = browser
    try:
        create_from_the_form(d, desk.url)
        t = state(d)
        assert (t["name"], t["format"], t["champion"]) == ("Cup", "double", None)
        assert [p["name"] for p in t["players"]] == NAMES
        assert [m["id"] for m in t["matches"] if m["status"] == "ready"] == [
            "W1-01", "W1-02", "W1-03", "W1-04"]
        assert t["extra"]["F1"]["format"] == "race-to 4"
        assert t["extra"]["W1-01"]["format"] == "race-to 3"
        # the playing conditions, as `tournament create --clock --late --three-foul on`
        # gives them
        d_ = open_db(str(db_url))
        try:
            conds = store.load(d_, "Cup").conditions
        finally:
            d_.close()
        assert conds["winners"] == {"match": "race-to 3", "clock": "shot=45 warn=10",
                                    "rules": {"late": 10, "threefoul": 1}}
        assert conds["final"]["match"] == "race-to 4"
        assert show_json(db_url)["matches"] == [
            {k: m[k] for k in ("id", "stage", "round", "a", "b", "winner", "score", "status",
                               "table")} for m in t["matches"]]
        desk_tab = d.current_window_handle
        d.switch_to.new_window("tab")
        d.get(desk.url + "desk/Cup/tv")
        wait_js(d, "return Desk.t && document.querySelector('svg.bracket g.match')",
                what="the TV page's bracket")
        tv_tab = d.current_window_handle
        d.switch_to.window(desk_tab)

        # A refusal: a race to 3 does not end 3-7; its one line, nothing changed.
        enter(d, "W1-01", 3, 7)
        text, cls = message(d)
        assert cls == "bad" and "\n" not in text
        assert text == ("W1-01 is race-to 3: the winner has 3, the loser fewer; 3-7 does not "
                        "end it with that winner")
        assert state(d)["matches"][0]["status"] == "ready"

        entered = {}
        n = 0
        while state(d)["champion"] is None:
            t = state(d)
            ready = [m for m in t["matches"] if m["status"] == "ready"]
            assert ready, "no match ready before the champion: %s" % t["matches"]
            m = ready[0]
            mid = m["id"]
            click(d, "assign", mid)
            t = status_is(d, mid, "assigned")
            table = next(x for x in t["matches"] if x["id"] == mid)["table"]
            free = [k for k in t["tables"] if k != table]
            assert table in t["tables"] and table not in [
                x["table"] for x in t["matches"] if x["id"] != mid and x["status"] in (
                    "assigned", "called", "playing")], "a table given twice"
            tile = d.find_element(By.CSS_SELECTOR, '.tbl[data-table="%d"]' % table)
            assert "busy" in tile.get_attribute("class") and mid in tile.text
            assert free
            click(d, "call", mid)
            status_is(d, mid, "called")
            race = 4 if mid.startswith("F") else 3
            if mid == "L1-02":  # a walkover: the winner and no score
                enter(d, mid, "", "", "walkover", m["b"])
                entered[mid] = (None, "walkover")
            elif mid == "F1":  # the losers' champion wins: the reset is played
                enter(d, mid, 1, race)
                entered[mid] = ([1, race], "played")
            else:
                enter(d, mid, race, n % race)
                entered[mid] = ([race, n % race], "played")
            status_is(d, mid, "done", "walkover")
            n += 1
            assert n <= 15
        t = state(d)
        assert n == 15 and sorted(entered) == sorted(m["id"] for m in t["matches"])
        f1 = next(m for m in t["matches"] if m["id"] == "F1")
        f2 = next(m for m in t["matches"] if m["id"] == "F2")
        assert f1["winner"] == f1["b"] and f2["status"] == "done"
        champion = next(p["name"] for p in t["players"] if p["id"] == t["champion"])

        # The database has what the page entered: `tournament show --json` agrees.
        data = show_json(db_url)
        assert data["champion"] == t["champion"] == f2["winner"]
        for m in data["matches"]:
            score, how = entered[m["id"]]
            assert m["score"] == score, m
            assert m["status"] == ("walkover" if how == "walkover" else "done")

        # The bracket shows each result, on the desk and on the TV page.
        for tab in (desk_tab, tv_tab):
            d.switch_to.window(tab)
            if tab == tv_tab:
                got = wait_js(d, "const c = document.getElementById('champion'); "
                                 "return c.textContent", what="the champion on the TV page")
                assert got == EN["v.d_champion"].replace("%s", champion)
                # the TV page followed: its state is the last change, without a reload
                assert d.execute_script("return Desk.t.changes") == t["changes"]
            svg = tv_results(d) if tab == tv_tab else svg_results(d)
            for mid, (score, how) in entered.items():
                a, b, mark = svg[mid]
                if score is None:
                    assert mark == how and {a, b} == {EN["v.d_wo"], ""}, (mid, svg[mid])
                else:
                    assert [a, b] == [str(x) for x in score], (mid, svg[mid])
                    assert mark == "%d-%d" % tuple(score)
        d.switch_to.window(tv_tab)
        d.save_screenshot(str(tmp_path / "tv.png"))
    finally:
        desk.stop()


@pytest.mark.needs_build  # the virtual device (the MicroPython unix port)
def test_assign_queues_the_header_on_the_tables_box(tmp_path, browser):
    db = tmp_path / "results.sqlite"
    played(db, upto=0)
    flash = tmp_path / "box"
    flash.mkdir()
    (flash / "settings.txt").write_text("table=1\n")  # the box stands at table 1
    d = browser
    with VirtualDevice(flash) as dev:
        desk = DeskServer(tmp_path, db, ports=[dev.port])
        try:
            d.get(desk.url + "desk/Cup")
            wait_js(d, "return Desk.t && Live.tables[1] && Live.tables[1].signal",
                    timeout=60, what="table 1's box heard")
            # W1-01 on table 1 (the first free one): its header goes onto that box
            assert d.execute_script("return document.querySelector('select.tbl-pick"
                                    "[data-match=\"W1-01\"]').value") == "1"
            click(d, "assign", "W1-01")
            t = status_is(d, "W1-01", "assigned")
            assert match_of(t, "W1-01")["table"] == 1
            head = (flash / "queue" / "Cup-W1-01.sbn").read_text(encoding="utf-8").splitlines()
            assert head[:2] == ["sbn 1", "id Cup-W1-01"]
            for line in ("table 1", "game eightball", "match race-to 3"):
                assert line in head, head
            assert {line for line in head if line.startswith("side ")} == {
                'side A "%s"' % who(t, match_of(t, "W1-01")["a"]),
                'side B "%s"' % who(t, match_of(t, "W1-01")["b"])}, head
            # W1-02 on table 2, which has no box: recorded only, nothing queued
            click(d, "assign", "W1-02")
            t = status_is(d, "W1-02", "assigned")
            assert match_of(t, "W1-02")["table"] == 2
            assert sorted(p.name for p in (flash / "queue").iterdir()) == ["Cup-W1-01.sbn"]
            # W1-01 called on its box already (as the referee's `called` would have it),
            # by another command through the desk, which owns the port: the page's Call
            # is recorded, and the box's refusal is its line
            assert call_box(dev.port, "Cup-W1-01") == (
                "the box on %s started Cup-W1-01 with the call (late start 15 min)" % dev.port)
            click(d, "call", "W1-01")
            status_is(d, "W1-01", "called")
            assert message(d) == [EN["v.d_called_no_box"].replace("%s", "W1-01", 1).replace(
                "%s", "table 1's box: the box refused: match Cup-W1-01 was called already"),
                "bad"]
            # W1-02's table has no box: the call is recorded only
            click(d, "call", "W1-02")
            status_is(d, "W1-02", "called")
            assert message(d) == [EN["v.d_called"] % "W1-02", "ok"]
        finally:
            desk.stop()


BOX_KEYS = ["ok", "red", "black", "red", "black"] + ["red", "black"] * 4 + [
    "yellow", "green", "brown", "blue", "pink", "black"]  # Ann clears: 75, best of one


@pytest.mark.needs_build  # the virtual device (the MicroPython unix port)
def test_a_match_assigned_from_the_page_and_played_on_the_box_fills_the_bracket(
        tmp_path, browser):
    """The whole way for one match: assigned from the desk's page onto the table's box,
    called from the page onto the box too (its match started there with `called`),
    played there by a key script (`scoreboard device --pty --keys`, in real
    time), stored by the desk as `live --db` stores it, and in the bracket of the TV
    page by itself."""
    db = tmp_path / "results.sqlite"
    d_ = open_db(str(db))
    try:
        t = store.make("Cup", "single", players.entries("name,seed\nAnn,1\nBob,2\nCy,\n"
                                                        "Dana,\n"), "snooker reds=6",
                       {s: {"match": "best-of 1"} for s in ("winners", "final")}, 3)
        store.create(d_, t, "test")
    finally:
        d_.close()
    assert (t.states["W1-01"].a, t.states["W1-01"].b) == (1, 3)  # Ann v Cy
    keys = tmp_path / "keys.txt"
    # the box waits for the desk to queue its match, then the referee starts and plays it
    keys.write_text("@25000\n" + "\n".join(BOX_KEYS) + "\n", encoding="utf-8")
    (tmp_path / "box").mkdir()
    (tmp_path / "box" / "settings.txt").write_text("table=1\n")  # the box at table 1
    box = subprocess.Popen([str(SCOREBOARD), "device", "--pty", "--flash",
                            str(tmp_path / "box"), "--keys", str(keys)], cwd=str(mpy.REPO),
                           stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, start_new_session=True,
                           env=checkout_env())
    d = browser
    desk = None
    try:
        port = _readline(box, 15, b"port ").split()[1]
        desk = DeskServer(tmp_path, db, ports=[port])  # pulled at once (the default)
        d.get(desk.url + "desk/Cup")
        wait_js(d, "return Desk.t && Live.tables[1] && Live.tables[1].signal", timeout=60,
                what="table 1's box heard")
        click(d, "assign", "W1-01")
        status_is(d, "W1-01", "assigned")
        assert (tmp_path / "box" / "queue" / "Cup-W1-01.sbn").exists()
        # The call reaches the box the desk follows: the queued match starts there with
        # its `called` line (the late start counts from it), before the referee's first
        # press, which then breaks off
        click(d, "call", "W1-01")
        status_is(d, "W1-01", "called")
        assert message(d) == [EN["v.d_called_box"].replace("%s", "W1-01").replace("%d", "1"),
                              "ok"]
        journal = tmp_path / "box" / "matches" / "Cup-W1-01.sbn"
        assert not (tmp_path / "box" / "queue" / "Cup-W1-01.sbn").exists()
        assert [ln.rsplit(" *", 1)[0] for ln in journal.read_text().splitlines()
                if ln.startswith("@")] == ["@0 called"]
        d.get(desk.url + "desk/Cup/tv?view=bracket")
        got = wait_js(d, "const g = document.querySelector('g.match[data-match=\"W1-01\"]');"
                         "return g && g.dataset.status === 'done' && g.dataset.score",
                      timeout=120, what="the box's result in the TV page's bracket")
        assert got == "1-0"
        t = state(d)
        assert match_of(t, "W1-01")["winner"] == 1 and match_of(t, "F1")["a"] == 1
        events = [ln.rsplit(" *", 1)[0].split(" ", 1)[1]
                  for ln in journal.read_text().splitlines() if ln.startswith("@")]
        assert events[:2] == ["called", "frame A"], events
        # From the box's last ball (its journal's last write) to the TV page's repaint:
        # the figure (one match; live's pull at once).
        journal = max((tmp_path / "box" / "matches").glob("*.sbn"),
                      key=lambda f: f.stat().st_mtime)
        # (the page's log has the repaint unless the page loaded with the result in it)
        painted = d.execute_script(
            "const e = Desk.log.find((x) => x.done >= 1); return e ? e.t : null")
        if painted is not None:
            OUTPUT.mkdir(parents=True, exist_ok=True)
            (OUTPUT / "box_to_tv.json").write_text(json.dumps({
                "last_ball_to_repaint_ms": round(painted - 1000 * journal.stat().st_mtime),
                "idle_s": 0}))
    finally:
        if desk is not None:
            desk.stop()
        stop(box)


def _status(url, data=None, headers=None):
    req = urllib.request.Request(url, data=data, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def test_beyond_loopback_an_action_needs_the_token_and_the_pages_stay_open(tmp_path, browser):
    db = tmp_path / "results.sqlite"
    played(db, upto=2)
    token = "t" * 24
    web = served(db, bind="0.0.0.0", token=token)
    d = browser
    try:
        # The read-only pages and their JSON answer without the token.
        for path in ("desk", "desk/Cup", "desk/Cup/tv", "desk/Cup/print", "api/tournaments",
                     "api/tournament/Cup", "static/desk.js"):
            status, _ = _status(web.url + path)
            assert status == 200, path
        # An action without it (or with a wrong one) is refused, in one line.
        body = json.dumps({"match": "W1-03", "table": 2}).encode()
        for headers in ({}, {"Authorization": "Bearer wrong"}):
            status, text = _status(web.url + "api/tournament/Cup/assign", body,
                                   dict(headers, **{"Content-Type": "application/json"}))
            assert status == 401 and "token" in json.loads(text)["error"]
        # ...and from the page opened without it: the refusal's line, nothing changed.
        d.get(web.url + "desk/Cup")
        wait_js(d, "return Desk.t && document.querySelector('button[data-act=assign]')",
                what="the board")
        click(d, "assign", "W1-03")
        text, cls = message(d)
        assert cls == "bad" and text.startswith("this needs the desk's token")
        assert state(d)["matches"][2]["status"] == "ready"
        # A page of another site may not post, even with a JSON body; nor a form.
        status, _ = _status(web.url + "api/tournament/Cup/assign", body, {
            "Content-Type": "application/json", "Authorization": "Bearer " + token,
            "Origin": "http://evil.example"})
        assert status == 403
        status, _ = _status(web.url + "api/tournament/Cup/assign", body, {
            "Content-Type": "text/plain", "Authorization": "Bearer " + token})
        assert status == 415
        # With the token in the address the desk printed, the same click is taken.
        d.get(web.url + "desk/Cup?token=" + token)
        wait_js(d, "return Desk.t && document.querySelector('button[data-act=assign]')",
                what="the board")
        click(d, "assign", "W1-03")
        assert status_is(d, "W1-03", "assigned")
        # the token is kept for the tab: the TV link carries it, a reload without it too
        d.get(web.url + "desk/Cup")
        wait_js(d, "return Desk.t", what="the board")
        click(d, "call", "W1-03")
        status_is(d, "W1-03", "called")
    finally:
        web.stop()


def test_scoreboard_desk_beyond_loopback_prints_its_address_with_the_token(tmp_path):
    db = tmp_path / "results.sqlite"
    played(db, upto=0)
    desk = DeskServer(tmp_path, db, "--bind", "0.0.0.0")
    try:
        assert "?token=" in desk.desk
        token = desk.desk.rsplit("?token=", 1)[1]
        here = desk.url.replace("0.0.0.0", "127.0.0.1")
        body = json.dumps({"match": "W1-01", "table": 1}).encode()
        json_type = {"Content-Type": "application/json"}
        assert _status(here + "api/tournament/Cup/assign", body, json_type)[0] == 401
        assert _status(here + "api/tournament/Cup")[0] == 200
        status, text = _status(here + "api/tournament/Cup/assign", body, dict(
            json_type, Authorization="Bearer " + token))
        assert status == 200 and next(m for m in json.loads(text)["matches"]
                                      if m["id"] == "W1-01")["status"] == "assigned"
    finally:
        err = desk.stop()
    assert token not in err


def test_the_pages_follow_every_change_and_what_the_boxes_play(tmp_path, browser):
    db = tmp_path / "results.sqlite"
    played(db, upto=2)
    web = served(db)
    d = browser
    try:
        d.get(web.url + "desk/Cup/tv")
        t = wait_js(d, "return Desk.t && TV.slides.length && Desk.t", what="the TV page")
        # the slide with the first round on it
        d.execute_script("TV.show(TV.slides.findIndex((s) => s.kind === 'section'))")
        wait_js(d, "return document.querySelector('svg.bracket g.match[data-match=\"W1-03\"]')",
                what="the TV page's bracket")
        w13 = next(m for m in t["matches"] if m["id"] == "W1-03")
        assert w13["status"] == "ready"
        # A result from another process (`scoreboard tournament result`): the page
        # repaints by itself, the bracket with it.
        proc = subprocess.run([str(mpy.BIN / "scoreboard"), "tournament", "result", "Cup",
                               "W1-03", str(w13["b"]), "1", "3", "--db", str(db)],
                              cwd=str(mpy.REPO), capture_output=True, text=True, timeout=120,
                              env=dict(os.environ, PYTHONPATH=str(mpy.REPO)), check=False)
        assert proc.returncode == 0, proc.stderr
        wait_js(d, "return Desk.match(Desk.t, 'W1-03').status === 'done' && "
                   "document.querySelector('g.match[data-match=\"W1-03\"]')"
                   ".dataset.score === '1-3'", what="the TV page's repaint")
        assert svg_results(d)["W1-03"][:2] == ["1", "3"]
        assert d.execute_script("return Desk.t.changes") == t["changes"] + 1
        # What a box plays, live: table 5's match on the TV page's board and the desk's.
        web.publish("table", snapshot(5, pots=("red", "black"), names=("Ann Lee", "Bob Kray")))
        d.execute_script("TV.show(0)")  # the tables' slide
        got = wait_js(d, "const e = document.querySelector('#cards .tbl[data-table=\"5\"]');"
                         "return e && e.dataset.line", what="table 5 on the TV page")
        # the frames won, and the snooker frame's points
        assert got == "Ann Lee  0\u20130  Bob Kray (frame 1: 8\u20130)"
        d.get(web.url + "desk/Cup")
        got = wait_js(d, "const e = document.querySelector('.tbl[data-table=\"5\"] .box');"
                         "return e && e.textContent", what="table 5 on the desk")
        assert got == "Ann Lee 0-0 Bob Kray (frame 1: 8-0)"
        # a box whose match is the tournament's (its header's id Cup-W1-04): named so
        snap = dict(snapshot(6, names=("Eve Moss", "Ёрдан Гичев")), id="Cup-W1-04")
        web.publish("table", snap)
        got = wait_js(d, "const e = document.querySelector('.tbl[data-table=\"6\"] .box');"
                         "return e && e.textContent", what="table 6 on the desk")
        assert got == "W1-04: Eve Moss 0-0 Ёрдан Гичев (frame 1: 1-0)"
    finally:
        web.stop()


def test_the_desk_follows_32_tables_and_what_is_typed_stays(tmp_path, browser):
    db = tmp_path / "results.sqlite"
    played(db, upto=0)
    web = served(db, tables=33)
    d = browser
    try:
        d.get(web.url + "desk/Cup")
        wait_js(d, "return Desk.t && document.querySelector('input.sa')", what="the board")
        box = d.find_element(By.CSS_SELECTOR, 'input.sa[data-match="W1-02"]')
        box.click()
        box.send_keys("2")
        for n in range(1, 33):
            web.publish("table", snapshot(n, names=("A%02d Lee" % n, "B%02d Kray" % n)))
        got = wait_js(d, "const b = [...document.querySelectorAll('.tbl .box')];"
                         "return b.length === 32 && b.map((e) => e.textContent)",
                      what="32 boxes on the board")
        assert got == ["A%02d Lee 0-0 B%02d Kray (frame 1: 1-0)" % (n, n) for n in range(1, 33)]
        assert len(d.find_elements(By.CSS_SELECTOR, "#tables .tbl")) == 33
        # the boxes' lines repaint the tiles alone: the input typed in is the same one
        assert d.execute_script("return document.activeElement") == box
        box.send_keys("1")
        assert box.get_attribute("value") == "21"
        # a change of the tournament repaints the rows: what was typed, and the focus, stay
        # table 1's box is heard but not there to be reached (these are snapshots alone):
        # the assignment is refused in one line, nothing recorded
        click(d, "assign", "W1-01")
        text = wait_js(d, "const m = document.getElementById('msg'); return "
                          "m.className === 'bad' && m.textContent", what="the refusal")
        assert text.startswith("table 1's box: ") and "/dev/ttyACM9" in text, text
        assert state(d)["matches"][0]["status"] == "ready"
        # table 33 has no box: the match is recorded there
        Select(d.find_element(By.CSS_SELECTOR, 'select.tbl-pick[data-match="W1-01"]')) \
            .select_by_value("33")
        d.execute_script("document.querySelector('input.sa[data-match=\"W1-02\"]').focus()")
        click(d, "assign", "W1-01")
        assert match_of(status_is(d, "W1-01", "assigned"), "W1-01")["table"] == 33
        again = d.find_element(By.CSS_SELECTOR, 'input.sa[data-match="W1-02"]')
        assert again.get_attribute("value") == "21"
    finally:
        web.stop()


def test_a_result_is_corrected_from_the_bracket_or_refused_in_one_line(tmp_path, browser):
    db = tmp_path / "results.sqlite"
    t = played(db, upto=5)  # the first round, and W2-01
    assert t.results["W2-01"] is not None and "W2-02" not in t.results
    web = served(db)
    d = browser
    try:
        d.get(web.url + "desk/Cup")
        wait_js(d, "return Desk.t && document.querySelector('svg.bracket')", what="the board")
        # A click on W1-03 in the bracket: its correction's inputs; a new score, the same
        # winner: taken (it changes nobody's match).
        d.find_element(By.CSS_SELECTOR, 'svg.bracket g.match[data-match="W1-03"]').click()
        wait_js(d, "return document.querySelector("
                   "'button[data-act=correct][data-match=\"W1-03\"]')",
                what="the correction's inputs")
        b = t.results["W1-03"].score[1]
        enter(d, "W1-03", 3, 2 if b != 2 else 1, act="correct")
        wait_js(d, "return document.querySelector('g.match[data-match=\"W1-03\"]')"
                   ".dataset.score === '3-%d'" % (2 if b != 2 else 1), what="the correction")
        assert message(d) == [EN["v.d_corrected"] % "W1-03", "ok"]
        # W1-01's winner changed would change W2-01, which has its result: refused, the
        # library's reason in one line, nothing changed.
        Select(d.find_element(By.ID, "fix-match")).select_by_value("W1-01")
        st = t.states["W1-01"]
        enter(d, "W1-01", 1, 3, act="correct")
        text = wait_js(d, "const m = document.getElementById('msg'); return "
                          "m.className === 'bad' && m.textContent", what="the refusal")
        assert text.startswith("W1-01 cannot be corrected that way: it changes who plays in "
                               "W2-01") and text.endswith("which has its result")
        assert state(d)["matches"][0]["winner"] == st.winner
    finally:
        web.stop()


def test_the_groups_are_cross_tables_then_the_knockout(tmp_path, browser):
    db = tmp_path / "results.sqlite"
    t = played(db, fmt="groups")
    assert t.champion is not None
    web = served(db)
    d = browser
    try:
        d.get(web.url + "desk/Cup")
        wait_js(d, "return Desk.t && document.querySelector('svg.bracket')", what="the bracket")
        assert d.execute_script("return [...document.querySelectorAll('svg.bracket g.group')]"
                                ".map((g) => g.dataset.group)") == ["A", "B"]
        cells = d.execute_script(
            "const out = {}; for (const c of document.querySelectorAll('g.match.cell')) {"
            "  (out[c.dataset.match] = out[c.dataset.match] || []).push("
            "c.querySelector('.score').textContent); } return out;")
        group = [s for s in t.specs if s.stage.startswith("group ")]
        assert sorted(cells) == sorted(s.id for s in group) and len(group) == 12
        for s in group:  # each pair's cell twice, from each row's side
            a, b = t.results[s.id].score
            assert sorted(cells[s.id]) == sorted(["%d-%d" % (a, b), "%d-%d" % (b, a)]), s.id
        svg = svg_results(d)
        for s in t.specs:
            if not s.stage.startswith("group ") and t.results.get(s.id):
                assert svg[s.id][:2] == [str(x) for x in t.results[s.id].score], s.id
        champion = t.player(t.champion).name
        assert d.find_element(By.ID, "champion").text == EN["v.d_champion"] % champion
    finally:
        web.stop()


def _pdf_pages(d):
    pdf = base64.b64decode(d.execute_cdp_cmd("Page.printToPDF", {
        "preferCSSPageSize": True, "printBackground": True})["data"])
    boxes = re.findall(rb"/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", pdf)
    return [(round(float(w)), round(float(h))) for w, h in boxes]


def test_the_print_view_is_a_bracket_sheet_and_a_match_sheet_per_match(tmp_path, browser):
    db = tmp_path / "results.sqlite"
    t = played(db, upto=None, conditions={"clock": "shot=35 warn=10", "breaks": "winner",
                                          "rules": {"late": 10, "threefoul": 1}})
    web = served(db, lang="bg")
    d = browser
    try:
        d.get(web.url + "desk/Cup/print")
        wait_js(d, "return Desk.t && document.querySelector('.match-sheet')", what="the sheets")
        # Each sheet carries its stage's playing conditions: who breaks and the shot
        # clock in the language, their settings as the box's header words.
        bg = words("bg")
        rows = d.execute_script(
            "return [...document.querySelectorAll('.match-sheet table.info tr')].filter("
            "(r) => r.firstChild.textContent === arguments[0]).map("
            "(r) => r.lastChild.textContent)", bg["v.d_conditions"])
        assert rows and set(rows) == {"%s: %s; %s: shot=35 warn=10; rules late=10 threefoul=1"
                                      % (bg["v.d_breaks"], bg["v.d_b_winner"], bg["v.d_clock"])}
        matches = [s.id for s in t.specs if t.states[s.id].status != "bye"]
        sheets = d.execute_script(
            "return [...document.querySelectorAll('.match-sheet')].map((s) => ["
            "s.dataset.match, s.querySelector('h1').textContent,"
            "s.querySelectorAll('tr.frame-row').length,"
            "[...s.querySelectorAll('td.name')].map((n) => n.textContent)])")
        assert [s[0] for s in sheets] == matches
        bg = words("bg")
        assert bg["v.d_sheet"] == "Протокол от срещата"
        assert all(s[1] == bg["v.d_sheet"] for s in sheets)
        assert all(s[2] == 5 for s in sheets if not s[0].startswith("F")) # race-to 3: 5 racks
        for mid, _, _, names in sheets:
            st = t.states[mid]
            want = [t.player(p).name for p in (st.a, st.b)]
            assert [n.split(" (")[0].split(",")[0] for n in names] == want, mid
        assert d.execute_script("return document.documentElement.lang") == "bg"
        # printed: the winners' and the losers' brackets on A4 landscape sheets, then one
        # A4 portrait page a match
        assert d.execute_script("return [...document.querySelectorAll('.bracket-sheet')]"
                                ".map((s) => s.dataset.part)") == ["ko", "losers"]
        assert d.execute_script("return [...document.querySelectorAll('.bracket-sheet')]"
                                ".map((s) => s.querySelectorAll('g.match').length)") == [9, 6]
        pages = _pdf_pages(d)
        assert pages == [(842, 595)] * 2 + [(595, 842)] * len(matches), pages
        # one match's sheet alone
        d.get(web.url + "desk/Cup/print?match=W1-02")
        wait_js(d, "return Desk.t && document.querySelector('.match-sheet')", what="the sheet")
        assert d.execute_script("return [...document.querySelectorAll('.sheet')].map("
                                "(s) => s.dataset.match)") == ["W1-02"]
    finally:
        web.stop()


def test_the_pictures_are_made_at_1080p(tmp_path):
    for png in pictures(tmp_path):
        data = png.read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        assert (int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")) == (
            1920, 1080)


@pytest.mark.parametrize("args, why", [
    (("--lang", "de"), "desk: --lang de: the pages speak en, pl or bg"),
    (("--tables", "-1"), "desk: --tables -1: 0 to 999"),
    (("--db", ""), ("desk: --db is empty: give a file or a URL, or leave --db out for the "
                    "default database"))])
def test_scoreboard_desk_refuses_bad_options_in_one_line(args, why):
    proc = subprocess.run([str(mpy.BIN / "scoreboard"), "desk", "--port", "/dev/null-box",
                           *args], cwd=str(mpy.REPO), capture_output=True, text=True,
                          timeout=60, env=dict(os.environ, PYTHONPATH=str(mpy.REPO)),
                          check=False)
    assert (proc.returncode, proc.stdout, proc.stderr.strip()) == (2, "", why)


def test_the_desk_words_are_in_every_language_and_not_on_the_box():
    """host_tools/live/desk_words.py: every language has every English key, with the
    same `%` conversions; the box's own tables hold none of them."""
    import re

    from host_tools.live import desk_words
    from scoreboard.lang import en

    def table(code):
        texts = getattr(desk_words, code.upper())
        return dict(zip(texts[0::2], texts[1::2]))

    english = table("en")
    assert english and all(k.startswith("v.d_") for k in english)
    for code in ("pl", "bg"):
        other = table(code)
        assert sorted(other) == sorted(english), code
        for k, text in english.items():
            assert re.findall(r"%[sd]", other[k]) == re.findall(r"%[sd]", text), (code, k)
    assert not [k for k in en.TEXTS[0::2] if k.startswith("v.d_")]


def test_a_box_slow_to_answer_holds_up_neither_the_pages_nor_the_other_tables(tmp_path):
    """A call to a box heard on table 1 that does not answer its request channel (a pty
    nobody reads: the call gives up after its seconds): meanwhile the tournament's JSON
    and another table's call are answered at once; the call is recorded, and its answer
    says the box did not answer."""
    db = tmp_path / "results.sqlite"
    played(db, upto=0)
    master, slave = os.openpty()
    web = served(db)
    try:
        json_post = {"Content-Type": "application/json"}
        for mid, table in (("W1-01", 1), ("W1-02", 2)):  # no box heard yet: recorded only
            status, text = _status(web.url + "api/tournament/Cup/assign", json.dumps(
                {"match": mid, "table": table}).encode(), json_post)
            assert status == 200, text

        async def heard():  # now a box is heard on table 1, and it will not answer
            web.hub.tables[1] = {"signal": True, "port": os.ttyname(slave),
                                 "box_id": "PICO-51040001", "claim": 1}
        web.call(heard())
        answer = {}

        def call():
            t0 = time.monotonic()
            answer["got"] = _status(web.url + "api/tournament/Cup/call",
                                    json.dumps({"match": "W1-01"}).encode(), json_post)
            answer["took"] = time.monotonic() - t0
        caller = threading.Thread(target=call)
        caller.start()
        time.sleep(0.5)  # the call waits on the box
        t0 = time.monotonic()
        status, text = _status(web.url + "api/tournament/Cup")
        assert status == 200 and time.monotonic() - t0 < 1.0, time.monotonic() - t0
        t0 = time.monotonic()
        status, text = _status(web.url + "api/tournament/Cup/call",
                               json.dumps({"match": "W1-02"}).encode(), json_post)
        assert status == 200 and time.monotonic() - t0 < 1.0, time.monotonic() - t0
        assert "got" not in answer  # the slow box's call still waits
        caller.join(30)
        status, text = answer["got"]
        got = json.loads(text)
        assert status == 200 and answer["took"] > 3, answer
        assert [m["status"] for m in got["matches"] if m["id"] == "W1-01"] == ["called"]
        assert got["box"]["ok"] is False and "does not answer" in got["box"]["said"], got
    finally:
        web.stop()
        os.close(master)
        os.close(slave)


def test_no_link_carries_the_token_and_the_address_bar_drops_it(tmp_path, browser):
    """N11: the desk opened by the address `scoreboard desk` printed (with ?token=)
    keeps the token for the tab, takes it out of the address bar and the history, and
    no link of the desk's pages (the TV's and the print view's, the tournaments') carries
    it; an action still goes with it."""
    db = tmp_path / "results.sqlite"
    played(db, "Turniej sobotni 12.12", upto=2)
    token = "s" * 24
    web = served(db, bind="0.0.0.0", token=token)
    d = browser
    try:
        d.get(web.url + "desk?token=" + token)
        wait_js(d, "return document.querySelectorAll('#list a').length === 3", what="the list")
        assert token not in d.current_url
        hrefs = d.execute_script("return [...document.querySelectorAll('a')].map((a) => a.href)")
        assert hrefs and not [h for h in hrefs if token in h], hrefs
        assert web.url + "desk/Turniej-sobotni-12.12/tv" in hrefs
        d.get(web.url + "desk/Turniej-sobotni-12.12?token=" + token)
        wait_js(d, "return Desk.t && document.querySelector('#nav a')", what="the desk")
        assert d.current_url == web.url + "desk/Turniej-sobotni-12.12"
        assert d.execute_script("return history.length") >= 1
        hrefs = d.execute_script("return [...document.querySelectorAll('a')].map((a) => a.href)")
        assert not [h for h in hrefs if token in h], hrefs
        assert d.execute_script("return sessionStorage.getItem('desk-token')") == token
        click(d, "assign", "W1-03")
        assert status_is(d, "W1-03", "assigned")
    finally:
        web.stop()


def test_the_message_goes_at_the_champion_and_the_placings_show(tmp_path, browser):
    """The last call's line is not left on top once the champion is known; the
    placings show on the desk as the rounds end; the champion's line names no gender."""
    db = tmp_path / "results.sqlite"
    t = played(db, upto=13)  # all but the grand final and its reset
    web = served(db, lang="pl")
    d = browser
    try:
        d.get(web.url + "desk/Cup")
        wait_js(d, "return Desk.t && document.querySelector('button[data-act=assign]')",
                what="the board")
        places = d.execute_script("return [...document.querySelectorAll('#placings li')]"
                                  ".map((li) => li.textContent)")
        assert places[0].startswith("3") and len(places) == 6  # 3, 4, 5-6, 7-8
        click(d, "assign", "F1")
        status_is(d, "F1", "assigned")
        click(d, "call", "F1")
        status_is(d, "F1", "called")
        assert message(d) == ["F1: wywołany", "ok"]
        # the result comes from elsewhere (a box's, stored by the desk's pull): side A,
        # the winners' champion, wins: no reset
        f1 = t.states["F1"]
        other = open_db(str(db))
        try:
            store.result(other, "Cup", "F1", f1.a, (3, 0), via="box")
        finally:
            other.close()
        wait_js(d, "return Desk.t.champion !== null", what="the champion")
        # at once, not when the line would go by itself (20 s)
        assert d.execute_script("return document.getElementById('msg').textContent") == ""
        champion = t.player(f1.a).name
        assert d.find_element(By.ID, "champion").text == "Turniej wygrywa: %s" % champion
        places = d.execute_script("return [...document.querySelectorAll('#placings li')]"
                                  ".map((li) => li.textContent)")
        assert places[:2] == ["1" + champion, "2" + t.player(f1.b).name]
        assert len(places) == 8
    finally:
        web.stop()


def test_the_clicks_from_create_to_the_champion_of_a_16_player_double(tmp_path, browser):
    """Issue 38's figure: a 16-player double elimination from the create form to its
    champion on four tables, the results coming from the boxes (stored here by the
    library as the desk's pull stores a box's match): one click to create and draw, then
    two a match (Assign on the first free table, Call). Written to
    test-output/desk/clicks.json."""
    db = tmp_path / "results.sqlite"
    web = served(db, tables=4, lang="pl")
    d = browser
    clicks = 0
    try:
        d.get(web.url + "desk")
        wait_js(d, "return document.getElementById('c-name').offsetParent !== null",
                what="the create form")
        d.find_element(By.ID, "c-name").send_keys("Turniej sobotni 12.12")
        players = d.find_element(By.ID, "c-players")
        players.clear()
        players.send_keys("nazwisko,imię\n" + "\n".join("Gracz%02d,Jan" % i for i in range(16)))
        n = d.find_element(By.ID, "c-n")
        n.clear()
        n.send_keys("2")
        d.find_element(By.ID, "c-go").click()
        clicks += 1
        wait_js(d, "return Desk.t && document.querySelector('button[data-act=assign]')",
                what="the drawn board")
        other = open_db(str(db))
        played_n = 0
        try:
            while True:
                t = state(d)
                if t["champion"] is not None:
                    break
                on = [m for m in t["matches"] if m["status"] in ("assigned", "called")]
                free = [k for k in range(1, 5) if k not in [m["table"] for m in on]]
                ready = [m for m in t["matches"] if m["status"] == "ready"]
                if free and ready:  # a match to a free table: Assign, then Call
                    mid = ready[0]["id"]
                    click(d, "assign", mid)
                    status_is(d, mid, "assigned")
                    click(d, "call", mid)
                    status_is(d, mid, "called")
                    clicks += 2
                    continue
                # the box's result of the oldest match on a table: its side A wins 2-1
                # (the grand final's side B: the reset is played too)
                m = on[0]
                winner = m["b"] if m["id"] == "F1" else m["a"]
                store.result(other, t["id"], m["id"], winner,
                             (1, 2) if winner == m["b"] else (2, 1), via="box BOX1")
                played_n += 1
                status_is(d, m["id"], "done")
        finally:
            other.close()
    finally:
        web.stop()
    assert played_n == 31  # 15 + 14 + the final and its reset
    assert clicks == 1 + 2 * played_n
    OUTPUT.mkdir(parents=True, exist_ok=True)
    (OUTPUT / "clicks.json").write_text(json.dumps({
        "double 16, results from the boxes": {"matches": played_n, "clicks": clicks}},
        indent=1, sort_keys=True) + "\n")
