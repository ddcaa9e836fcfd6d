# ruff: noqa: RUF001, RUF002, RUF003  (Cyrillic letters look like Latin: the language)
"""The box's language (issue 18 item 2): one table per language, every key in every
table with the same `%` conversions, a table with a key missing fails, capitals the same
on both interpreters, the rules core's refusals matched and translated."""

import re
import subprocess
import sys

import pytest

from support import mpy

from scoreboard import lang
from scoreboard.lang import bg, en, pl

TABLES = {"en": en.TEXTS, "pl": pl.TEXTS, "bg": bg.TEXTS}


@pytest.fixture(autouse=True)
def english_after():
    yield
    lang.use("en")


def _keys(table):
    return list(table[0::2])


def _conversions(text):
    return re.findall(r"%[-0-9.]*[sd%]", text)


def check_table(table, reference=en.TEXTS, code="en"):
    """What is wrong with `table` against the reference table: [] when nothing. A plural
    form `KEY#1` (one) or, in Polish, `KEY#2` (few) may stand beside a key of the
    reference, with the key's conversions."""
    problems = []
    if len(table) % 2:
        return ["an odd number of strings: a key without its text"]
    keys = _keys(table)
    if keys != sorted(keys):
        problems.append("keys out of order (the lookup bisects)")
    if len(set(keys)) != len(keys):
        problems.append("a key given twice")
    ref = dict(zip(reference[0::2], reference[1::2]))
    mine = dict(zip(table[0::2], table[1::2]))
    for key in sorted(set(ref) - set(mine)):
        problems.append("missing key %s" % key)

    def base_of(key):  # KEY#1, KEY#2: plural forms; =KEY|rack: a refusal's rack words
        base, _, form = key.partition("#")
        if base in ref and (form == "1" or (form == "2" and code == "pl")):
            return base
        if key.startswith("=") and key.endswith("|rack") and key[:-5] in reference[0::2]:
            return key[:-5]
        return None

    for key in sorted(set(mine) - set(ref)):
        if base_of(key) is None:
            problems.append("unknown key %s" % key)
    for key in sorted(k for k in mine if k in ref or base_of(k) is not None):
        base = key if key in ref else base_of(key)
        want = _conversions(ref[base])
        got = _conversions(mine[key])
        if key.startswith("="):  # the core's arguments arrive as strings
            want = ["%s" if c == "%d" else c for c in want]
            got = ["%s" if c == "%d" else c for c in got]
        if got != want:
            problems.append("%s: conversions %s, not %s" % (key, got, want))
    return problems


@pytest.mark.parametrize("code", ["en", "pl", "bg"])
def test_every_table_has_every_key_with_the_same_conversions(code):
    assert check_table(TABLES[code], code=code) == []
    assert lang.LANGS == ("en", "pl", "bg")


def test_a_table_with_a_key_missing_fails():
    table = list(pl.TEXTS)
    i = table.index("s.ball_on")
    del table[i:i + 2]
    assert check_table(tuple(table), code="pl") == ["missing key s.ball_on"]
    assert "unknown key m.frames#2" in check_table(pl.TEXTS, code="bg")  # no few there
    table = list(pl.TEXTS)
    table[table.index("m.frames#2") + 1] = "FREJMY"  # a plural form without its %d
    assert check_table(tuple(table), code="pl") == [
        "m.frames#2: conversions [], not ['%d']"]
    table = list(bg.TEXTS)
    table[table.index("g.range") + 1] = "число"  # its %d lost
    assert check_table(tuple(table)) == ["g.range: conversions [], not ['%d']"]


def test_the_texts_come_from_the_table_in_use():
    assert lang.use("pl") == "pl"
    assert lang.t("s.ball_on") == "BILA ROZGRYWANA"
    assert lang.t("m.best_of") % 7 == "Z 7 FREJMÓW"
    assert lang.word("pink") == "różowa" and lang.upper_word("pink") == "RÓŻOWA"
    assert lang.use("bg") == "bg"
    assert lang.t("s.fouls") == "ФАУЛОВЕ"
    assert lang.use("xx") == "en" and lang.t("s.ball_on") == "BALL ON"
    assert lang.t("no.such.key") == "no.such.key"


def test_the_seeds_terms_are_used():
    """The terms of the rule books: the Polish seed's frejm, faul, wolna bila, brejk,
    oznajmienie (a claim), partia (a rack); the Bulgarian seed's гейм (a rack), фаул,
    разбиване (the break), обявен (a called match, 1.7), лимит на времето (the shot
    clock) that изтече at its limit, "time" never (the ten-second warning), and none of
    the words issue 26 found wrong: a claim is not "zakończ frejm", a visit not
    посещение, the break one word, the winner does not "печели с фаул", a rule изисква
    (not иска), the black is not "ЧЕРНАТА ОТНОВО"."""
    texts = " ".join(pl.TEXTS[1::2]).lower()
    for term in ("frejm", "faul", "wolna bila", "brejk", "oznajmienie", "partia"):
        assert term in texts, term
    for wrong in ("zakończ frejm", "uwaga:"):
        assert wrong not in texts, wrong
    texts = " ".join(bg.TEXTS[1::2]).lower()
    for term in ("гейм", "фаул", "разбиване", "обявен", "лимит на времето", "изтече"):
        assert term in texts, term
    # "time" is the warning ten seconds before the limit (1.11), which the panels do not
    # write: at the limit the time has run out and a foul is given (issue 33)
    assert "time" not in texts
    for wrong in ("начален удар", "посещение", "повикан", "печели с фаул", " иска ",
                  "черната отново", "пусни лимита"):
        assert wrong not in texts, wrong
    bg_table = dict(zip(bg.TEXTS[0::2], bg.TEXTS[1::2]))
    # без игра is a late start's, not every forfeit's
    assert sorted(k for k, v in bg_table.items() if "без игра" in v) == [
        "e.forfeit_late", "g.q.forfeit_late", "n.late", "s.late", "s.late_due", "w.late"]
    # the OLED's letters: С the break, СН the snookers needed
    assert bg_table["c.break"] == "С%d" and " СН%s" in bg_table["c.figures"]


@pytest.mark.parametrize("code", ["pl", "bg"])
def test_the_box_the_set_up_and_the_report_call_each_pool_game_alike(code):
    """One name per game in a language: the set-up's list (`st.game.N`) and the printed
    report (`g.GAME`). The Bulgarian panel once said ДЕВЯТКА and ДЕСЯТКА (the Russian
    words) where the report said деветка and десетка."""
    from host_tools.results.report_lang import TEXTS as REPORT
    from scoreboard.startmenu import GAMES

    box = dict(zip(TABLES[code][0::2], TABLES[code][1::2]))
    for n, game in enumerate(GAMES):
        if game in ("eightball", "nineball", "tenball"):
            name = REPORT[code]["g." + game]
            assert box["st.game.%d" % n] == name, game


def test_refusals_of_the_rules_core_are_translated():
    lang.use("pl")
    assert lang.refusal("ball on is pink, not red") == "bila rozgrywana: różowa, nie czerwona"
    assert lang.refusal("only 3 red(s) on the table") == "na stole tylko 3 czerwone"
    assert lang.refusal("only 5 red(s) on the table") == "na stole tylko 5 czerwonych"
    assert lang.refusal("only 1 red(s) on the table") == "na stole tylko 1 czerwona"
    assert lang.refusal("only 22 object balls on the table") == "na stole tylko 22 bile"
    assert lang.refusal("play is suspended: 'resume' first") == \
        "gra wstrzymana: najpierw 'wznów' (menu)"
    assert lang.refusal("a text the core never says") == "a text the core never says"
    lang.use("en")
    assert lang.refusal("ball on is pink, not red") == "ball on is pink, not red"


@pytest.mark.parametrize("code, said", [
    ("en", "rack 2 is over: start the next with 'frame'"),
    ("pl", "partia 2 zakończona: następną zaczyna ok"),
    ("bg", "гейм 2 свърши: следващият започва с ok")])
def test_a_refusal_for_pool_says_rack_where_the_core_says_frame(code, said):
    lang.use(code)
    core = "frame 2 is over: start the next with 'frame'"
    assert lang.refusal(core, "pool") == said
    assert lang.refusal(core, "snooker") == lang.refusal(core)
    assert ("frame" in lang.refusal(core)) == (code == "en")
    assert lang.refusal("ball on is pink, not red", "pool") == lang.refusal(
        "ball on is pink, not red")  # no rack form: the template's own


def test_every_core_template_is_one_the_core_raises():
    """Each `=` key is a ValueError text of the rules core (so none is dead)."""
    sources = ""
    for path in sorted((mpy.FIRMWARE / "scoreboard" / "core").rglob("*.py")):
        sources += path.read_text(encoding="utf-8")
    joined = re.sub(r'"\s*\n\s*"', "", sources)  # implicit concatenations
    for key in _keys(en.TEXTS):
        if key.startswith("=") and not key.endswith("|rack"):
            assert '"%s"' % key[1:] in joined, key


UPPER = """
import sys
sys.path[:0] = [%r, %r]
from scoreboard.lang import lower, upper
for lo, hi in ((0x20, 0x7f), (0xa0, 0x180), (0x384, 0x3cf), (0x400, 0x460)):
    print("".join(upper(chr(c)) for c in range(lo, hi)))
for lo, hi in ((0x20, 0x7f), (0xa0, 0x180), (0x384, 0x3cf), (0x400, 0x460)):
    print("L" + "".join(lower(chr(c)) for c in range(lo, hi)))
"""


def test_capitals_are_the_same_on_both_interpreters_and_as_unicode_has_them(tmp_path,
                                                                          micropython_bin):
    script = tmp_path / "upper.py"
    script.write_text(UPPER % (str(mpy.FIRMWARE), str(mpy.REPO / "host_tools" / "compat")),
                      encoding="utf-8")
    cp = subprocess.run([sys.executable, str(script)], capture_output=True, check=True,
                        text=True, encoding="utf-8").stdout
    rc, mp = mpy.run_micropython(script)
    assert rc == 0, mp
    assert mp == cp
    for line in cp.splitlines():
        if line.startswith("L"):  # small letters (issue 33: `z 7 frejmów`)
            for ch in line[1:]:
                assert ch == ch.lower() or len(ch.lower()) > 1, ch
            continue
        for ch in line:
            assert ch == ch.upper() or len(ch.upper()) > 1, ch


@pytest.mark.parametrize("code", ["en", "pl", "bg"])
def test_a_concession_and_a_retirement_are_told_apart_as_the_report_says_them(code):
    """`w.conceded` (a match result) and `w.retired` (a forfeit's reason) differ in every
    language, and the box's results words are the printed report's (`how.`)."""
    from host_tools.results.report_lang import TEXTS as REPORT

    box = dict(zip(TABLES[code][0::2], TABLES[code][1::2]))
    assert box["w.conceded"] != box["w.retired"]
    for how in ("conceded", "forfeited", "abandoned"):
        assert box["w." + how] == REPORT[code]["how." + how], how
