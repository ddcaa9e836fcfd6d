"""The simulator board (firmware/boards/sim.py) and the simulator's server, without a
browser: the board runs the real app under CPython and under the MicroPython unix port
alike (one script, the same output), and the server hands out the firmware, the
WebAssembly port and the page, and nothing else.
"""

import gzip
import json
import os
import threading
import urllib.error
import urllib.request

import pytest

from host_tools.sim import server
from scoreboard.keys.keymaps import KEYMAPS
from support.mpy import FIRMWARE, REPO, run_micropython

# Runs under both interpreters: argv[1] the repo, argv[2] an empty flash folder.
SCRIPT = r'''
import sys
root, flash = sys.argv[1], sys.argv[2]
sys.path.insert(0, root + "/firmware")
try:
    import micropython
except ImportError:
    sys.path.insert(0, root + "/host_tools/compat")
import binascii
import os

from boards import sim

class Bridge:
    def __init__(self):
        self.calls = []
    def tone(self, freq, volume):
        self.calls.append((freq, volume))
    def quiet(self):
        self.calls.append((0, 0))

clock = [1000]
bridge = Bridge()
os.mkdir(flash + "/queue")
with open(flash + "/queue/demo.sbn", "w") as f:
    f.write('sbn 1\ngame snooker reds=15\nmatch best-of 3\nside A "Ann"\nside B "Bob"\n')
box = sim.Simulator("0011223344556677", bridge=bridge, flash=flash, ticks=lambda: clock[0])
board = box.board

def crc(buf):
    return "%08x" % (binascii.crc32(buf) & 0xFFFFFFFF)

def hold(bit, ms):
    for _ in range(ms // 10):
        box.step(bit)
        clock[0] += 10
    for _ in range(60):
        box.step(0)
        clock[0] += 10

def show(what):
    st = board.status
    print(what, "eink", st[sim.ST_EINK], "led", st[sim.ST_LED], "resets", st[sim.ST_RESETS],
          "keymap", st[sim.ST_KEYMAP], "panel", crc(board.eink_panel), crc(board.led_panel))

box.step(0)  # the first pass puts the boot picture up
show("boot")
print("legend", box.legend())
print("numbers", box.numbers())
print("current", repr(box.current()))
hold(1 << 0, 60)  # red on the start screen: refused, with a beep through the bridge
print("tones", bridge.calls[:1], bridge.calls[-1])
hold(1 << 15, 60)  # ok: the demonstration match starts
hold(1 << 0, 60)  # red
hold(1 << 6, 60)  # black
for _ in range(50):
    box.step(0)
    clock[0] += 10
show("played")
print("current", box.current())
with open(flash + "/" + box.current()) as f:
    words = [line.split(" *")[0].split() for line in f]
    print("journal", [" ".join([w for w in ws if w[0] != "@"]) for ws in words][-3:])
from drivers.ssd1683 import Band
from scoreboard.ui import eink
whole = Band(400, 300, 300)  # the screen drawn whole: what the bands must have put together
eink.draw(whole, box.app.screen)
whole = whole.buf
print("bands on the panel", board.eink_panel == whole, "band", len(board.band.buf),
      "canvas", hasattr(board, "eink"))
before = (crc(board.eink_panel), crc(board.led_panel))
box.reset()
for _ in range(20):
    box.step(0)
    clock[0] += 10
show("reset")
print("same panels after the reset", (crc(board.eink_panel), crc(board.led_panel)) == before)
for n in (44, 20, 54, 51, 28, 999):
    print("errno", n, board.errno(OSError(n, "x")))
board.led_level(99)
print("level", board.status[sim.ST_LEVEL])
board.led_level(-3)
print("level", board.status[sim.ST_LEVEL])
print("free", board.free_bytes() < 1441792)
print("stopped", board.status[sim.ST_STOPPED])
'''


def run_script(tmp_path, interpreter):
    script = tmp_path / "sim_board.py"
    script.write_text(SCRIPT)
    flash = tmp_path / ("flash-" + interpreter)
    flash.mkdir()
    if interpreter == "micropython":
        rc, out = run_micropython(script, REPO, flash)
    else:
        import subprocess
        import sys

        proc = subprocess.run([sys.executable, str(script), str(REPO), str(flash)],
                              capture_output=True, text=True, check=False, timeout=120)
        rc, out = proc.returncode, proc.stdout + proc.stderr
    assert rc == 0, out
    return out


def test_the_sim_board_runs_the_app_alike_on_both_interpreters(tmp_path):
    out = run_script(tmp_path, "cpython")
    assert out == run_script(tmp_path, "micropython")
    lines = out.splitlines()
    get = {}
    for line in lines:
        get.setdefault(line.split(" ")[0], []).append(line)
    assert get["legend"] == ["legend snooker:" + ",".join(KEYMAPS["snooker"])]
    assert get["numbers"] == ["numbers 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,0"]
    assert get["current"][0] == "current ''"  # no match before ok
    assert get["current"][1].startswith("current matches/")
    # the journal holds what the keys said, in order
    assert get["journal"] == ["journal ['frame A', 'pot red', 'pot black']"]
    # a refused key beeps through the bridge, then goes quiet
    assert get["tones"][0].startswith("tones [(") and get["tones"][0].endswith("(0, 0)")
    assert not get["tones"][0].startswith("tones [(0,")
    # refreshes counted, panels copied only when shown, a reset boots again onto the
    # same picture (journal recovery)
    boot, played, reset = (get[k][0].split() for k in ("boot", "played", "reset"))
    assert boot[2] == "1" and int(played[2]) > 1 and boot[6] == "1"
    assert reset[6] == "2"
    assert get["bands"] == ["bands on the panel True band 1500 canvas False"]
    assert get["same"] == ["same panels after the reset True"]
    # Emscripten's errno numbers translated; others passed through
    assert get["errno"] == ["errno 44 2", "errno 20 17", "errno 54 20", "errno 51 28",
                            "errno 28 22", "errno 999 999"]
    assert get["level"] == ["level 15", "level 0"]
    assert get["free"] == ["free True"] and get["stopped"] == ["stopped 0"]


# -- the server ------------------------------------------------------------------------
@pytest.fixture(scope="module")
def url():
    srv = server.make_server("127.0.0.1", 0)
    thread = threading.Thread(target=srv.serve_forever, kwargs={"poll_interval": 0.05},
                              daemon=True)
    thread.start()
    yield "http://127.0.0.1:%d/" % srv.server_address[1]
    srv.shutdown()
    srv.server_close()


def fetch(url, gz=False):
    req = urllib.request.Request(url, headers={"Accept-Encoding": "gzip"} if gz else {})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read()


def test_the_server_hands_out_the_firmware_the_port_and_the_page(url):
    status, headers, body = fetch(url + "firmware.json")
    assert status == 200 and headers["Cache-Control"] == "no-store"
    doc = json.loads(body)
    paths = [p for p, _text, _b64 in doc["files"]]
    on_disk = sorted(str(p.relative_to(FIRMWARE)).replace(os.sep, "/")
                     for p in FIRMWARE.rglob("*")
                     if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc")
    assert sorted(paths) == on_disk and "boards/sim.py" in paths and "main.py" in paths
    text = {p: t for p, t, _ in doc["files"]}
    assert text["boards/sim.py"] == (FIRMWARE / "boards" / "sim.py").read_text()
    status, headers, body = fetch(url + "mp/micropython.wasm")
    assert status == 200 and headers["Content-Type"] == "application/wasm"
    assert body[:4] == b"\0asm"
    status, headers, gz = fetch(url + "mp/micropython.wasm", gz=True)
    assert headers.get("Content-Encoding") == "gzip" and gzip.decompress(gz) == body
    assert len(gz) < len(body)
    status, headers, body = fetch(url)
    assert status == 200 and b'src="/sim/sim.js"' in body
    for name in ("sim.js", "storage.js", "keypad.js", "panels.js", "sim.css", "demo.sbn"):
        assert fetch(url + "sim/" + name)[0] == 200, name


@pytest.mark.parametrize("path", ["sim/server.py", "sim/__init__.py", "sim/../server.py",
                                  "sim/%2e%2e/server.py", "firmware/main.py", "mp/README.md",
                                  "../Makefile", "node_modules/"])
def test_the_server_serves_nothing_else(url, path):
    assert fetch(url + path)[0] == 404


def test_a_missing_port_says_how_to_get_it(monkeypatch, tmp_path):
    assert server.check_port_package() is None
    monkeypatch.setattr(server, "PORT_PACKAGE", str(tmp_path))
    assert "make deps" in server.check_port_package()
    assert server.main(["--port", "0"]) == 1
