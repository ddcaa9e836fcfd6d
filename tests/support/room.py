"""The room's pages of `scoreboard live` (the TV page, the overlay) in headless Chromium at
a TV's size, for tests/live/test_live_room.py and for the pictures in docs/pictures/:

    python tests/support/room.py          # writes docs/pictures/live-tables.png and
                                          # live-overlay.png at 1920x1080 again

`tables(n)` are n tables as table.py shows them, with matches in play between the names
of issue 26 (accents, Cyrillic, Greek); `screen(driver, w, h)` gives the page exactly that
viewport (Chrome's device metrics, not the window's size); `MEASURE` is the script that
reads the letter heights and the tiles' boxes off the page.
"""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
if __name__ == "__main__":
    sys.path[:0] = [str(HERE.parent), str(HERE.parents[1])]

import host_tools  # noqa: E402,F401  (the firmware on the path)
from host_tools.live.table import Table  # noqa: E402
from scoreboard.core.words import with_checksum  # noqa: E402

REPO = HERE.parents[1]
PICTURES = REPO / "docs" / "pictures"

HEADER = """sbn 1
game snooker reds=15
match best-of %d
side A "%s"
side B "%s"
clock shot=45 warn=10
"""
NAMES = ("Łukasz Żółć", "Стоян Чаушев", "Michał Ściński", "Γιώργος Παπαδόπουλος",
         "Ann Lee", "Иван Петров", "Zoë Brontë", "Bob Smith")
# Visits of a frame in play: the striker changes at each `end`.
PLAY = ("frame A", "pot red", "pot black", "pot red", "pot pink", "end", "pot red",
        "pot blue", "end", "pot red", "pot black")


def snapshot(n, names, events, best_of=7, signal=True):
    """Table n's snapshot after `events` (words of the notation, stamped a second apart)."""
    text = HEADER % (best_of, names[0], names[1])
    lines = [with_checksum(t) for t in text.splitlines()]
    lines += [with_checksum("@%d %s" % (1000 * (i + 1), e)) for i, e in enumerate(events)]
    t = Table(n, "/dev/ttyACM%d" % n)
    t.load("M-%d" % n, lines)
    assert t.match is not None, "the events do not replay"
    t.signal = signal
    t.status = "live" if signal else "no signal"
    return t.snapshot()


def tables(count):
    """`count` tables in play, each a different point of its frame, names from NAMES."""
    out = []
    for i in range(count):
        a, b = NAMES[(2 * i) % len(NAMES)], NAMES[(2 * i + 1) % len(NAMES)]
        out.append(snapshot(i + 1, (a, b), PLAY[:3 + (i * 3) % (len(PLAY) - 2)]))
    return out


def screen(driver, width, height):
    """The page's viewport exactly `width` x `height` CSS pixels (device scale 1)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})


# What the TV page shows, measured: the screen, each tile's box and how far its content
# reaches, and each name's and score's box (getBoundingClientRect), font size, and the
# ink of a capital H (names) or a digit 8 (scores) in that font.
MEASURE = """
const ctx = document.createElement('canvas').getContext('2d');
// the ink of a capital or a digit in the element's own font, in px
const ink = (el, text) => { const cs = getComputedStyle(el);
  ctx.font = cs.fontWeight + ' ' + cs.fontSize + ' ' + cs.fontFamily;
  const m = ctx.measureText(text);
  return m.actualBoundingBoxAscent + m.actualBoundingBoxDescent; };
const box = (el) => { const r = el.getBoundingClientRect();
  return {x: r.left, y: r.top, w: r.width, h: r.height, r: r.right, b: r.bottom}; };
return {
  w: window.innerWidth, h: window.innerHeight,
  sw: document.documentElement.scrollWidth, sh: document.documentElement.scrollHeight,
  tiles: [...document.querySelectorAll('.tile')].map((t) => ({
    id: t.id, box: box(t), sh: t.scrollHeight, ch: t.clientHeight,
    sw: t.scrollWidth, cw: t.clientWidth,
    names: [...t.querySelectorAll('.n')].map((e) => Object.assign(box(e),
      {font: parseFloat(getComputedStyle(e).fontSize), text: e.textContent, ink: ink(e, 'H')})),
    scores: [...t.querySelectorAll('.s')].map((e) => Object.assign(box(e),
      {font: parseFloat(getComputedStyle(e).fontSize), text: e.textContent, ink: ink(e, '8')})),
  })),
};
"""


def wait_tiles(driver, count, timeout=20.0):
    from support.waits import wait_js

    wait_js(driver, "return document.querySelectorAll('.tile').length === %d && "
            "[...document.querySelectorAll('.tile .row.a .s')].every(e => e.textContent !== '')"
            % count, timeout, "the TV page to show %d tables" % count)


def behind_the_table(driver):
    """The page over TABLE_PICTURE, as OBS lays the overlay over the table camera's
    picture (for a screenshot)."""
    import base64

    frame = "data:image/svg+xml;base64," + base64.b64encode(TABLE_PICTURE.encode()).decode()
    driver.execute_script("document.documentElement.style.background = "
                          "'url(" + frame + ") center / cover'")


def pictures(out=PICTURES, width=1920, height=1080):
    """The TV page (8 tables) and the overlay (over a picture of the table) at
    `width` x `height`, as PNG files in `out`; their paths."""
    import tempfile

    from support.liveweb import Web
    from support.simpage import chrome, quit_chrome
    from support.waits import wait_js

    out.mkdir(parents=True, exist_ok=True)
    web = Web()
    driver = chrome(Path(tempfile.mkdtemp(prefix="room-")))
    try:
        for snap in tables(8):
            web.publish("table", snap)
        screen(driver, width, height)
        driver.get(web.url + "tables")
        wait_tiles(driver, 8)
        wait_js(driver, "return document.fonts.status === 'loaded'", what="the fonts")
        tv = out / "live-tables.png"
        driver.save_screenshot(str(tv))
        driver.get(web.url + "table/1/overlay?corner=bl&scale=1.5")
        wait_js(driver, "return document.getElementById('score-a').textContent !== ''",
                what="the overlay's score")
        behind_the_table(driver)
        wait_js(driver, "return document.readyState === 'complete'", what="the picture")
        overlay = out / "live-overlay.png"
        driver.save_screenshot(str(overlay))
        return tv, overlay
    finally:
        quit_chrome(driver)
        web.stop()


# A stand-in for the table camera's picture: baize, cushions, a few balls (flat
# colours: the PNG stays small).
TABLE_PICTURE = """<svg xmlns='http://www.w3.org/2000/svg' width='1920' height='1080'>
<rect width='1920' height='1080' fill='#3b2314'/><rect x='100' y='90' width='1720' height='900'
rx='26' fill='#1e6b3a'/><circle cx='570' cy='450' r='19' fill='#c4161c'/>
<circle cx='606' cy='471' r='19' fill='#c4161c'/><circle cx='606' cy='429' r='19' fill='#c4161c'/>
<circle cx='1440' cy='540' r='19' fill='#111'/><circle cx='1050' cy='630' r='19' fill='#f6f3e8'/>
<circle cx='840' cy='375' r='19' fill='#e5007e'/><circle cx='1230' cy='750' r='19' fill='#1f4fc1'/>
</svg>"""


if __name__ == "__main__":
    for path in pictures():
        print(path.relative_to(REPO))
