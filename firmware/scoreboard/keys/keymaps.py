"""Keypad legends per game family: which key name sits on which of the 16 keys.

Data only. `KEYMAPS[family]` is a tuple of 16 one-word names, row-major: index
`row * 4 + col`, row 0 the top row of the keypad, col 0 the left column, the same
numbering as `board.keys()` bits. The names are the contract shared by the key grammar
(`grammar.py`), the simulator's buttons, the printed legends (drawn from this table)
and key scripts; `hardware/keypad.md` says what each key does, short and long.

Number entry (pool `pot`, straight pool `score` and penalties): while the grammar asks
for a number, the first 15 keys stand for 1..15 in reading order (`NUMBERS`), printed
small in a corner of each key on the pool and straight-pool legends (`numbered`); `ok`
(always the last key) ends the entry. `number(family, name)` and `number_key(family,
n)` translate. Snooker has no number entry.

The snooker names are docs/design.md's: red yellow green brown blue pink black foul miss
free again replace end undo menu ok. Every family keeps `undo menu ok` on the bottom
row, `ok` bottom right.
"""

KEYMAPS = {
    "snooker": (
        "red", "yellow", "green", "brown",
        "blue", "pink", "black", "foul",
        "miss", "free", "again", "replace",
        "end", "undo", "menu", "ok",
    ),
    # eightball, nineball, tenball (a game's family: scoreboard.core.vocab.family)
    "pool": (
        "rackA", "rackB", "pot", "foul",
        "end", "push", "pass", "warn",
        "go", "hit", "extend", "side",
        "concede", "undo", "menu", "ok",
    ),
    "straight": (
        "ball", "score", "foul", "end",
        "again", "break", "rerack", "warn",
        "go", "hit", "extend", "side",
        "concede", "undo", "menu", "ok",
    ),
}

# The number each key stands for during a number entry (0: none, on `ok`).
NUMBERS = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0)

ROWS = 4
COLS = 4
NUMBERED = ("pool", "straight")  # the legends that print the numbers


def side_key(family):
    """The key that switches who breaks off before the first frame (the start screen,
    the set-up, a match waiting for its first frame): snooker's `end`, the pool
    legends' `side` (their `end` ends a visit)."""
    return "end" if family == "snooker" else "side"


def numbered(family):
    """True when the family's legend prints the small numbers of the number entry."""
    return family in NUMBERED


def keymap(family):
    """The 16 key names of a game family ('snooker', 'pool', 'straight')."""
    try:
        return KEYMAPS[family]
    except KeyError:
        raise ValueError("no keymap for '%s'" % family) from None


def key_index(family, name):
    """The key (0..15) carrying `name`, or -1."""
    names = keymap(family)
    for i in range(len(names)):
        if names[i] == name:
            return i
    return -1


def name_of(family, key):
    """The name of key `key` (0..15), as a debouncer event's key number."""
    return keymap(family)[key]


def number(family, name):
    """The number (1..15) that key `name` stands for in a number entry, else 0. A name
    that is itself a decimal number (from a key script or the simulator) is that number."""
    if name and "0" <= name[0] <= "9" and name.isdigit():
        return int(name)
    i = key_index(family, name)
    return NUMBERS[i] if i >= 0 else 0


def number_key(family, n):
    """The name of the key that stands for `n` (1..15) in a number entry."""
    for i in range(len(NUMBERS)):
        if NUMBERS[i] == n and n:
            return keymap(family)[i]
    raise ValueError("no key for %d" % n)
