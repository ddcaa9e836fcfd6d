"""No English hard-coded on the box (issue 26 item 5): every text a person reads on the
screens comes from the language tables (firmware/scoreboard/lang/), so a `lang pl`
match shows no English word from its first screen on. This test reads every string
literal of `ui/`, `keys/` and `startmenu.py` and fails on one that is a text for a
person: what is left once the table keys (the first argument of `t`, `tn`, `label`,
`word`), docstrings, the notation's words and lines (`pot red`, `frame A`, `best-of 3`:
the contract, English in every language), one-word names (a screen's kind, a mode, an
attribute) and number-only formats (`%d:%02d`) are set aside. The few English texts
that no referee ever sees are listed below, each with its reason."""

import ast
import re

from support import mpy

from scoreboard.keys import keymaps

BOX = mpy.FIRMWARE / "scoreboard"
LOOKUPS = {"t", "tn", "label", "word", "upper_word"}

# Literal texts a person never reads, with the reason; anything else is a finding.
ALLOWED = {
    # the key grammar's modes and the menus' kinds: names compared in the code
    "IDLE": "a grammar mode", "ENTRY": "a grammar mode", "NUMBER": "a grammar mode",
    "MENU": "a grammar mode", "CONFIRM": "a grammar mode",
    "Grammar": "grammar.__all__", "Result": "grammar.__all__",
    "WHO_CHARS": "grammar.__all__",
    "MATCH": "which concede menu (menus.concede_menu)",
    "FRAME": "which concede menu (menus.concede_menu)",
    "AB": "the sides' letters, looped over",
    # a programmer's errors, raised for bad arguments, never a referee's screen
    "times and size must be positive": "debounce.Debouncer's arguments",
    "1 to 30 keys": "debounce.Debouncer's arguments",
    "no key for %d": "keymaps.number_key's argument",
    "no keymap for '%s'": "keymaps.keymap's argument, a game the core refused already",
    "Result(line=%r, refusal=%r, entry=%r)": "Result's repr, for a test's message",
}


def _notation():
    """The notation's words (English in every language: docs/notation.md): the rules
    core's vocabulary (core/vocab.py), the key names, the header's words."""
    words = {"sbn", "game", "match", "side", "clock", "on", "off", "reds", "best", "of",
             "race", "to", "points", "frames", "by", "shot", "run", "golden", "rack",
             "respot", "time", "break", "foul", "miss", "score", "rerack", "seed", "wpa",
             "pro", "ext", "first", "warn", "beeps", "pot", "free", "frame", "penalty",
             "A", "B", "restart"}
    tree = ast.parse((BOX / "core" / "vocab.py").read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Tuple):  # its tables of words, not its docstrings
            for item in ast.walk(node):
                if isinstance(item, ast.Constant) and isinstance(item.value, str):
                    words.update(re.findall(r"[A-Za-z]+", item.value))
    for names in keymaps.KEYMAPS.values():
        words.update(names)
    return words


def _sources():
    paths = sorted((BOX / "ui").glob("*.py")) + sorted((BOX / "keys").glob("*.py"))
    return [*paths, BOX / "startmenu.py"]


def _literals(path):
    """(line, text) of every string literal of a module but its docstrings and the
    keys it looks up in the tables."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                skip.add(id(first.value))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id in LOOKUPS and node.args:
            skip.update(id(sub) for sub in ast.walk(node.args[0]))
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and id(node) not in skip]


def person_text(text, notation):
    """Whether `text` is a text a person reads (True), not a name or the notation's."""
    if text in ALLOWED:
        return False
    bare = re.sub(r"%[-0-9.]*[a-z%]", " ", text)
    words = re.findall(r"[A-Za-z]+", bare)
    if not any(len(w) > 1 for w in words):
        return False  # punctuation, numbers, formats of numbers
    if re.fullmatch(r"[a-z]+(\.[a-z0-9_]+)+(#\d)?", text):
        return False  # a table key, chosen in the code (`"e.rack_over" if ...`)
    if re.fullmatch(r"_?[a-z][a-z0-9_-]*\s?", text):
        return False  # one lowercase name: a kind, a mode, an attribute, a word
    return not all(w in notation for w in words)


def test_the_check_finds_texts_and_passes_names():
    notation = _notation()
    for text in ("Match", 'side A "Player A"', "Player %s", "FRAMES", "no prepared matches",
                 "%d FRAMES", "Shot clock"):
        assert person_text(text, notation), text
    for text in ("pot red", "frame ", "best-of 3", "race-to 5", "%d:%02d", "match_end",
                 "s.frame_n", "clock on ", "rack %s run golden", "IDLE", " - ", "AB"):
        assert not person_text(text, notation), text


def test_no_english_text_is_hard_coded_on_the_box():
    notation = _notation()
    found = []
    for path in _sources():
        for line, text in _literals(path):
            if person_text(text, notation):
                found.append("%s:%d: %r" % (path.relative_to(BOX), line, text))
    assert found == [], "texts outside the language tables:\n" + "\n".join(found)
