"""The browser simulator (issue 9): the real firmware in real MicroPython (the WebAssembly
port) in headless Chromium, driven like a referee would: clicks, held buttons and key
strokes. The panels are checked from the page's framebuffer data against what the same
firmware draws on CPython from the same flash; the journal the page shows and
downloads replays with `scoreboard replay` to figures worked out by hand from docs/rules.md.

Screenshots and the measurements (first frame, key-to-panel latency, download size) go
to test-output/sim/.
"""

import base64
import json
import shutil
import zipfile

import pytest

from scoreboard.keys.keymaps import KEYMAPS
from support.mpy import FIRMWARE, replay_json
from support.waits import wait_for
from support.simpage import OUTPUT, Page, Server, chrome, host_panels, quit_chrome

NINEBALL = """sbn 1
game nineball
match race-to 3
breaks alternate
side A "Ann"
side B "Bob"
"""


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    OUTPUT.mkdir(parents=True, exist_ok=True)
    downloads = tmp_path_factory.mktemp("sim-downloads")  # one per run: runs may overlap
    server = Server()
    driver = chrome(downloads)
    try:
        p = Page(driver, server.url)
        p.downloads = downloads
        yield p
    finally:
        quit_chrome(driver)
        server.stop()


def lines_of(text):
    """The journal's event lines without `@MS` stamps and checksums."""
    out = []
    for line in text.splitlines():
        words = line.split(" *")[0].split()
        if words and words[0].startswith("@"):
            words = words[1:]
        out.append(" ".join(words))
    return out


def flash_files(page):
    return {rel: base64.b64decode(page.js("return sim.fileBase64(arguments[0])", rel))
            for rel, _size, _mtime in page.js("return sim.files()")}


def without_timing(report):
    timing = report.pop("timing")
    assert timing is not None  # the box stamps every event
    for side in "AB":
        assert isinstance(timing[side]["shots"], int) and timing[side]["shots"] >= 0
    return report


def assert_panels_are_the_firmwares(page):
    """The page draws what the panel buffers hold, and they hold what the same firmware
    draws on CPython from the same flash (after its boot)."""
    eink = page.eink()
    assert page.eink_canvas() == eink  # pixel for pixel, 1 = black
    assert any(eink), "blank e-ink panel"
    host_eink, host_led = host_panels(flash_files(page), page.js("return sim.uid()"))
    assert eink == host_eink
    assert page.led() == host_led


def test_the_page_runs_the_firmware_from_localhost_only(page):
    page.open(fresh=True)
    assert page.errors() == []
    # everything came from the local server: no network at run time
    items = page.js("return sim.download().items")
    assert items and all(name.startswith(page.url) for name, *_ in items), items
    names = {name.split("/")[-1] for name, *_ in items}
    assert {"micropython.mjs", "micropython.wasm", "firmware.json"} <= names
    # the keypad: 16 buttons named by the snooker legend, shortcuts shown
    assert page.legend() == list(KEYMAPS["snooker"])
    shortcuts = [b.get_attribute("aria-keyshortcuts") for b in page.keys()]
    assert "".join(shortcuts).lower() == "1234qwerasdfzxcv"
    # a fresh storage holds the demonstration match, offered on the start screen
    files = {rel: size for rel, size, _ in page.js("return sim.files()")}
    assert "queue/demo.sbn" in files
    demo = page.js("return sim.fileText('queue/demo.sbn')")
    assert "game snooker reds=15" in demo and "match best-of 3" in demo
    assert demo.count('side A "') == 1 and demo.count('side B "') == 1
    assert_panels_are_the_firmwares(page)
    page.screenshot("1-start-screen")
    # a key the start screen refuses: the firmware's low beep through WebAudio, then quiet
    page.click("red")
    page.settle()
    tones = page.js("return sim.tones()")
    assert tones and tones[0][1] > 0 and tones[0][3] > 0 and tones[-1][1] == 0, tones
    assert page.js("return sim.buzzer.ctx !== null && sim.buzzer.ctx.state") == "running"
    # muted: the same beep asked for, at no gain
    page.driver.find_element("id", "mute").click()
    page.click("red")
    page.settle()
    muted = page.js("return sim.tones()")[len(tones):]
    assert muted and muted[0][1] == tones[0][1] and all(t[3] == 0 for t in muted), muted
    page.driver.find_element("id", "mute").click()


def test_a_snooker_frame_by_clicks_and_keys_survives_a_reload(page):
    page.open(fresh=True)
    snooker = list(KEYMAPS["snooker"])
    page.click("ok")  # start the demonstration match, A breaks
    page.click("red", "black", "red", "black")  # clicks...
    page.type(page.shortcut(["red", "black"] * 13, snooker))  # ... and key strokes
    page.type(page.shortcut(["yellow", "green", "brown", "blue", "pink", "black"], snooker))
    page.settle()
    path, text, pane = page.journal()
    assert path.startswith("matches/") and path.endswith(".sbn")
    events = lines_of(text)
    assert events[events.index("frame A"):] == ["frame A"] + ["pot red", "pot black"] * 15 + [
        "pot yellow", "pot green", "pot brown", "pot blue", "pot pink", "pot black"]
    assert "pot yellow" in pane and pane.count("pot red") == 15
    page.screenshot("2-snooker-147")
    # frame 2: B breaks; three reds in one stroke (red held on the keyboard, red, ok), then
    # the pink; B's visit ends
    page.click("ok")
    page.hold(page.shortcut(["red"], snooker))
    page.click("red", "ok", "pink", "end")
    page.settle()
    before = page.journal()[1]
    assert lines_of(before)[-5:] == ["pot black", "frame", "pot red red red", "pot pink", "end"]
    eink, led = page.eink(), page.led()
    page.screenshot("3-snooker-before-reload")
    # a reload is a power cut: the firmware's journal recovery brings the box back
    page.reload()
    assert page.errors() == []
    assert page.journal()[1] == before
    assert page.eink() == eink and page.led() == led
    assert_panels_are_the_firmwares(page)
    page.screenshot("4-snooker-after-reload")
    page.click("red!", "red", "ok")  # and play goes on: A pots three reds (a held button)
    page.settle()
    assert lines_of(page.journal()[1])[-1] == "pot red red red"
    # the match files, downloaded as a person would, replay to the hand-worked state
    page.driver.find_element("id", "download").click()
    archive = page.downloads / "scoreboard-matches.zip"
    wait_for(archive.exists, 10, "the download of scoreboard-matches.zip", every=0.1)
    with zipfile.ZipFile(archive) as z:
        data = z.read(path)
    assert data.decode() == page.journal()[1]
    journal = OUTPUT / "snooker-journal.sbn"
    journal.write_bytes(data)
    assert without_timing(replay_json(journal)) == {
        "game": "snooker", "status": "playing", "winner": None,
        "frames_won": {"A": 1, "B": 0},
        "frames": [
            {"number": 1, "breaker": "A", "score": {"A": 147, "B": 0}, "winner": "A",
             "how": "potted", "breaks": {"A": [147], "B": []}},
            {"number": 2, "breaker": "B", "score": {"A": 3, "B": 9}, "winner": None,
             "how": None, "breaks": {"A": [], "B": []}},
        ],
        "current": {"striker": "A", "score": {"A": 3, "B": 9}, "break": 3,
                    "ball_on": "colour", "reds": 9, "remaining": 7 + 8 * 9 + 27,
                    "snookers_required": 0, "free_ball": False, "respotted_black": False,
                    "fouls_in_a_row": {"A": 0, "B": 0}, "misses_in_a_row": {"A": 0, "B": 0},
                    "prompts": []},
        "result": None,
    }


def test_a_nineball_rack_from_a_queued_file_by_key_strokes(page, tmp_path):
    page.open()
    # the clear-storage button: a fresh box with only the demonstration match
    page.js("window.beforeClear = true")  # gone once the page has reloaded
    page.driver.find_element("id", "clear").click()
    page.driver.switch_to.alert.accept()
    page.wait("return !window.beforeClear && document.readyState === 'complete'",
              what="the page to reload after the clear")
    page.wait_running()
    assert [rel for rel, *_ in page.js("return sim.files()")] == ["queue/demo.sbn"]
    # a prepared nine-ball match, queued through the file picker: the box resets
    match = tmp_path / "nineball.sbn"
    match.write_text(NINEBALL)
    page.driver.find_element("id", "queue-file").send_keys(str(match))
    page.wait("return sim.files().some(f => f[0] === 'queue/nineball.sbn')")
    page.settle()
    assert page.legend() == list(KEYMAPS["snooker"])  # the cursor is on the demo match
    pool = list(KEYMAPS["pool"])
    page.type(page.shortcut(["undo"], pool))  # the next queued match: nine-ball
    page.settle()
    assert page.legend() == pool
    page.type(page.shortcut(["ok"], pool))  # start it: A breaks
    # A pots the 1 and the 2 (keys 1 and 2 in a number entry), then plays safe;
    # B fouls; A pots the 9 (the ninth key) and wins the rack
    page.type(page.shortcut(["pot", "rackA", "rackB", "ok", "end"], pool))
    page.type(page.shortcut(["foul", "pot", "go", "ok"], pool))
    page.settle()
    _path, text, pane = page.journal()
    events = lines_of(text)
    assert events[events.index("frame A"):] == ["frame A", "pot 1 2", "end", "foul", "pot 9"]
    assert "pot 9" in pane
    page.screenshot("5-nineball-rack")
    # a file dropped on the page is queued too; the reset recovers the rack in play
    page.js("""
        const dt = new DataTransfer();
        dt.items.add(new File([arguments[0]], 'later match.sbn', {type: 'text/plain'}));
        document.dispatchEvent(new DragEvent('drop', {dataTransfer: dt, bubbles: true}));
    """, NINEBALL.replace("nineball", "eightball"))
    page.wait("return sim.files().some(f => f[0] === 'queue/later-match.sbn')")
    page.settle()
    assert page.journal()[1] == text and page.legend() == pool
    assert_panels_are_the_firmwares(page)
    journal = OUTPUT / "nineball-journal.sbn"
    journal.write_text(text)
    assert without_timing(replay_json(journal)) == {
        "game": "nineball", "status": "playing", "winner": None,
        "frames_won": {"A": 1, "B": 0},
        # docs/notation.md: pool racks have no score and no breaks
        "frames": [{"number": 1, "breaker": "A", "score": None, "winner": "A", "how": "won",
                    "breaks": None}],
        "current": None, "result": None,
    }


def test_a_broken_firmware_shows_its_traceback(page, tmp_path):
    """A developer's mistake in a firmware file: the page says where, it does not hang."""
    firmware = tmp_path / "firmware"
    shutil.copytree(FIRMWARE, firmware, ignore=shutil.ignore_patterns("__pycache__"))
    app = firmware / "scoreboard" / "app.py"
    app.write_text(app.read_text() + "\ndef broken(:\n")
    server = Server(firmware)
    try:
        page.driver.get(server.url)
        page.wait("return window.sim && window.sim.phase === 'error'", what="the error")
        console = "\n".join(page.console())
        assert "SyntaxError" in console and "app.py" in console, console
        status = page.driver.find_element("id", "status")
        assert "SyntaxError" in status.text and "error" in status.get_attribute("class")
    finally:
        server.stop()


def test_measurements(page):
    """Page load to first frame, key release to the LED and to the e-ink changing, and
    the page's download size; written to test-output/sim/measurements.json."""
    page.open(fresh=True)
    marks = page.js("return sim.marks")
    size = page.js("return sim.download()")
    page.click("ok")
    page.settle()
    page.js("sim.latency.length = 0")
    for name in ("red", "black", "red", "pink", "end"):
        page.click(name, hold=0.12)
        page.settle(quiet_ms=600)
    lat = page.js("return sim.latency")
    assert len(lat) == 5 and page.errors() == []
    for m in lat:  # each press changed both panels, the LED first
        assert m["led"] is not None and m["eink"] is not None, lat
        assert m["led"] <= m["eink"], lat
    tones = page.js("return sim.tones()")
    out = {
        "first_frame_ms": round(marks["firstFrame"]),
        "micropython_ready_ms": round(marks["wasm"]),
        "booted_ms": round(marks["booted"]),
        "download": {k: size[k] for k in ("requests", "transfer", "encoded", "decoded")},
        "key_to_led_ms": sorted(round(m["led"]) for m in lat),
        "key_to_eink_ms": sorted(round(m["eink"]) for m in lat),
        "scan_to_led_ms": sorted(round(m["ledAfterScan"]) for m in lat),
        "tones": len(tones),
    }
    (OUTPUT / "measurements.json").write_text(json.dumps(out, indent=1) + "\n")
    print("simulator measurements:", json.dumps(out))
    assert out["download"]["transfer"] > 0
