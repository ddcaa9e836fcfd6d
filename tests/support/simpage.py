"""The browser simulator under test: its server, headless Chromium through Selenium, and
a page object that presses keys and reads the page's own framebuffer data.

Chromium and chromedriver are Debian's (`make deps` installs them): nothing here
downloads a browser, and nothing skips when they are missing (that is a failure).
Screenshots and measurements go to test-output/sim/ (git-ignored).
"""

import base64
import os
import shutil
import subprocess
import sys
import tempfile

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

from support.mpy import REPO, tool
from support.waits import wait_for

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
OUTPUT = REPO / "test-output" / "sim"
# The flags that keep Chromium off the network here (and quiet): see the env notes.
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--autoplay-policy=no-user-gesture-required",
         "--window-size=1280,1120")
# The keyboard shortcut of each key (row-major), as the page shows them.
SHORTCUTS = "1234qwerasdfzxcv"


class Server:
    """`python -m host_tools.sim --port 0` in the background; `url` is what it printed."""

    def __init__(self, firmware=None):
        more = [] if firmware is None else ["--firmware", str(firmware)]
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "host_tools.sim", "--port", "0", *more], cwd=str(REPO),
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True)
        self.url = self.proc.stdout.readline().strip()
        if not self.url.startswith("http://127.0.0.1:"):
            self.stop()
            raise AssertionError("the simulator server did not start: %r %s"
                                 % (self.url, self.proc.stderr.read()))

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        for stream in (self.proc.stdout, self.proc.stderr):
            if stream:
                stream.close()


def chrome(downloads):
    """Headless Debian Chromium with a fresh profile; downloads land in `downloads`."""
    tool(CHROMIUM)
    tool(CHROMEDRIVER)
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for flag in FLAGS:
        opts.add_argument(flag)
    profile = tempfile.mkdtemp(prefix="sim-chromium-")
    opts.add_argument("--user-data-dir=" + profile)
    opts.add_experimental_option("prefs", {
        "download.default_directory": str(downloads),
        "download.prompt_for_download": False,
        "download.directory_upgrade": True,
        "profile.default_content_setting_values.automatic_downloads": 1,
    })
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=opts, service=Service(CHROMEDRIVER))
    driver.profile_dir = profile
    return driver


def quit_chrome(driver):
    driver.quit()
    shutil.rmtree(driver.profile_dir, ignore_errors=True)


class Page:
    """The simulator page in one browser tab."""

    def __init__(self, driver, url):
        self.driver = driver
        self.url = url

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def wait(self, script, timeout=20.0, what="the page"):
        """Poll `return ...` until it is truthy; its value."""
        return wait_for(lambda: self.js(script), timeout, lambda: "%s: %s; errors %s; console %s"
                        % (what, script, self.errors(), self.console()[-15:]))

    # -- loading -------------------------------------------------------------------------
    def open(self, fresh=False):
        """Load the page (after clearing the simulated flash when `fresh`); wait for the
        firmware to run and draw its first frame."""
        if fresh:
            self.driver.get(self.url + "sim/demo.sbn")  # same origin, no simulator running
            self.js("localStorage.clear()")
        self.driver.get(self.url)
        self.wait_running()

    def reload(self):
        self.driver.refresh()
        self.wait_running()

    def wait_running(self):
        phase = self.wait("return window.sim && window.sim.phase !== 'loading' && "
                          "window.sim.marks.firstFrame && window.sim.phase",
                          what="the firmware's first frame")
        assert phase == "running", (phase, self.errors(), self.console())
        self.settle()

    def errors(self):
        return self.js("return window.sim ? window.sim.errors : ['no window.sim']")

    def console(self):
        return self.js("return window.sim ? window.sim.consoleLines : []")

    # -- keys --------------------------------------------------------------------------------
    def key(self, name):
        return self.driver.find_element(By.CSS_SELECTOR, '#keypad button[aria-label="%s"]'
                                        % name)

    def keys(self):
        return self.driver.find_elements(By.CSS_SELECTOR, "#keypad button")

    def legend(self):
        return [b.accessible_name for b in self.keys()]

    def click(self, *names, hold=0.12):
        """Press buttons with the mouse, each held `hold` seconds (a referee's press)."""
        for name in names:
            long = name.endswith("!")
            el = self.key(name[:-1] if long else name)
            ActionChains(self.driver).click_and_hold(el).pause(1.1 if long else hold) \
                .release(el).perform()

    def type(self, text):
        """Type keyboard shortcuts (the characters of SHORTCUTS) on the page."""
        self.driver.find_element(By.TAG_NAME, "body").send_keys(text)

    def hold(self, char, seconds=1.1):
        """Hold a keyboard shortcut down (a long press past the firmware's 700 ms)."""
        body = self.driver.find_element(By.TAG_NAME, "body")
        ActionChains(self.driver).key_down(char, body).pause(seconds).key_up(char).perform()

    def shortcut(self, names, family_names):
        """The shortcut characters of key names, for `type`."""
        return "".join(SHORTCUTS[family_names.index(n)] for n in names)

    def settle(self, quiet_ms=700):
        """Wait until the keys are idle and neither panel changed for quiet_ms."""
        ok = self.driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "window.sim.settled(arguments[0], 15000).then(done);", quiet_ms)
        assert ok, "the panels did not settle: %s" % self.errors()

    # -- what the page shows -------------------------------------------------------------------
    def eink(self):
        return base64.b64decode(self.js("return window.sim.einkBase64()"))

    def led(self):
        return base64.b64decode(self.js("return window.sim.ledBase64()"))

    def eink_canvas(self):
        """The e-ink canvas's pixels as MONO_HLSB bytes (dark = 1), to compare with eink()."""
        data = self.js(
            "const c = document.getElementById('eink');"
            "const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;"
            "const out = new Uint8Array(c.width * c.height / 8);"
            "for (let i = 0; i < c.width * c.height; i++)"
            "  if (d[i * 4] < 128) out[i >> 3] |= 0x80 >> (i & 7);"
            "let s = ''; for (const b of out) s += String.fromCharCode(b); return btoa(s);")
        return base64.b64decode(data)

    def journal(self):
        """(path, text) of the current match's journal, as the page's pane has it."""
        j = self.js("return window.sim.journal()")
        pane = self.driver.find_element(By.ID, "journal").text
        return j["path"], j["text"], pane

    def screenshot(self, name):
        OUTPUT.mkdir(parents=True, exist_ok=True)
        path = OUTPUT / (name + ".png")
        self.driver.save_screenshot(str(path))
        return path


def host_panels(files, uid_hex):
    """The e-ink and LED bytes the same firmware draws on CPython (the host board) from
    the same flash files: what the page's panels must hold after a boot."""
    from boards.host import HostBoard
    from scoreboard.app import App

    root = tempfile.mkdtemp(prefix="sim-host-flash-")
    try:
        for rel, data in files.items():
            path = os.path.join(root, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as f:
                f.write(data)
        board = HostBoard(root, box_id=bytes.fromhex(uid_hex))
        app = App(board)
        app.boot(0)
        for now in range(0, 100, 10):
            board.now = now
            app.step(now)
        return bytes(board.eink_buf), bytes(board.led_buf)
    finally:
        shutil.rmtree(root, ignore_errors=True)
