# ruff: noqa: RUF001  (Cyrillic letters look like Latin ones: they are the language)
"""No refusal half in English (issue 33): every refusal of the rules core comes out in
the language in use, whole, in every table. `lang.refusal()` matches the core's English
text against the table's templates, and the most specific one must win: a `%s` that
swallowed the core's own words (`ball on is %s, not %s` taking `a colour`, `%s is not
on the table` taking `ball 5`) left them English on a Polish or Bulgarian panel
(`NIE: bila rozgrywana: a colour, nie czerwona`).

A word is English here when the English table uses it and the language's own table
never does (`colour`, `ball`, `not`); the Polish table's own `push out`, `ok` and
`menu` are the club's words. Bulgarian is in Cyrillic: any Latin word but the few the
table itself writes (`ok`, `WPA`, the host command) is a leak.
"""

import re

import pytest

from scoreboard import lang
from scoreboard.lang import bg, en, pl

TABLES = {"en": en.TEXTS, "pl": pl.TEXTS, "bg": bg.TEXTS}
TEMPLATES = [k for k in en.TEXTS[0::2] if k.startswith("=") and "|" not in k]


@pytest.fixture(autouse=True)
def english_after():
    yield
    lang.use("en")


def _words(text):
    return {w.lower() for w in re.findall(r"[^\W\d_]{2,}", text)}


def _vocabulary(code):
    words = set()
    for text in TABLES[code][1::2]:
        words |= _words(text)
    return words


ENGLISH = _vocabulary("en")


def english_words(text, code):
    """The words of `text` that are English and not the language's own: [] when none."""
    own = _vocabulary(code)
    found = sorted(w for w in _words(text) if w in ENGLISH and w not in own)
    if code == "bg":  # Cyrillic: a Latin word the table never writes is a leak too
        found += sorted(w for w in _words(text) if re.fullmatch(r"[a-z]+", w)
                        and w not in own and w not in found)
    return found


def _filled(template, value):
    """The core's text of `template` with its slots filled: numbers 3, words `value`."""
    out = template
    for conv in re.findall(r"%[sd]", template):
        out = out.replace(conv, "3" if conv == "%d" else value, 1)
    return out


def _table(code):
    t = TABLES[code]
    return dict(zip(t[0::2], t[1::2]))


def test_the_leak_the_review_found_is_what_this_test_sees():
    """The check itself: the half-English refusal of before is one it fails on."""
    assert english_words("bila rozgrywana: a colour, nie czerwona", "pl") == ["colour"]
    assert english_words("на ред е a colour, не червена", "bg") == ["colour"]
    assert english_words("bila rozgrywana: kolorowa, nie czerwona", "pl") == []
    assert english_words("топка 5 не е на масата: ok", "bg") == []


@pytest.mark.parametrize("code", ["pl", "bg"])
@pytest.mark.parametrize("template", TEMPLATES)
def test_every_core_refusal_comes_out_whole_in_the_language(code, template):
    lang.use(code)
    table = _table(code)
    for value in ("pink", "red", "again"):
        core = _filled(template[1:], value)
        for family in (None, "snooker", "pool", "straight"):
            said = lang.refusal(core, family)
            assert english_words(said, code) == [], (core, said)
        # the template's own translation, not a more general one's
        said = lang.refusal(core)
        want = table[template]
        args = [lang.word(value) if c == "%s" else "3" for c in re.findall(r"%[sd]", template)]
        if "#" not in "".join(k for k in table if k.startswith(template + "#")):
            assert said == want.replace("%d", "%s") % tuple(args), (core, said)


@pytest.mark.parametrize("core, code, said", [
    ("ball on is a colour, not red", "pl", "bila rozgrywana: kolorowa, nie czerwona"),
    ("ball on is a colour, not red", "bg", "на ред е цветна, не червена"),
    ("ball 5 is not on the table", "pl", "bili 5 nie ma na stole"),
    ("ball 5 is not on the table", "bg", "топка 5 не е на масата"),
    ("ball on is red, not pink", "pl", "bila rozgrywana: czerwona, nie różowa"),
])
def test_a_specific_template_wins_over_a_general_one(core, code, said):
    lang.use(code)
    assert lang.refusal(core) == said


@pytest.mark.parametrize("code", ["pl", "bg"])
def test_no_text_of_the_table_is_left_in_english(code):
    """Every text of the table (refusals, prompts, words) in the language: the room's
    pages (`v.`) too."""
    found = [(k, v, english_words(v, code)) for k, v in _table(code).items()
             if english_words(v, code)]
    assert found == []


def test_english_says_the_cores_words_unless_its_table_words_them_otherwise():
    lang.use("en")
    assert lang.refusal("ball on is pink, not red") == "ball on is pink, not red"
    table = _table("en")
    for template in TEMPLATES:
        core = _filled(template[1:], "pink")
        want = table[template] if table[template] != template[1:] else core
        if "%" not in want:
            assert lang.refusal(core) == want, template


@pytest.mark.parametrize("code", ["en", "pl", "bg"])
def test_a_refusals_translation_takes_its_arguments_as_words(code):
    """The core's arguments arrive as strings: a `%d` in a translation would raise (the
    Polish `%s zaczyna frejm %d` did, on the panel, for a frame broken out of turn)."""
    table = _table(code)
    wrong = [k for k, v in table.items() if k.startswith("=") and "%d" in v and v != k[1:]]
    assert wrong == []
