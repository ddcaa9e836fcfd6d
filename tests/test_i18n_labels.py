"""The keys by their labels (issue 26 item 4): each language table has the label of
every key of every legend (`l.NAME`), a legend prints no label twice, and every prompt
of a language names a key as that language's legend prints it: no English key name in
a Polish or Bulgarian prompt (`gra, again czy wolna bila?`, `игра, again или free?`),
every `KEY:what` of a hint line a key the legend has, no two keys of a hint doing the
same word (`menu:zmień ... end:zmień`)."""

import re

import pytest

from scoreboard import lang
from scoreboard.keys import keymaps
from scoreboard.lang import bg, en, pl

TABLES = {"en": en.TEXTS, "pl": pl.TEXTS, "bg": bg.TEXTS}
NAMES = sorted({n for family in keymaps.KEYMAPS.values() for n in family})


# Words of the language itself spelled as a key's name: Polish `go` (him, it).
OWN_WORDS = {"pl": {"go"}}


def _texts(code):
    return dict(zip(TABLES[code][0::2], TABLES[code][1::2]))


def _prompts(code):
    """The texts a person reads that may name a key: all but the labels themselves
    and the notation's words as the screens show them."""
    return {k: v for k, v in _texts(code).items() if not k.startswith(("l.", "w."))}


@pytest.fixture(autouse=True)
def english_after():
    yield
    lang.use("en")


@pytest.mark.parametrize("code", lang.LANGS)
def test_every_key_has_its_label_and_a_legend_prints_none_twice(code):
    texts = _texts(code)
    for name in NAMES:
        assert texts.get("l." + name), (code, name)
    assert sorted(k[2:] for k in texts if k.startswith("l.")) == sorted(NAMES)
    for family, names in keymaps.KEYMAPS.items():
        printed = [texts["l." + n] for n in names]
        assert len(set(printed)) == len(printed), (code, family, printed)
    if code == "en":  # the English legend prints the names (rackA, rackB: who wins;
        # straight pool's `break`: the opening-break foul, issue 33)
        assert all(texts["l." + n] == n for n in NAMES
                   if not n.startswith("rack") and n != "break")
        assert texts["l.break"] == "break foul"


@pytest.mark.parametrize("code", ["pl", "bg"])
def test_no_english_key_name_in_a_prompt(code):
    """A key whose label differs from its English name is never named in English."""
    texts = _texts(code)
    english = {n.lower() for n in NAMES if texts["l." + n] != n} - OWN_WORDS.get(code, set())
    found = []
    for key, text in _prompts(code).items():
        for word in re.findall(r"[A-Za-z]+", text):
            if word.lower() in english:
                found.append((key, word, text))
    assert found == []


def _hint_pairs(text):
    """The `KEY:what` pairs of a hint line (a bracket's `held: previous` is a word of
    the key before it, not a key)."""
    return re.findall(r"(\S+?):\s?([^\s(]+)", re.sub(r"\([^)]*\)", "", text))


@pytest.mark.parametrize("code", lang.LANGS)
def test_a_hint_names_keys_the_legend_has_each_doing_its_own_word(code):
    texts = _texts(code)
    labels = {texts["l." + n] for n in NAMES} | {"%s"}
    hints = [k for k in texts if k.endswith(("_hint", "_hint_rack")) or k == "g.start"]
    assert len(hints) >= 8
    for key in hints:
        pairs = _hint_pairs(texts[key])
        assert pairs, (key, texts[key])
        for who, _ in pairs:
            assert who in labels, (code, key, who, texts[key])
        whats = [what for _, what in pairs]
        assert len(set(whats)) == len(whats), (code, key, texts[key])


def test_the_prompts_after_a_foul_name_the_keys_as_printed():
    lang.use("pl")
    assert lang.t("k.after_foul") % "A" == "A: gra dalej, ponownie czy wolna bila?"
    assert "ponownie" == lang.label("again") and "wolna" == lang.label("free")
    lang.use("bg")
    assert lang.t("k.after_foul") % "A" == \
        "A: играе, нарушителят отново или свободна топка?"
    assert lang.label("undo") == "назад" and lang.label("nothing") == "nothing"
