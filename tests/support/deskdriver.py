"""The desk's page (`scoreboard desk`) driven in Chromium, for the tests that click it
(tests/test_desk_page.py, tests/test_desk_event.py): the page's state (`Desk.t`: the
tournament as `show --json` has it, with the tables), a match's status waited for, a
match's button clicked, the bracket's results read off its SVG (on the TV page, off
each of its slides in turn), and a match and a player looked up in the state.
"""

import json

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By

from support.waits import wait_js


def state(d):
    return d.execute_script("return Desk.t")


def match_of(t, mid):
    return next(m for m in t["matches"] if m["id"] == mid)


def who(t, pid):
    """A player's name by id."""
    return next(p["name"] for p in t["players"] if p["id"] == pid)


def status_is(d, mid, *statuses, timeout=30):
    """The page's state once match `mid` has one of `statuses` (the page's message line
    named when it does not come)."""
    try:
        return wait_js(d, "const m = Desk.t && Desk.match(Desk.t, %s); return m && %s.includes("
                          "m.status) && Desk.t" % (json.dumps(mid), json.dumps(list(statuses))),
                       timeout=timeout, what="%s to be %s" % (mid, "/".join(statuses)))
    except AssertionError as e:
        raise AssertionError("%s (the page says %r, %s is %s)" % (e, d.execute_script(
            "return document.getElementById('msg').textContent"), mid, d.execute_script(
                "return Desk.t && Desk.match(Desk.t, %s).status" % json.dumps(mid)))) from None


def click(d, act, mid):
    """Click the button; once more when the page drew the board again between the find
    and the click (a stale element is not clicked)."""
    for _ in range(5):
        try:
            d.find_element(By.CSS_SELECTOR, 'button[data-act="%s"][data-match="%s"]' % (
                act, mid)).click()
            return
        except StaleElementReferenceException:
            continue
    raise AssertionError("the %s button of %s kept being drawn again" % (act, mid))


def svg_results(d):
    """{match: (the score text of side A, of side B, data-score)} of the bracket's SVG."""
    return d.execute_script(
        "const out = {};"
        "for (const g of document.querySelectorAll('svg.bracket g.match:not(.cell)')) {"
        "  const s = g.querySelectorAll('.row .score');"
        "  out[g.dataset.match] = [s[0].textContent, s[1].textContent, g.dataset.score]; }"
        "return out;")


def tv_results(d):
    """svg_results of every bracket slide of the TV page (desk-tv.html's `TV`), each
    shown in turn; the slide it showed is shown again after."""
    out = {}
    was = d.execute_script("return TV.at")
    for i, kind in enumerate(d.execute_script("return TV.slides.map((s) => s.kind)")):
        if kind in ("section", "groups"):
            d.execute_script("TV.show(arguments[0])", i)
            out.update(svg_results(d))
    d.execute_script("TV.show(arguments[0])", was)
    return out
