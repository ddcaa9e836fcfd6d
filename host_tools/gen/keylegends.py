"""What each key does, short and long, per game family: the text of the printed legends.

Data for people, not for the key loop: a host module, so none of it is on the device.
The legend drawings (SVG, host_tools/gen/legends.py) take the names from the firmware's
`scoreboard.keys.keymaps.KEYMAPS` and the printed label and the two meanings from `LEGENDS`;
`hardware/keypad.md` holds the tables that `markdown(family)` writes (a test keeps them
equal), and the simulator may show them as tool tips.

`LEGENDS[family]` is a tuple of 16 `(short, long)` in keymap order: `short` what a
press does, `long` what holding it past `long_ms` does ("" when a long press is the same
as a short one). The label printed on each key is not here: it is the language table's
`l.NAME` (firmware/scoreboard/lang/), the word the box's prompts name the key by, in
capitals (`label(name, code)`); `legend(family, code)` puts the three together.
"""

from scoreboard import lang
from scoreboard.keys import keymaps

_BALL = ("pot it (a colour not on, with a free ball on, is the free ball: `pot free`); "
         "in a foul entry: the ball concerned sets the value, pressed again it went down")
_BALL_LONG = ("in play: a foul, this ball the one concerned (`pink` held, `ok`: `foul 6`; "
              "`black` held, `pink` held, `ok`: `foul 7 pink`); in a foul entry: the ball "
              "concerned, and it went down")

# The keys that say the same on more than one legend.
_UNDO = (("cancel the entry in progress, else `undo` the last event; in a menu: "
                  "back; to a question: no"), "")
_MENU = (("the menu of the rarer words (before the first frame: called, shot "
                  "clock, forfeit, abandon); in a menu: next item"), "in a menu: previous item")
_WARN = ("`warn` the striker, on two fouls", "")
_CLOCK = (("`go`: the shot clock starts", ""),
          ("`hit`: the cue ball struck, the shot clock stops", ""),
          ("`extend`: the striker's extension", ""))
_CONCEDE = (("who concedes the match (the striker under the cursor; the other "
                        "side is refused: only the striker concedes), `ok`, then `ok` to "
                        "the question"), "")
_END_VISIT = ("`end`: the visit ends without a foul", "")

LEGENDS = {
    "snooker": (
        ("`pot red`; in a foul entry: a red went down",
         ("several reds in one stroke: the long press counts two, each `red` adds one, "
          "`ok` (`red` long, `ok`: `pot red red`); in a foul entry: two reds went down")),
        (_BALL, _BALL_LONG),
        (_BALL, _BALL_LONG),
        (_BALL, _BALL_LONG),
        (_BALL, _BALL_LONG),
        (_BALL, _BALL_LONG),
        (_BALL, _BALL_LONG),
        (("foul entry, worth the least the ball on allows: ball keys name the ball "
         "and the balls down, `foul` again adds a point up to 7 (`FOUL 7 (max)`; once "
         "more is refused), `ok` ends it; after TIME it is a time foul"),
         "the same as a time foul (`time`); in a foul entry: time on or off"),
        ("ends a foul entry with `miss`; else starts a foul entry with `miss`", ""),
        (("after a foul: `free` (free ball); with the free ball on: the free ball "
         "potted with others (`pot free ...`: the balls, `ok`)"), ""),
        ("after a foul: `again`, the offender plays again", ""),
        ("after a foul with a miss: `replace`, balls back, offender again", ""),
        ("`end`: the visit ends without score; before frame 1: switch the breaker",
         ""),
        _UNDO,
        _MENU,
        (("end an entry, choose in a menu, yes to a question; before frame 1: "
         "`frame A` (or B); frame over: `frame` (the panel says who breaks); tie on the "
         "black: who plays first; shot clock on: `go` or `hit`"), "shot clock on: `extend`"),
    ),
    "pool": (
        ("`rack A`", "rack details: break and run, golden break"),
        ("`rack B`", "rack details: break and run, golden break"),
        (("balls potted: then the number keys (1-15, a second press takes one "
         "back), `ok`; the last ball's key held long ends it (`pot`, `go` held: `pot 9`)"),
         ""),
        ("`foul`: ball in hand for the other side (after TIME: `foul time`)",
         "`foul time`"),
        _END_VISIT,
        ("`push`: push out, the shot after the break (nine- and ten-ball)", ""),
        ("`pass`: after a push out, the shot passed back", ""),
        _WARN,
        *_CLOCK,
        ("before the first rack: switch the breaker", ""),
        _CONCEDE,
        _UNDO,
        _MENU,
        (("end an entry, choose in a menu, yes to a question; before rack 1: "
         "`frame A` (or B); rack over: `frame` (the panel says who breaks); shot clock on: "
         "`go` or `hit`"), "shot clock on: `extend`; in a number entry: cancel"),
    ),
    "straight": (
        ("`score 1`", "`score N`: then a number key"),
        (("`score N`: then the number key, 1 to 14 of a full rack (the prompt says "
          "`1-14`), else to the balls on the table"), ""),
        ("`foul`: minus 1 (after TIME: `foul time`)", "`foul time`"),
        _END_VISIT,
        ("after an opening-break foul: `again`, the offender breaks again", ""),
        ("`foul break`: an opening-break foul, minus 2 (after TIME: with `time`)",
         "`foul break time`"),
        (("`rerack`: 14 balls re-racked (refused with 15 on the table: the board "
         "re-racks 14 itself when one is left; and before one is left, when none is due)"),
         "`rerack 15` (with 15 on the table)"),
        _WARN,
        *_CLOCK,
        ("before the game: switch the breaker", ""),
        _CONCEDE,
        _UNDO,
        _MENU,
        (("end an entry, choose in a menu, yes to a question; before the game: "
         "`frame A` (or B); shot clock on: `go` or `hit`"),
         "shot clock on: `extend`; in a number entry: cancel"),
    ),
}


def label(name, code="en"):
    """The label printed on key `name` in language `code`: the table's `l.NAME`, in
    capitals."""
    table = lang.texts(code)
    for i in range(0, len(table), 2):
        if table[i] == "l." + name:
            return lang.upper(table[i + 1])
    raise KeyError("no label l.%s in the %s table" % (name, code))


def legend(family, code="en"):
    """The 16 (label, short, long) of a family, in keymap order, the labels in `code`."""
    names = keymaps.keymap(family)
    return tuple((label(names[i], code),) + LEGENDS[family][i] for i in range(len(names)))


def grid(family):
    """The keypad as a markdown table of key names, 4 rows of 4, top row first; the
    small numbers of the number entry in brackets where the legend prints them."""
    names = keymaps.keymap(family)
    numbers = keymaps.NUMBERS if keymaps.numbered(family) else (0,) * 16
    out = ["| | col 0 | col 1 | col 2 | col 3 |", "|---|---|---|---|---|"]
    for row in range(keymaps.ROWS):
        cells = []
        for col in range(keymaps.COLS):
            i = row * keymaps.COLS + col
            n = numbers[i]
            cells.append("`%s`%s" % (names[i], " (%d)" % n if n else ""))
        out.append("| row %d | %s |" % (row, " | ".join(cells)))
    return out


def table(family):
    """One markdown row per key: position, name, printed label, short and long press."""
    names = keymaps.keymap(family)
    out = ["| key | name | label | short press | long press |", "|---|---|---|---|---|"]
    rows = legend(family)
    for i in range(len(names)):
        printed, short, long = rows[i]
        out.append("| %d,%d | `%s` | %s | %s | %s |" % (
            i // keymaps.COLS, i % keymaps.COLS, names[i], printed, short,
            long or "as short"))
    return out


def markdown(family):
    """The text of a family's section in hardware/keypad.md (without its heading)."""
    return "\n".join(grid(family) + [""] + table(family)) + "\n"
