"""The key grammar's menus: the rarer words, as small trees built from the match's state.

A menu is `(title, items)`; an item is `(label, kind, data)`:
- `LINE`: choosing it gives the notation line `data`;
- `SUB`: it opens the menu `data` (a `(title, items)` pair);
- `NUMBER`: it starts a number entry (keys 1..15, see keymaps.NUMBERS) whose line is
  `data` + " N".
The grammar (`grammar.py`) walks them: `menu` moves down, a long `menu` up, `ok`
chooses, `undo` goes back a level. Only the words a game takes are offered; whether one
is allowed at that moment is the match's to say (a refused line is shown as a refusal).
"""

from micropython import const

from scoreboard.core.vocab import AWARD_WHY, FORFEIT_WHY, SIDES

LINE = const(0)
SUB = const(1)
NUMBER = const(2)

# Shot-clock profiles (RULES.md, seed 004 1.11): the `clock on` settings of each.
CLOCK_PROFILES = (
    ("wpa 35s", "shot=35 warn=10 ext=1x25 first=60"),
    ("pro 30s", "shot=30 warn=0 ext=1x30 beeps=5"),
    ("seed 45s", "shot=45 warn=10"),
)


def side_label(match, s):
    """`A Ann` (or `A Ann & Bea` for a doubles side)."""
    names = match.header.sides[s]
    return SIDES[s] + " " + " & ".join(names)


def _sides(match, title, make):
    """A menu choosing a side; `make(letter)` gives each side's item (kind, data)."""
    items = []
    for s in (0, 1):
        kind, data = make(SIDES[s])
        items.append((side_label(match, s), kind, data))
    return (title, items)


def _why(word, reasons):
    def make(letter):
        items = [(r, LINE, "%s %s %s" % (word, letter, r)) for r in reasons]
        return SUB, ("%s %s - why?" % (word.upper(), letter), items)
    return make


def award_menu(match):
    return _sides(match, "AWARD THE FRAME TO", _why("award", AWARD_WHY))


def forfeit_menu(match):
    return _sides(match, "FORFEIT: WHO LOSES?", _why("forfeit", FORFEIT_WHY))


def abandon_menu(match):
    items = [("no winner", LINE, "abandon")]
    for s in (0, 1):
        items.append(("winner " + side_label(match, s), LINE, "abandon " + SIDES[s]))
    return ("ABANDON THE MATCH", items)


def respot_menu(match):
    return _sides(match, "RESPOT: WHO PLAYS FIRST?",
                  lambda letter: (LINE, "respot " + letter))


def _snooker_penalty(letter):
    items = [(str(n), LINE, "penalty %s %d" % (letter, n)) for n in (4, 5, 6, 7)]
    return SUB, ("PENALTY %s - points?" % letter, items)


def _points_penalty(letter):
    return NUMBER, "penalty " + letter


def penalty_menu(match, family):
    """Snooker: 4 to 7 points to the other side; straight pool: a number taken off."""
    make = _snooker_penalty if family == "snooker" else _points_penalty
    return _sides(match, "PENALTY: WHO IS PENALISED?", make)


def rack_menu(match, letter):
    """Pool: a rack won with its details (`run`, nine-ball's `golden`)."""
    items = [("rack " + letter, LINE, "rack " + letter),
             ("break and run", LINE, "rack %s run" % letter)]
    if match.header.game == "nineball":
        items.append(("golden break", LINE, "rack %s golden" % letter))
        items.append(("golden, run", LINE, "rack %s run golden" % letter))
    return ("RACK " + letter, items)


def clock_menu(match):
    items = []
    if match.clock.enabled:
        items.append(("clock off", LINE, "clock off"))
    if match.header.clock:
        items.append(("as set up", LINE, "clock on " + " ".join(match.header.clock)))
    for label, keys in CLOCK_PROFILES:
        items.append((label, LINE, "clock on " + keys))
    return ("SHOT CLOCK", items)


def _common_tail(match, items):
    """What every state with a match in progress offers last."""
    items.append(("shot clock", SUB, clock_menu(match)))
    if match.suspended:
        items.insert(0, ("resume", LINE, "resume"))
    elif match.number:
        items.append(("suspend", LINE, "suspend"))
    items.append(("forfeit", SUB, forfeit_menu(match)))
    items.append(("abandon", SUB, abandon_menu(match)))


def start_menu(match):
    """Before the first frame: the late-start call, the clock, a forfeit or abandon."""
    items = [("called", LINE, "called")]
    _common_tail(match, items)
    return ("BEFORE THE FIRST FRAME", items)


def between_menu(match):
    items = [("next frame", LINE, "frame"), ("undo", LINE, "undo")]
    _common_tail(match, items)
    return ("BETWEEN FRAMES", items)


def play_menu(match, family, prompts):
    """The frame in play: the family's rare words first, then the common ones."""
    items = []
    if family == "snooker":
        if "respot" in prompts:
            items.append(("respot", SUB, respot_menu(match)))
        items.append(("claim", LINE, "claim"))
        items.append(("concede frame", LINE, "concede"))
        items.append(("award", SUB, award_menu(match)))
        items.append(("penalty", SUB, penalty_menu(match, family)))
        items.append(("restart", LINE, "restart"))
    elif family == "pool":
        items.append(("rack A details", SUB, rack_menu(match, "A")))
        items.append(("rack B details", SUB, rack_menu(match, "B")))
        items.append(("concede match", LINE, "concede"))
        items.append(("award", SUB, award_menu(match)))
        items.append(("restart", LINE, "restart"))
    else:
        items.append(("rerack 15", LINE, "rerack 15"))
        items.append(("foul break time", LINE, "foul break time"))
        items.append(("concede match", LINE, "concede"))
        items.append(("penalty", SUB, penalty_menu(match, family)))
        items.append(("award", SUB, award_menu(match)))
        items.append(("restart", LINE, "restart"))
    if match.clock.enabled:
        items.append(("extend", LINE, "extend"))
        items.append(("go", LINE, "go"))
        items.append(("hit", LINE, "hit"))
    if family != "snooker":
        items.append(("foul time", LINE, "foul time"))
    _common_tail(match, items)
    return ("MENU", items)


def lines(menu):
    """Every line a menu tree can give (its NUMBER items as `data N` with N = 1), for the
    tests that check every word of a game can be entered."""
    out = []
    for _, kind, data in menu[1]:
        if kind == LINE:
            out.append(data)
        elif kind == SUB:
            out.extend(lines(data))
        else:
            out.append(data + " 1")
    return out


class Walker:
    """A menu being walked: a stack of `[title, items, cursor]` levels."""

    def __init__(self, menu):
        self.stack = [[menu[0], menu[1], 0]]

    def top(self):
        return self.stack[-1]

    def move(self, step):
        level = self.stack[-1]
        n = len(level[1])
        level[2] = (level[2] + step) % n if n else 0

    def back(self):
        """Up one level; False when the menu is closed by it."""
        self.stack.pop()
        return bool(self.stack)

    def choose(self):
        """(kind, data) of the item under the cursor; a SUB is opened here."""
        level = self.stack[-1]
        if not level[1]:
            return None, None
        _, kind, data = level[1][level[2]]
        if kind == SUB:
            self.stack.append([data[0], data[1], 0])
        return kind, data
