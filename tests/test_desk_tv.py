
"""Issue 38 item 2: the desk's TV page (/desk/ID/tv) is for the room, in Debian's
headless Chromium at 1920x1080 (and 3840x2160): every slide fills the screen without
scrolling, every name on it (the bracket's, the groups', the tables', the next matches',
the placings') at least 4% of the screen's height by its letters' size and by its box,
measured as tests/test_live_room.py measures /tables; a 16-player double elimination's
every match is on one of its slides, a 4x4 groups stage on one slide, whose column
headers never run together (in en, pl, bg); the tables' slide shows each table's match
in play with the frames or racks won and the snooker frame's points; the placings get a
slide. The smallest name's size, its capital's ink and the reading distance that gives
on a 55" set (the capital's height x 250) go to test-output/desk/tv.json (docs/tournament.md
quotes them)."""

import json

import pytest

from host_tools.results.db import open_db
from host_tools.tournament import store
from support.deskpage import played, served
from support.liveweb import snapshot
from support.mpy import REPO
from support.room import screen
from support.waits import wait_js

OUTPUT = REPO / "test-output" / "desk"
MEASURED = {}
LEAST = 0.04  # a name's letters and its box, a share of the screen's height at least
SCREEN_55_CM = 55 * 2.54 * 9 / (16 ** 2 + 9 ** 2) ** 0.5  # a 16:9 55" set's height: 68.5
NAMES16 = ["Grzegorz Brzęczyszczykiewicz", "Цветелина Кънчева", "Радослав Щерев", "Ewa Łuczak",
           "Łukasz Żółkiewski", "Zofia Ślęzak", "Agnieszka Źrebiec", "Стефан Ангелов",
           "Георги Димитров", "Мария Стоянова", "Иван Петров", "Michał Gąsior",
           "Paweł Chmiel-Dąbrowski", "Małgorzata Wąsowska", "Jędrzej Kuźniar",
           "Божидар Йорданов"]

# What one slide shows, measured: the page's size and scroll, every name's box, its
# letters' size on the screen (an SVG text's font size times its scale) and the ink of
# a capital H in that font, the slide's content box, the bracket's matches, and the
# group tables' column headers.
MEASURE = """
const ctx = document.createElement('canvas').getContext('2d');
const px = (el) => {
  const f = parseFloat(getComputedStyle(el).fontSize);
  return el instanceof SVGElement ? f * el.getScreenCTM().a : f;
};
const ink = (el) => { const cs = getComputedStyle(el);
  ctx.font = cs.fontWeight + ' ' + px(el) + 'px ' + cs.fontFamily;
  const m = ctx.measureText('H');
  return m.actualBoundingBoxAscent + m.actualBoundingBoxDescent; };
const box = (el) => { const r = el.getBoundingClientRect();
  return {x: r.left, y: r.top, w: r.width, h: r.height, r: r.right, b: r.bottom}; };
const slide = document.querySelector('.slide.on');
const names = [...slide.querySelectorAll('text.name, .nm, #queue .who, #s-placings .who')]
  .filter((e) => e.textContent.trim() !== '' && getComputedStyle(e).visibility !== 'hidden');
return {
  w: innerWidth, h: innerHeight, kind: TV.shown.kind,
  sw: document.documentElement.scrollWidth, sh: document.documentElement.scrollHeight,
  names: names.map((e) => Object.assign(box(e), {font: px(e), ink: ink(e),
                                                 text: e.textContent})),
  parts: [...slide.querySelectorAll('svg.bracket > *, .card, #next div, #s-placings li')]
    .map(box),
  matches: [...slide.querySelectorAll('svg.bracket g.match')].map((g) => g.dataset.match),
  groups: [...slide.querySelectorAll('svg.bracket g.group')].map((g) => ({
    letter: g.dataset.group, heads: [...g.querySelectorAll('text.head')].map(box)})),
  cards: [...slide.querySelectorAll('.card')].map((c) => c.dataset.line),
};
"""


def tv_slides(d, url, size=(1920, 1080)):
    """The TV page at `url` on a screen of `size`: MEASURE of each of its slides."""
    screen(d, *size)
    d.get(url)
    wait_js(d, "return window.TV && TV.slides.length", what="the TV")
    return slides(d)


def slides(d):
    """MEASURE of every slide of the TV page, each shown in turn."""
    out = []
    for i in range(d.execute_script("return TV.slides.length")):
        d.execute_script("TV.show(arguments[0])", i)
        wait_js(d, "return document.fonts.status === 'loaded'", what="the fonts")
        out.append(d.execute_script(MEASURE))
    return out


def check(m, size):
    """A slide's names at least LEAST of the height, nothing beyond the screen;
    the smallest name's (font, box, capital's ink) shares of the height."""
    w, h = size
    assert (m["w"], m["h"]) == size
    assert m["sw"] <= w and m["sh"] <= h, "the page scrolls on a %s slide" % m["kind"]
    for p in m["parts"]:
        assert p["x"] >= -0.5 and p["y"] >= -0.5 and p["r"] <= w + 0.5 and p["b"] <= h + 0.5, (
            m["kind"], p)
    assert m["names"], "a %s slide without a name" % m["kind"]
    for n in m["names"]:
        assert n["font"] >= LEAST * h and n["h"] >= LEAST * h, (m["kind"], n)
        assert n["x"] >= -0.5 and n["r"] <= w + 0.5 and n["b"] <= h + 0.5, (m["kind"], n)
    for g in m["groups"]:  # a group's headers never run together
        heads = g["heads"]
        for i, a in enumerate(heads):
            for b in heads[i + 1:]:
                apart = a["r"] <= b["x"] + 0.5 or b["r"] <= a["x"] + 0.5 or \
                    a["b"] <= b["y"] + 0.5 or b["b"] <= a["y"] + 0.5
                assert apart, (g["letter"], a, b)
    low = min(m["names"], key=lambda n: n["font"])
    return low["font"] / h, min(n["h"] for n in m["names"]) / h, low["ink"] / h


def figure(key, ms, size):
    got = [check(m, size) for m in ms]
    font = min(g[0] for g in got)
    ink = min(g[2] for g in got)
    MEASURED[key] = {"slides": len(ms), "kinds": [m["kind"] for m in ms],
                     "name_font_pct": round(100 * font, 2),
                     "name_box_pct": round(100 * min(g[1] for g in got), 2),
                     "name_capital_pct": round(100 * ink, 2),
                     "read_m_55in": round(ink * SCREEN_55_CM * 250 / 100, 1)}
    return MEASURED[key]


@pytest.fixture(scope="module", autouse=True)
def write_measures():
    yield
    if MEASURED:
        OUTPUT.mkdir(parents=True, exist_ok=True)
        path = OUTPUT / "tv.json"
        try:
            old = json.loads(path.read_text())
        except (FileNotFoundError, ValueError):
            old = {}
        old.update(MEASURED)
        path.write_text(json.dumps(old, indent=1, sort_keys=True) + "\n")


def on_tables(db, name, mids):
    d = open_db(str(db))
    try:
        for table, mid in enumerate(mids, 1):
            store.assign(d, name, mid, table, "test")
        store.call(d, name, mids[0], "test")
    finally:
        d.close()


def ready(db, name):
    d = open_db(str(db))
    try:
        t = store.load(d, name)
        return [s.id for s in t.specs if t.states[s.id].status == "ready"]
    finally:
        d.close()


@pytest.mark.parametrize("size", [(1920, 1080), (3840, 2160)], ids=["1080p", "2160p"])
def test_a_16_player_double_elimination_on_the_tv(tmp_path, browser, size):
    db = tmp_path / "results.sqlite"
    t = played(db, "Sobota", upto=14, names=NAMES16)
    on_tables(db, "Sobota", ready(db, "Sobota")[:3])
    web = served(db, tables=4, lang="pl")
    # table 4's box: a snooker frame in play (its frames and its points)
    web.publish("line", snapshot(4, pots=("red", "black", "red"),
                                 names=("Иван Петров", "Michał Gąsior")))
    d = browser
    try:
        screen(d, *size)
        d.get(web.url + "desk/Sobota/tv?every=600")
        wait_js(d, "return window.TV && TV.slides.length && Live.tables[4]", what="the TV")
        ms = slides(d)
        got = figure("double 16, %dx%d" % size, ms, size)
        assert got["kinds"][0] == "tables" and "placings" not in got["kinds"]
        # every match of the bracket on one slide, once
        shown = [mid for m in ms for mid in m["matches"]]
        assert sorted(shown) == sorted(s.id for s in t.specs)
        assert len(ms) <= 5
        # the tables: the three matches on tables 1 to 3, and what table 4's box plays
        cards = ms[0]["cards"]
        assert len(cards) == 4
        assert cards[3] == "Иван Петров  0\u20130  Michał Gąsior (frejm 1: 9\u20130)"
        assert ms[0]["names"][-1]["text"]  # the next matches' names, at the same size
    finally:
        web.stop()


@pytest.mark.parametrize("lang", ["en", "pl", "bg"])
def test_a_4x4_groups_stage_on_one_slide(tmp_path, browser, lang):
    db = tmp_path / "results.sqlite"
    t = played(db, "Grupy", upto=20, names=NAMES16, fmt="groups", groups=4)
    web = served(db, tables=4, lang=lang)
    try:
        ms = tv_slides(browser, web.url + "desk/Grupy/tv?every=600")
        figure("groups 4x4 %s, 1920x1080" % lang, ms, (1920, 1080))
        groups = [m for m in ms if m["kind"] == "groups"]
        assert len(groups) == 1
        assert [g["letter"] for g in groups[0]["groups"]] == ["A", "B", "C", "D"]
        assert len(groups[0]["names"]) == 16
        knockout = [mid for m in ms for mid in m["matches"]]
        assert sorted(knockout) == sorted(s.id for s in t.specs if not s.stage.startswith(
            "group"))
    finally:
        web.stop()


def test_the_placings_get_a_slide_and_the_champion_the_top(tmp_path, browser):
    db = tmp_path / "results.sqlite"
    t = played(db, "Sobota", names=NAMES16)
    web = served(db, tables=4, lang="pl")
    d = browser
    try:
        ms = tv_slides(d, web.url + "desk/Sobota/tv?view=placings")
        got = figure("placings 16, 1920x1080", ms, (1920, 1080))
        assert got["kinds"] == ["placings"]
        places = d.execute_script("return [...document.querySelectorAll('#s-placings li')]"
                                  ".map((li) => li.textContent)")
        assert len(places) == 16
        assert places[0] == "1" + t.player(t.champion).name
        assert [p.split(next(c for c in p if c.isalpha()))[0] for p in places] == [
            "1", "2", "3", "4", "5\u20136", "5\u20136", "7\u20138", "7\u20138"] + \
            ["9\u201312"] * 4 + ["13\u201316"] * 4
        # the champion across the top, without a gender
        assert d.find_element("id", "champion").text == "Turniej wygrywa: %s" % (
            t.player(t.champion).name)
    finally:
        web.stop()


HEADS = """
return [...document.querySelectorAll('svg.bracket g.group')].map((g) =>
  [...g.querySelectorAll('text.head')].map((e) => { const r = e.getBoundingClientRect();
    return {x: r.left, r: r.right, y: r.top, b: r.bottom, text: e.textContent}; }));
"""


@pytest.mark.parametrize("lang", ["en", "pl", "bg"])
def test_the_desks_group_headers_never_run_together(tmp_path, browser, lang):
    """The desk's own cross tables (the round-6 evening: `победи-загубигеймове`)."""
    db = tmp_path / "results.sqlite"
    played(db, "Grupy", upto=20, names=NAMES16, fmt="groups", groups=4)
    web = served(db, tables=4, lang=lang)
    try:
        browser.get(web.url + "desk/Grupy")
        wait_js(browser, "return Desk.t && document.querySelector('svg.bracket g.group') && "
                         "document.fonts.status === 'loaded'", what="the groups")
        groups = browser.execute_script(HEADS)
        assert len(groups) == 4
        for heads in groups:
            # the columns' 1-4, the rows' places, won-lost (on one line or two), the
            # frames (racks), the place
            assert len(heads) >= 4 + 4 + 3
            for i, a in enumerate(heads):
                for b in heads[i + 1:]:
                    assert a["r"] <= b["x"] + 0.5 or b["r"] <= a["x"] + 0.5 or \
                        a["b"] <= b["y"] + 0.5 or b["b"] <= a["y"] + 0.5, (a, b)
    finally:
        web.stop()
