"""Issue 19 item 6 in Debian's headless Chromium: two virtual devices play key scripts in
real time while `scoreboard live` follows them; the overlay of table 1 and the TV page
see every score the keys mean, in order (each page logs what it painted), the shot
clock counts down from the stamps, and a box that goes says `table 2: no signal`.
Screenshots (the overlay over a video frame, the TV page) go to test-output/live/."""

import time

import pytest

from host_tools.live import stream
from support.livebox import KeyBox, Live, score
from support.liveweb import Web, snapshot
from support.mpy import REPO
from support.simpage import chrome, quit_chrome
from support.livebox import KEYS_1, KEYS_2, MATCH_2, SCORES_1, SCORES_2
from support.room import behind_the_table
from support.waits import wait_for, wait_js

OUTPUT = REPO / "test-output" / "live"


def runs(log, table):
    """The painted scores of `table`, each change once, in order."""
    out = []
    for e in log:
        if e["table"] != table or e["a"] is None:
            continue
        s = (e["a"], e["b"])
        if not out or out[-1] != s:
            out.append(s)
    return out


@pytest.fixture
def browser(tmp_path):
    driver = chrome(tmp_path / "downloads")
    yield driver
    quit_chrome(driver)


def test_the_overlay_and_the_tv_page_show_every_score_in_order(tmp_path, browser):
    OUTPUT.mkdir(parents=True, exist_ok=True)
    # The pages open while the scripts wait after `ok` (longer here: the browser first).
    box1 = KeyBox(tmp_path / "b1", KEYS_1.replace("@4000", "@8000"))
    box2 = KeyBox(tmp_path / "b2", KEYS_2.replace("@4000", "@8000"), MATCH_2)
    live = None
    try:
        box1.begun()
        box2.begun()
        live = Live([box1.port, box2.port])
        d = browser
        d.get(live.url + "table/1/overlay?size=l&theme=dark")
        overlay = d.current_window_handle
        d.switch_to.new_window("tab")
        d.get(live.url + "tables")
        tv = d.current_window_handle
        # The last score of each (table 2's "pot red" is also the last word at (4, 6): a
        # box that lags must not pass for one that has finished).
        done = live.wait(lambda t: all(t[n]["lines"] == len(b.journal()) and
                                       t[n]["last"] == last and score(t[n]) == scores[-1]
                                       for n, b, last, scores in (
                                           (1, box1, "pot yellow", SCORES_1),
                                           (2, box2, "pot red", SCORES_2))),
                         timeout=40, what="both matches")
        painted = ("return [1, 2].every(n => Live.log.some(e => e.table === n && "
                   "e.lines === %d + (n - 1) * %d)) && Live.log"
                   % (done[1]["lines"], done[2]["lines"] - done[1]["lines"]))
        tv_log = wait_js(d, painted, what="the TV page's last paint")
        assert runs(tv_log, 1) == SCORES_1
        assert runs(tv_log, 2) == SCORES_2
        tile = d.execute_script("return document.getElementById('table-2').innerText")
        assert "Cy" in tile and "Di" in tile and "12" in tile
        d.set_window_size(1280, 720)
        d.save_screenshot(str(OUTPUT / "tables.png"))
        d.switch_to.window(overlay)
        log = wait_js(d, "return Live.log.some(e => e.lines === %d) && Live.log"
                      % done[1]["lines"], what="the overlay's last paint")
        assert runs(log, 1) == SCORES_1
        assert {e["table"] for e in log} == {1}
        text = d.execute_script("return document.querySelector('.bar').innerText")
        assert "Ann" in text and "Bob" in text and "18" in text
        # The shot clock counts down by itself from the last stamp (45 s, B's shot... A's).
        first = d.execute_script("return document.getElementById('clock').textContent")
        assert first.isdigit() and int(first) <= 45
        wait_js(d, "const t = document.getElementById('clock').textContent; "
                "return /^[0-9]+$/.test(t) && Number(t) < %d" % int(first), timeout=5,
                what="the shot clock to count down")
        behind_the_table(d)
        d.save_screenshot(str(OUTPUT / "overlay.png"))
        # A box that goes: its table says so on the TV page.
        box2.stop()
        d.switch_to.window(tv)
        wait_js(d, "return document.getElementById('table-2').innerText"
                   ".includes('table 2: no signal')", timeout=10, what="no signal")
        assert "no signal" not in d.execute_script(
            "return document.getElementById('table-1').innerText")
    finally:
        if live is not None:
            err = live.stop()
            assert "Traceback" not in err, err
        box1.stop()
        box2.stop()


SUB = "return document.getElementById('sub').textContent"


def test_the_overlay_waits_for_its_table_and_says_no_signal_while_live_is_away(browser):
    """Issue 24 items 1 and 2: an OBS source opened before its box is found waits for
    it; when `live` itself stops, the overlay and the TV page say `no signal` (the
    stream has closed), and once `live` is back they follow it again by themselves."""
    w = Web()
    port = w.port
    d = browser
    try:
        d.get(w.url + "table/3/overlay")
        overlay = d.current_window_handle
        wait_js(d, SUB + " === 'table 3: waiting for its box'", what="the waiting overlay")
        assert d.execute_script("return document.body.classList.contains('nosignal')")
        w.publish("table", snapshot(3, pots=("red",)))
        wait_js(d, "return document.getElementById('name-a').textContent === 'Ann' && "
                   "document.getElementById('score-a').textContent === '1'",
                what="the table found")
        assert "waiting" not in d.execute_script(SUB)
        d.switch_to.new_window("tab")
        d.get(w.url + "tables")
        tv = d.current_window_handle
        wait_js(d, "return document.getElementById('table-3') !== null", what="the tile")
        w.stop()  # live stops (Ctrl-C at the desk, the computer asleep)
        t0 = time.monotonic()
        wait_js(d, "return document.getElementById('table-3').innerText"
                   ".includes('table 3: no signal')", timeout=10, what="the TV: no signal")
        d.switch_to.window(overlay)
        wait_js(d, SUB + " === 'table 3: no signal'", timeout=10, what="the overlay")
        assert time.monotonic() - t0 < 6
        assert d.execute_script("return document.body.classList.contains('nosignal')")
        w = Web(port=port)  # live back (a new run: its event ids are not the last one's)
        w.publish("table", snapshot(3, pots=("red", "black")))
        wait_js(d, "return document.getElementById('score-a').textContent === '8'",
                timeout=20, what="the overlay back")
        assert "no signal" not in d.execute_script(SUB)
        assert not d.execute_script("return document.body.classList.contains('nosignal')")
        d.switch_to.window(tv)
        wait_js(d, "return !document.getElementById('table-3').innerText"
                   ".includes('no signal')", timeout=20, what="the TV back")
    finally:
        w.stop()


def test_a_page_refused_for_too_many_streams_tries_again(browser, monkeypatch):
    """A stream refused (503: too many pages) ends an EventSource for good: the page
    starts another a few seconds later by itself."""
    monkeypatch.setattr(stream, "MAX_STREAMS", 0)
    w = Web()
    try:
        w.publish("table", snapshot(2))
        browser.get(w.url + "table/2/overlay")
        wait_js(browser, "return Live.tries > 0", what="the refusal")
        wait_for(lambda: w.hub.stats["refused"] >= 1, what="the server's refusal")
        monkeypatch.setattr(stream, "MAX_STREAMS", 5)
        wait_js(browser, "return document.getElementById('name-a').textContent === 'Ann'",
                timeout=20, what="the page in again")
        assert w.hub.stats["refused"] >= 1
    finally:
        w.stop()
