"""Counts in each language's plural (issue 26 item 8): Polish one / few / many (1 frejm,
2-4 frejmy, 5-21 frejmów, 22-24 frejmy, 25 frejmów, 101 frejmów, 112 frejmów),
Bulgarian and English one / other; the helper is pure, the same on MicroPython, and
picks the forms `KEY#1` / `KEY#2` beside a key without building a string."""

import subprocess
import sys

import pytest

from support import mpy

from scoreboard import lang

COUNTS = (0, 1, 2, 4, 5, 11, 12, 14, 21, 22, 25, 101, 112)

# The rule books' words at those counts, written out by hand from the grammars (not
# computed): Polish frejm / punkt / czerwona, Bulgarian фрейм / точка / червена.
PL_FRAMES = ("0 FREJMÓW", "1 FREJM", "2 FREJMY", "4 FREJMY", "5 FREJMÓW", "11 FREJMÓW",
             "12 FREJMÓW", "14 FREJMÓW", "21 FREJMÓW", "22 FREJMY", "25 FREJMÓW",
             "101 FREJMÓW", "112 FREJMÓW")
PL_POINTS = ("0 PUNKTÓW", "1 PUNKT", "2 PUNKTY", "4 PUNKTY", "5 PUNKTÓW", "11 PUNKTÓW",
             "12 PUNKTÓW", "14 PUNKTÓW", "21 PUNKTÓW", "22 PUNKTY", "25 PUNKTÓW",
             "101 PUNKTÓW", "112 PUNKTÓW")
PL_REDS = ("0 czerwonych", "1 czerwona", "2 czerwone", "4 czerwone", "5 czerwonych",
           "11 czerwonych", "12 czerwonych", "14 czerwonych", "21 czerwonych",
           "22 czerwone", "25 czerwonych", "101 czerwonych", "112 czerwonych")
BG_FRAMES = tuple("%d ФРЕЙМ" % n if n == 1 else "%d ФРЕЙМА" % n for n in COUNTS)
BG_POINTS = tuple("%d ТОЧКА" % n if n == 1 else "%d ТОЧКИ" % n for n in COUNTS)
EN_POINTS = tuple("%d POINT" % n if n == 1 else "%d POINTS" % n for n in COUNTS)


@pytest.fixture(autouse=True)
def english_after():
    yield
    lang.use("en")


def test_the_plural_forms_by_each_languages_rule():
    assert [lang.plural(n, "pl") for n in COUNTS] == [2, 0, 1, 1, 2, 2, 2, 2, 2, 1, 2, 2, 2]
    for code in ("en", "bg"):
        assert [lang.plural(n, code) for n in COUNTS] == [2, 0] + [2] * 11
    # Polish few is the last digit 2-4, except the teens: 112-114 many, 122 few
    assert [lang.plural(n, "pl") for n in (112, 113, 114, 122, 132, 1004, 1012)] == [
        2, 2, 2, 1, 1, 1, 2]
    lang.use("pl")
    assert lang.plural(3) == 1  # the language in use by default


@pytest.mark.parametrize("code, key, want", [
    ("pl", "m.frames", PL_FRAMES), ("pl", "m.points", PL_POINTS),
    ("bg", "m.frames", BG_FRAMES), ("bg", "m.points", BG_POINTS),
    ("en", "m.points", EN_POINTS)])
def test_counts_on_the_screens_take_their_plural(code, key, want):
    lang.use(code)
    assert tuple(lang.tn(key, n) % n for n in COUNTS) == want


def test_reds_left_and_the_cores_refusal_say_the_same():
    lang.use("pl")
    said = [lang.tn("k.only_reds", n) % n for n in COUNTS]
    assert said == ["na stole tylko " + w for w in PL_REDS]
    assert [lang.refusal("only %d red(s) on the table" % n) for n in COUNTS] == said
    lang.use("bg")
    assert lang.tn("k.only_reds", 1) % 1 == "на масата има само 1 червена"
    assert lang.tn("k.only_reds", 4) % 4 == "на масата има само 4 червени"


def test_a_key_without_forms_says_its_one_form_and_an_unknown_key_itself():
    lang.use("pl")
    assert lang.tn("s.ball_on", 3) == lang.t("s.ball_on")
    assert lang.tn("no.such.key", 1) == "no.such.key"
    lang.use("en")
    assert lang.tn("m.best_of", 1) % 1 == "BEST OF 1"


PLURALS = """
import sys
sys.path[:0] = [%r, %r]
from scoreboard import lang
for code in ("en", "pl", "bg"):
    lang.use(code)
    print(code, [lang.plural(n) for n in %r])
    print("|".join(lang.tn(k, n) %% n for k in ("m.frames", "m.points", "k.only_reds")
                   for n in %r))
    print(lang.refusal("only 22 red(s) on the table"))
"""


def test_the_same_on_micropython(tmp_path, micropython_bin):
    script = tmp_path / "plurals.py"
    script.write_text(PLURALS % (str(mpy.FIRMWARE), str(mpy.REPO / "host_tools" / "compat"),
                                 COUNTS, COUNTS), encoding="utf-8")
    cp = subprocess.run([sys.executable, str(script)], capture_output=True, check=True,
                        text=True, encoding="utf-8").stdout
    rc, mp = mpy.run_micropython(script)
    assert rc == 0, mp
    assert mp == cp
    assert "22 FREJMY|" in cp and "na stole tylko 22 czerwone" in cp
