"""Key scripts played through the key grammar, printed line by line.

Runs unchanged under CPython and MicroPython; the test (test_keys_micropython.py)
compares the two outputs (CPython is the oracle). Each game is a header and a key
script (`name!` a long press); like the app, every line the grammar gives is parsed and
applied to the Match, and a ValueError is printed as a refusal. After each game: the
lines, the refusals, and the replay report of the header plus the lines.
"""

import _paths

_paths.setup(__file__)

from replay_json import to_json  # noqa: E402
from scoreboard.core.notation import parse_event  # noqa: E402
from scoreboard.core.replay import replay  # noqa: E402
from scoreboard.keys.grammar import Grammar  # noqa: E402


def header(game, match):
    return ["sbn 1", "game " + game, "match " + match, 'side A "Ann"', 'side B "Bob"']


GAMES = (
    ("147", header("snooker reds=15", "best-of 3"),
     "ok " + "red black " * 15 + "yellow green brown blue pink black ok"),
    ("fouls", header("snooker reds=15", "best-of 3"),
     ("ok end foul miss replace foul blue miss replace foul red red pink ok free green "
     "black red! red ok yellow foul foul foul ok menu menu menu ok menu ok ok ok pink "
     "foul black ok again undo undo black menu menu menu menu ok ok menu ok")),
    ("respot", header("snooker reds=6", "best-of 1"),
     ("ok red black red black red black end red black red black red pink end yellow end "
     "green brown end blue pink end black ok menu ok black ok")),
    ("nineball", header("nineball", "race-to 2"),
     "ok foul end foul end warn foul ok pot rackA rackB ok pot pass ok end foul pot go ok"),
    ("pushes", header("tenball", "race-to 2"),
     "end ok end push pass pot extend ok side rackA! ok ok concede undo concede ok ok"),
    ("straight", header("straight", "points 40"),
     ("ok break again break end score 5 score again score end rerack! ball ball end "
     "foul end foul end warn foul end score 14 score 6 hit ok 5 ball ball")),
)


def play(name, head, keys):
    match = replay(head)
    g = Grammar(match)
    lines = []
    print("game", name)
    for key in keys.split():
        long = key.endswith("!")
        r = g.press(key[:-1] if long else key, long)
        if r.refusal is not None:
            print("  %s: refused: %s" % (key, r.refusal))
            continue
        if r.line is None:
            print("  %s: %s" % (key, g.entry() or g.menu_title))
            continue
        try:
            match.apply(parse_event(match.family, r.line))
        except ValueError as e:
            print("  %s: %s refused: %s" % (key, r.line, e))
            continue
        lines.append(r.line)
        print("  %s: %s" % (key, r.line))
    print(to_json(replay(head + lines)))
    print(to_json(match))


for game in GAMES:
    play(*game)
print("done")
