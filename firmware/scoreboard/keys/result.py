"""What one key press gave: `Result`, the one shape every key owner answers with.

The owners are the key grammar (grammar.py), a game family's keys (snooker.py, pool.py,
straight.py: they answer the grammar) and the start menu (startmenu.py: it answers the
app). Every field is None (or 0) unless the press set it:

    line      a notation line to apply ("pot pink"; the start menu's: the first line of
              the match it starts, `frame A` or the word chosen before it)
    refusal   why the key was refused (shown, low beep): nothing changed
    entry     the grammar's entry in progress after the press, as text
    menu      (title, items, cursor) while the grammar's menu is open
    own       an item of the menu's owner was chosen (menus.OWN): its data
    header    the start menu's match to start: its header lines (`line` its first line,
              `breaker` "A" or "B", `queued` the queued file's name or None)
    setting   a box setting the start menu changed: "volume" (step it) or "lang" (the
              language's code in `value`)
    then      a family's keys to the grammar: what follows the press (below), with its
              `data`

A family's keys answer with the constructors at the end (`give`, `refuse`, `keep`,
`opens`), never by calling the grammar back: the grammar acts on the answer (closes
the entry and gives the line, opens the family's entry, a menu, a number entry) and
fills in `entry` and `menu`.
"""

from micropython import const

# What follows a family's answer (`then`):
GIVEN = const(0)  # the entry (if any) is over: `line` given, or None (cancelled)
KEPT = const(1)  # the family's entry goes on: only what is shown changed
ENTRY = const(2)  # the family's entry of several keys begins (its state is the family's)
PLAY_MENU = const(3)  # the menu of the state the match is in
TREE = const(4)  # the menu `data` (menus.py)
NUMBER = const(5)  # a number entry: `data` is (prefix, several, limit)


class Result:
    """What one key press gave: see the module docstring."""

    def __init__(self, line=None, refusal=None, entry=None, menu=None):
        self.line = line
        self.refusal = refusal
        self.entry = entry
        self.menu = menu
        self.own = None
        self.header = None
        self.breaker = None
        self.queued = None
        self.setting = None
        self.value = None
        self.then = GIVEN
        self.data = None

    def __repr__(self):
        return "Result(line=%r, refusal=%r, entry=%r)" % (self.line, self.refusal,
                                                          self.entry)


def give(line):
    """The family's entry is over: `line` to apply (None: nothing, the entry cancelled)."""
    return Result(line)


def refuse(why):
    """The key is refused, and nothing changes."""
    return Result(None, why)


def keep():
    """The family's entry goes on: only what is shown changed."""
    r = Result()
    r.then = KEPT
    return r


def opens(then, data=None):
    """The grammar opens ENTRY (the family's own), PLAY_MENU, TREE (`data`) or NUMBER
    (`data`: prefix, several, limit)."""
    r = Result()
    r.then = then
    r.data = data
    return r
