"""A referee's desk for the key tests: a Match, its Grammar, and the app's part of the
contract (parse the line, apply it, keep it; a ValueError is a refusal).

Keys are given as names; `name!` is a long press. `Desk.choose(*labels)` walks the menu
to the items with those labels (pressing `menu` and `ok` as a referee would).
"""

from scoreboard.core.notation import parse_event
from scoreboard.core.replay import replay
from scoreboard.keys.grammar import Grammar

NAMES = ('side A "Ann"', 'side B "Bob"')


def header(game="snooker reds=15", match="best-of 3", *more):
    return ["sbn 1", "game " + game, "match " + match, *NAMES, *more]


SNOOKER = header()
SNOOKER6 = header("snooker reds=6")
NINEBALL = header("nineball", "race-to 3")
EIGHTBALL = header("eightball", "race-to 3")
TENBALL = header("tenball", "race-to 3")
STRAIGHT = header("straight", "points 20")


class Desk:
    def __init__(self, head, lines=()):
        self.header = list(head)
        self.match = replay(self.header + list(lines))
        self.grammar = Grammar(self.match)
        self.lines = list(lines)  # every line applied, setup lines included
        self.refusals = []  # (key, reason)
        self.keys = []  # every key pressed

    def press(self, key):
        """One key, as the app handles it; returns the grammar's Result."""
        self.keys.append(key)
        long = key.endswith("!")
        r = self.grammar.press(key[:-1] if long else key, long)
        if r.refusal is not None:
            assert r.line is None
            self.refusals.append((key, r.refusal))
            return r
        if r.line is not None:
            try:
                self.match.apply(parse_event(self.match.family, r.line))
            except ValueError as e:
                self.refusals.append((key, str(e)))
                return r
            self.lines.append(r.line)
        return r

    def play(self, keys, strict=True):
        """Press the keys (a space-separated string); the lines they produced."""
        before = len(self.lines)
        for k in keys.split():
            self.press(k)
        if strict:
            assert not self.refusals, self.refusals
        return self.lines[before:]

    def choose(self, *labels):
        """Open the menu (unless open) and choose each label in turn; the last Result."""
        g = self.grammar
        if g.menu_title is None:
            self.press("menu")
            assert g.menu_title is not None, self.refusals
        r = None
        for label in labels:
            items = g.menu_items
            assert label in items, (label, items)
            for _ in range(len(items)):
                if items[g.menu_cursor] == label:
                    break
                self.press("menu")
            r = self.press("ok")
        assert not self.refusals, self.refusals
        return r

    def replayed(self):
        """The Match that the header and the lines produced replay to."""
        return replay(self.header + self.lines)

    def view(self):
        return self.match.view()


def field(view, name, index):
    """A field of Match.view() (named object or the older tuple)."""
    if isinstance(view, tuple):
        return view[index]
    return getattr(view, name)
