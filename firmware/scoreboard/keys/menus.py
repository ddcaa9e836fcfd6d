"""The key grammar's menus: the rarer words, as small trees built from the match's state.

A menu is `(title, items)`, or `(title, items, cursor)` to open on the item `cursor`;
an item is `(label, kind, data)`:
- `LINE`: choosing it gives the notation line `data` (a decision that ends a frame or
  the match is asked once first: the grammar's confirmation);
- `SUB`: it opens the menu `data`;
- `NUMBER`: it starts a number entry (keys 1..15, see keymaps.NUMBERS) whose line is
  `data` + " N";
- `STRIKER`: `data` is `(line, side)`: the line of a word only the striker may say
  (`concede`), chosen for `side` (0: A, 1: B); the grammar refuses it, with the reason,
  for the side not at the table;
- `OWN`: the menu's owner acts on `data` itself (the start screen's set-up).
The grammar (`grammar.py`) walks them: `menu` moves down, a long `menu` up, `ok`
chooses, `undo` goes back a level. Only the words a game takes are offered; whether one
is allowed at that moment is the match's to say (a refused line is shown as a refusal).
Some items appear only in some states: `called` until the match is called, then in
its place the late start's forfeit (who is late: the question); `respot` with a tie on
the last black, `resume` (first) while play is suspended and `suspend` otherwise once a
frame has been played,
`clock off` with a clock on, `as set up` when the header has a clock, `extend`, `go`
and `hit` with a clock on.

Here: the trees every game shares (before the first frame, between frames, a side's
award, forfeit, abandon, respot, who concedes, the shot clock with clocksettings'
profiles) and
`play_menu(match, first, last)`, the frame in play, which each family's module
(`snooker.py`, `pool.py`, `straight.py`) fills with its own words.
"""

from micropython import const

from scoreboard.core import clocksettings
from scoreboard.core.vocab import AWARD_WHY, FORFEIT_WHY, SIDES
from scoreboard.lang import t, word

LINE = const(0)
SUB = const(1)
NUMBER = const(2)
STRIKER = const(3)
OWN = const(4)

# The shot-clock profiles the clock menu offers, in its order (core/clocksettings.py's
# one table; the settings of each are clocksettings.profile's, seed 004 1.11).
CLOCK_MENU_PROFILES = clocksettings.MENU_ORDER


def side_label(match, s):
    """`A Ann` (or `A Ann & Bea` for a doubles side)."""
    names = match.header.sides[s]
    return SIDES[s] + " " + " & ".join(names)


def sides_menu(match, title, make):
    """A menu choosing a side; `make(letter)` gives each side's item (kind, data)."""
    items = []
    for s in (0, 1):
        kind, data = make(SIDES[s])
        items.append((side_label(match, s), kind, data))
    return (title, items)


def _why(verb, reasons):
    def make(letter):
        items = [(word(r), LINE, "%s %s %s" % (verb, letter, r)) for r in reasons]
        return SUB, (t("n.%s_why" % verb) % letter, items)
    return make


def award_menu(match):
    unit = "" if match.family == "snooker" else ("_rack" if match.family == "pool" else "_game")
    return sides_menu(match, t("n.award_to" + unit), _why("award", AWARD_WHY))


def forfeit_menu(match):
    return sides_menu(match, t("n.forfeit_who"), _why("forfeit", FORFEIT_WHY))


def abandon_menu(match):
    items = [(t("n.no_winner"), LINE, "abandon")]
    for s in (0, 1):
        items.append((t("n.winner") % side_label(match, s), LINE, "abandon " + SIDES[s]))
    return (t("n.abandon_title"), items)


def concede_menu(match, what, striker):
    """Who concedes (`what`: FRAME or MATCH): both sides offered, the cursor on the
    striker, so a concession by the other side is refused with its reason, never
    given to the side at the table."""
    items = [(side_label(match, s), STRIKER, ("concede", s)) for s in (0, 1)]
    return (t("n.concede_frame" if what == "FRAME" else "n.concede_match"), items, striker)


def respot_menu(match):
    return sides_menu(match, t("n.respot"),
                      lambda letter: (LINE, "respot " + letter))


def clock_menu(match):
    items = []
    if match.clock.enabled:
        items.append((t("n.clock_off"), LINE, "clock off"))
    if match.header.clock:
        items.append((t("n.as_set_up"), LINE, "clock on " + " ".join(match.header.clock)))
    for name in CLOCK_MENU_PROFILES:
        label = t("n.profile") % (t("st.clock." + name), clocksettings.profile(name).shot)
        items.append((label, LINE, "clock on " + clocksettings.profile_words(name)))
    return (t("n.shot_clock_title"), items)


def _common_tail(match, items):
    """What every state with a match in progress offers last."""
    items.append((t("n.shot_clock"), SUB, clock_menu(match)))
    if match.suspended:
        items.insert(0, (t("n.resume"), LINE, "resume"))
    elif match.number:
        items.append((t("n.suspend"), LINE, "suspend"))
    items.append((t("n.forfeit"), SUB, forfeit_menu(match)))
    items.append((t("n.abandon"), SUB, abandon_menu(match)))


def late_menu(match):
    """The late start's forfeit: who is late (the question follows)."""
    return sides_menu(match, t("n.late_who"), lambda letter: (LINE, "forfeit %s late" % letter))


def start_menu(match):
    """Before the first frame: the match's call (the late start runs from it, seed 004
    1.7), or once it is called, in its place, the forfeit of the side that is late (the
    score screen asks for it when the start is due: `menu ok`, the side, `ok`), then
    the clock, a forfeit or abandon (each where it was: the same keys reach them)."""
    items = []  # type: list
    if match.time.late.active:
        items.append((t("n.late"), SUB, late_menu(match)))
    else:
        items.append((t("n.called"), LINE, "called"))
    _common_tail(match, items)
    return (t("n.before" if match.family == "snooker" else "n.before_rack"), items)


def between_menu(match):
    snooker = match.family == "snooker"
    items = [(t("n.next_frame" if snooker else "n.next_rack"), LINE, "frame"),
             (t("n.undo"), LINE, "undo")]
    _common_tail(match, items)
    return (t("n.between" if snooker else "n.between_rack"), items)


def play_menu(match, first, last=()):
    """The frame in play: the family's rare words (`first`, a new list, extended here),
    the clock's words when the clock is on, the family's `last`, then what every state
    in play offers."""
    items = first
    if match.clock.enabled:
        items.append((t("n.extend"), LINE, "extend"))
        items.append((t("n.go"), LINE, "go"))
        items.append((t("n.hit"), LINE, "hit"))
    items.extend(last)
    _common_tail(match, items)
    return (t("n.menu"), items)


def lines(menu):
    """Every line a menu tree can give (its NUMBER items as `data N` with N = 1), for the
    tests that check every word of a game can be entered."""
    out = []
    for _, kind, data in menu[1]:
        if kind == LINE:
            out.append(data)
        elif kind == SUB:
            out.extend(lines(data))
        elif kind == STRIKER:
            out.append(data[0])
        elif kind == NUMBER:
            out.append(data + " 1")
    return out


class Walker:
    """A menu being walked: a stack of `[title, items, cursor]` levels."""

    def __init__(self, menu):
        self.stack = []
        self._open(menu)

    def _open(self, menu):
        self.stack.append([menu[0], menu[1], menu[2] if len(menu) > 2 else 0])

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
            self._open(data)
        return kind, data
