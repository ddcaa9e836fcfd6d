# ruff: noqa: RUF001  (Cyrillic letters look like Latin ones: they are the language)
"""Issue 38 item 1: every control of the desk works with a mouse, at 1366x768 and at
1920x1080, in English, Polish and Bulgarian, in Debian's headless Chromium: through the
desk's states (the create form; the drawn board; a match assigned, called, its call
undone and called again; its result entered; a result corrected), every button, field
and link shown is checked where a mouse would press it (document.elementFromPoint at
its centre, once scrolled into view, is the control or inside it: nothing covers it and
it is not cut off the window; and it lies inside its own panel, so that nothing can
cover it when another panel grows), and the fields and each state's action buttons are
clicked for real (WebDriver's click fails when another element would take it). The
correction row was wider than its column and the bracket's panel covered its button:
this fails on that."""

import pytest
from selenium.webdriver.common.by import By

from host_tools.live.words import words
from support.deskdriver import match_of, state, status_is
from support.deskpage import served
from support.room import screen
from support.waits import wait_js

SIZES = ((1366, 768), (1920, 1080))
LANGS = ("en", "pl", "bg")
# Players in the club's languages, the longest names of the round-6 evening among them.
PLAYERS = {
    "en": "name,seed,club\nAnn Lee,1,Club 1\nBob Kray,,\nCy Young,,\nDana Scully,2,\n"
          "Eve Moss,,\nFay Wray,,\n",
    "pl": "nazwisko,imię,klub,rozstawienie\nBrzęczyszczykiewicz,Grzegorz,KS Bila,1\n"
          "Chmiel-Dąbrowski,Paweł,,\nWąsowska,Małgorzata,,2\nŁuczak,Ewa,,\nGąsior,Michał,,\n"
          "Kuźniar,Jędrzej,,\n",
    "bg": "фамилия,име,клуб,поставяне\nКънчева,Цветелина,,1\nЩерев,Радослав,,\n"
          "Йорданов,Божидар,,2\nСтоянова,Мария,,\nАнгелов,Стефан,,\nДимитров,Георги,,\n",
}
NAME = {"en": "Saturday Cup 12.12", "pl": "Turniej sobotni 12.12", "bg": "Зимна купа 12.12"}
FIRST = {"en": "Ann Lee", "pl": "Grzegorz Brzęczyszczykiewicz", "bg": "Цветелина Кънчева"}

# Every control shown: scrolled into view, the element under the mouse at its centre.
COVERED = """
const out = [];
const shown = (el) => el.offsetParent !== null && !el.closest('[hidden]') &&
  getComputedStyle(el).visibility !== 'hidden';
const controls = [...document.querySelectorAll(
  'button, input, select, textarea, a[href], svg.bracket g.match')].filter(shown);
for (const el of controls) {
  el.scrollIntoView({block: 'center', inline: 'center'});
  const r = el.getBoundingClientRect();
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  const at = document.elementFromPoint(x, y);
  const name = el.tagName + (el.id ? '#' + el.id : '') + (el.className && el.className.baseVal
    === undefined && el.className ? '.' + el.className : '') +
    (el.dataset.match ? '[' + el.dataset.match + ']' : '') + ' ' +
    (el.textContent || el.value || '').trim().slice(0, 30);
  // inside its own panel too: a control that spills out of its column is under the next
  // one whenever that one reaches its height (the bracket's, at the evening's end)
  const own = el.closest('.panel, header, #bar');
  const p = own ? own.getBoundingClientRect() : null;
  if (r.width < 4 || r.height < 4) out.push(name + ': too small to press');
  else if (x < 0 || y < 0 || x > innerWidth || y > innerHeight) out.push(name + ': off screen');
  else if (p && (r.left < p.left - 1 || r.right > p.right + 1)) {
    out.push(name + ': out of its panel (' + Math.round(r.left) + '-' + Math.round(r.right) +
             ' in ' + Math.round(p.left) + '-' + Math.round(p.right) + ')');
  }
  else if (!(at === el || el.contains(at))) {
    out.push(name + ': under ' + (at ? at.tagName + '.' + (at.className.baseVal ??
      at.className) + ' ' + (at.textContent || '').trim().slice(0, 30) : 'nothing'));
  }
}
return [controls.length, out];
"""


def check(d, what):
    """Every control of the page as it is now pressable (COVERED); how many."""
    count, bad = d.execute_script(COVERED)
    assert not bad, "%s: %s" % (what, bad)
    return count


def click_fields(d):
    """A real click on every field shown (focus only: nothing is sent)."""
    n = 0
    for el in d.find_elements(By.CSS_SELECTOR, "input, select, textarea"):
        if el.is_displayed():
            d.execute_script("arguments[0].scrollIntoView({block: 'center'})", el)
            el.click()
            n += 1
    d.execute_script("document.activeElement && document.activeElement.blur()")
    return n


def press(d, act, mid):
    """A real click on a match's action button (fails when covered)."""
    b = d.find_element(By.CSS_SELECTOR, 'button[data-act="%s"][data-match="%s"]' % (act, mid))
    d.execute_script("arguments[0].scrollIntoView({block: 'center'})", b)
    b.click()


def typed(d, css, text):
    el = d.find_element(By.CSS_SELECTOR, css)
    d.execute_script("arguments[0].scrollIntoView({block: 'center'})", el)
    el.click()
    el.clear()
    el.send_keys(text)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", SIZES, ids=["1366x768", "1920x1080"])
def test_every_control_of_the_desk_is_pressed_with_a_mouse(tmp_path, browser, size, lang):
    t_words = words(lang)
    web = served(tmp_path / "results.sqlite", tables=4, lang=lang)
    d = browser
    checked = {}
    try:
        screen(d, *size)
        # -- create: the form, each field clicked, then Create
        d.get(web.url + "desk")
        wait_js(d, "return document.getElementById('c-name').offsetParent !== null",
                what="the create form")
        checked["create"] = check(d, "the create form")
        assert click_fields(d) >= 15
        typed(d, "#c-name", NAME[lang])
        typed(d, "#c-players", PLAYERS[lang])
        typed(d, "#c-n", "2")
        typed(d, "#c-shot", "45")
        d.find_element(By.ID, "c-go").click()
        t = wait_js(d, "return Desk.t && document.querySelector('button[data-act=assign]') "
                       "&& Desk.t", what="the drawn board")
        assert t["name"] == NAME[lang] and t["players"][0]["name"] == FIRST[lang]
        # -- draw: the board, every control; each field clicked
        checked["draw"] = check(d, "the drawn board")
        click_fields(d)
        mid = next(m["id"] for m in t["matches"] if m["status"] == "ready")
        # -- assign, then call, then the call undone and called again
        press(d, "assign", mid)
        status_is(d, mid, "assigned")
        checked["assign"] = check(d, "a match assigned")
        press(d, "call", mid)
        status_is(d, mid, "called")
        checked["call"] = check(d, "a match called")
        press(d, "uncall", mid)
        status_is(d, mid, "assigned")
        assert d.find_element(By.ID, "msg").text == t_words["v.d_uncalled"] % mid
        checked["uncall"] = check(d, "a call undone")
        press(d, "call", mid)
        status_is(d, mid, "called")
        # -- result: typed in its row, entered
        typed(d, 'input.sa[data-match="%s"]' % mid, "2")
        typed(d, 'input.sb[data-match="%s"]' % mid, "1")
        press(d, "result", mid)
        status_is(d, mid, "done")
        checked["result"] = check(d, "a result entered")
        click_fields(d)
        # -- correct: the decided match chosen, its new score, Correct
        d.execute_script("arguments[0].scrollIntoView({block: 'center'})",
                         d.find_element(By.ID, "fix-match"))
        d.find_element(By.ID, "fix-match").click()
        typed(d, 'input.sa[data-match="%s"]' % mid, "2")
        typed(d, 'input.sb[data-match="%s"]' % mid, "0")
        checked["correct"] = check(d, "the correction's row")
        press(d, "correct", mid)
        wait_js(d, "const m = Desk.match(Desk.t, %r); return m.score && m.score[1] === 0"
                % mid, what="the correction")
        assert d.find_element(By.ID, "msg").text == t_words["v.d_corrected"] % mid
        assert match_of(state(d), mid)["score"] == [2, 0]
        checked["corrected"] = check(d, "after the correction")
        # a decided match in the bracket, clicked: its correction's inputs
        g = d.find_element(By.CSS_SELECTOR, 'svg.bracket g.match[data-match="%s"]' % mid)
        d.execute_script("arguments[0].scrollIntoView({block: 'center'})", g)
        g.click()
        assert d.find_element(By.ID, "fix-match").get_attribute("value") == mid
        # -- the print view's button
        d.get(web.url + "desk/%s/print" % t["id"])
        wait_js(d, "return Desk.t && document.querySelector('.match-sheet')", what="print")
        checked["print"] = check(d, "the print view")
    finally:
        web.stop()
        screen(d, 1920, 1080)
    assert all(n > 0 for n in checked.values()), checked
    assert checked["draw"] >= 20 and checked["correct"] >= checked["draw"] - 10
