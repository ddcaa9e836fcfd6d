"""One Result shape for every key owner (keys/result.py): the grammar, the game
families' keys (which answer the grammar, never call it back) and the start menu."""

import ast

from scoreboard.keys import result
from scoreboard.keys.grammar import Grammar
from scoreboard.startmenu import StartMenu

from support import mpy
from support.keys import NINEBALL, SNOOKER, STRAIGHT, Desk

KEYS = mpy.FIRMWARE / "scoreboard" / "keys"


class _EmptyQueue:
    """scoreboard.files.Queue with nothing queued."""

    def names(self):
        return iter(())


def _fields(r):
    return set(vars(r))


def test_the_grammar_and_every_family_answer_with_one_result():
    shape = _fields(result.Result())
    for header, keys in ((SNOOKER, "red foul pink ok"), (NINEBALL, "pot 9 ok foul"),
                         (STRAIGHT, "ball score 3 foul")):
        d = Desk(header, ["frame A"])
        for k in keys.split():
            r = d.press(k)
            assert isinstance(r, result.Result) and _fields(r) == shape, (header, k)


def test_the_start_menu_answers_with_the_same_result():
    menu = StartMenu(_EmptyQueue())
    volume = menu.press("menu", True)
    assert isinstance(volume, result.Result) and volume.setting == "volume"
    nothing_queued = menu.press("ok", False)
    assert nothing_queued.refusal and nothing_queued.header is None
    menu.setting_up = True
    menu.field = len(menu.fields()) - 1
    start = menu.press("ok", False)
    assert (start.line, start.breaker, start.queued) == ("frame A", "A", None)
    assert start.header[1] == "game snooker reds=15" and start.refusal is None
    assert _fields(start) == _fields(result.Result())


def test_the_families_never_call_the_grammar_back():
    for name in ("snooker.py", "pool.py", "straight.py"):
        tree = ast.parse((KEYS / name).read_text(encoding="utf-8"))
        imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
                    for a in n.names}
        assert "grammar" not in imported and "Grammar" not in imported, name
        attrs = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
        assert not attrs & {"g", "done", "shown", "walk", "start_number", "open_menu",
                            "open_entry"}, (name, attrs & {"g", "done", "shown"})
    assert Grammar  # the one that acts on their answers
