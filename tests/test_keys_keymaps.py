"""Keymaps (firmware/scoreboard/keys/keymaps.py): the legends as data.

The snooker names are docs/design.md's, in a fixed set; every family has 16 distinct
one-word names, `undo menu ok` on the bottom row and `ok` last (the number entry ends
with it); number entry covers 1..15 on the other keys.
"""

import pytest
from scoreboard.keys import keymaps

SNOOKER = ("red yellow green brown blue pink black foul miss free again replace end undo "
           "menu ok").split()


def test_snooker_has_the_design_names():
    assert sorted(keymaps.keymap("snooker")) == sorted(SNOOKER)
    assert keymaps.keymap("snooker") == tuple(SNOOKER)


@pytest.mark.parametrize("family", ["snooker", "pool", "straight"])
def test_sixteen_distinct_one_word_names(family):
    names = keymaps.keymap(family)
    assert len(names) == 16
    assert len(set(names)) == 16
    for n in names:
        assert n.isalpha() and " " not in n
    assert names[13:] == ("undo", "menu", "ok")


def test_exactly_three_families():
    assert sorted(keymaps.KEYMAPS) == ["pool", "snooker", "straight"]
    with pytest.raises(ValueError):
        keymaps.keymap("darts")


@pytest.mark.parametrize("family", ["snooker", "pool", "straight"])
def test_number_entry_keys(family):
    got = sorted(keymaps.number(family, n) for n in keymaps.keymap(family))
    assert got == list(range(16))  # 0 for ok, 1..15 for the others
    for n in range(1, 16):
        assert keymaps.number(family, keymaps.number_key(family, n)) == n
    assert keymaps.number(family, "12") == 12
    assert keymaps.number(family, "ok") == 0
    with pytest.raises(ValueError):
        keymaps.number_key(family, 16)


def test_key_index_and_name_are_row_major():
    assert keymaps.key_index("snooker", "red") == 0
    assert keymaps.key_index("snooker", "foul") == 7  # row 1, col 3
    assert keymaps.key_index("snooker", "nothing") == -1
    assert keymaps.name_of("snooker", 15) == "ok"


@pytest.mark.parametrize("family", ["snooker", "pool", "straight"])
def test_legends_cover_every_key(family):
    from host_tools.gen import keylegends as legends

    rows = legends.legend(family)
    assert len(rows) == 16
    for label, short, long in rows:
        # a word a line, at most two (`BREAK FOUL`: host_tools/gen/legends.py)
        assert label and label == label.upper() and len(label.split(" ")) <= 2
        assert all(len(word) <= 8 for word in label.split(" ")), label
        assert short
        assert isinstance(long, str)


@pytest.mark.parametrize("family", ["snooker", "pool", "straight"])
def test_keypad_md_holds_the_tables_of_the_data(repo_root, family):
    from host_tools.gen import keylegends as legends

    text = (repo_root / "hardware" / "keypad.md").read_text(encoding="utf-8")
    assert legends.markdown(family) in text
    for name in keymaps.keymap(family):
        assert "`%s`" % name in text


def test_the_grammar_does_not_load_the_legend_texts():
    import ast
    from pathlib import Path

    keys_dir = Path(keymaps.__file__).parent
    for module in ("grammar", "snooker", "pool", "straight", "menus", "keymaps", "debounce"):
        tree = ast.parse((keys_dir / (module + ".py")).read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                assert "legends" not in [a.name for a in node.names], module
                assert node.module != "legends", module


def test_only_pool_and_straight_legends_print_numbers():
    assert not keymaps.numbered("snooker")
    assert keymaps.numbered("pool") and keymaps.numbered("straight")
