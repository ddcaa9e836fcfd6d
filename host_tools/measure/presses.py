"""Presses per action: the fewest key presses that enter each event of the corpus.

    python -m host_tools.measure.presses [--top N] [--firmware DIR] [--strokes]

The corpus is every valid scenario of tests/scenarios/ (a `.sbn` with its `.json`) and
the key scripts under tests/: the games of tests/micropython/keys_games.py and the
Desks of tests/test_keys_games.py and tests/test_keys_grammar.py, played through the key
grammar to their lines.
For each event line the position before it is replayed and the key grammar
(scoreboard.keys.grammar) is searched breadth first over the 16 keys of the game's
legend, short and long, for the shortest sequence whose line is that event (a refused
key ends a path, and positions that show the same are visited once). The events are
grouped into actions (a snooker pot, a foul with a ball down, a pool pot of one ball,
...); the table gives, for the N most common, how often each occurs and its presses
(mean and most), and how many need more than 3 (a snooker foul with a ball down) or 2
(a pool pot of one ball), the limits of issue 26. `--firmware DIR` measures another
tree's firmware (an older commit's `firmware/`, for the figures before a change) on the
corpus this tree plays. hardware/keypad.md holds the table. `--strokes` gives instead
the fewest presses of each common stroke from its own position (STROKES: a pot, the
fouls with and without balls down, a free ball, a miss, a push out, a concession...),
the review's key economy, with `--firmware` too.
"""

import argparse
import ast
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import host_tools  # noqa: F401  (puts the firmware on the path)

REPO = Path(__file__).resolve().parents[2]
TESTS = REPO / "tests"
MAX_DEPTH = 7
BUDGET = 15000  # sequences tried per event before it counts as not found (a menu's depths)
BALLS = ("red", "yellow", "green", "brown", "blue", "pink", "black", "free")


def _scenarios():
    """(name, lines) of every valid scenario file."""
    out = []
    for sbn in sorted((TESTS / "scenarios").glob("*.sbn")):
        if sbn.with_suffix(".json").is_file():
            out.append((sbn.stem, sbn.read_text(encoding="utf-8").splitlines()))
    return out


def _played(head, keys):
    """The lines (header first) that key names `keys` (`name!` long) give from `head`."""
    from scoreboard.core.notation import parse_event
    from scoreboard.core.replay import replay
    from scoreboard.keys.grammar import Grammar

    match = replay(head)
    g = Grammar(match)
    lines = list(head)
    for key in keys:
        long = key.endswith("!")
        r = g.press(key[:-1] if long else key, long)
        if r.line is None:
            continue
        try:
            match.apply(parse_event(match.family, r.line))
        except ValueError:
            continue
        lines.append(r.line)
    return lines


def _keys_games():
    """(name, lines) of the games of tests/micropython/keys_games.py, read (not run)."""
    tree = ast.parse((TESTS / "micropython" / "keys_games.py").read_text(encoding="utf-8"))
    keep = [n for n in tree.body if (isinstance(n, ast.FunctionDef) and n.name == "header")
            or (isinstance(n, ast.Assign) and getattr(n.targets[0], "id", "") == "GAMES")]
    space = {}
    exec(compile(ast.Module(body=keep, type_ignores=[]), "keys_games", "exec"), space)
    return [("keys:" + name, _played(head, keys.split()))
            for name, head, keys in space["GAMES"]]


DESK_TESTS = ("test_keys_games", "test_keys_grammar")


def _desk_games():
    """(name, lines) of every Desk of the key tests (DESK_TESTS), their tests that take
    no argument run in turn (one that fails, as a refusal it asserts, is left out)."""
    sys.path.insert(0, str(TESTS))
    import importlib
    import inspect

    from support import keys as support_keys

    desks = []

    class Recorded(support_keys.Desk):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            desks.append(self)

    out = []
    for module_name in DESK_TESTS:
        module = importlib.import_module(module_name)  # may be pytest's own: put back
        module.Desk = Recorded
        try:
            for name in sorted(n for n in dir(module) if n.startswith("test_")):
                test = getattr(module, name)
                if inspect.signature(test).parameters:
                    continue
                desks.clear()
                try:
                    test()
                except Exception:  # a test that fails here: the lines it gave stay
                    pass
                for i, d in enumerate(desks):
                    out.append(("%s.%s#%d" % (module_name, name, i), d.header + d.lines))
        finally:
            module.Desk = support_keys.Desk
    return out


def corpus():
    return _scenarios() + _keys_games() + _desk_games()


def action(family, event):
    """The action an event (word, args) stands for, in a few words."""
    word, args = event
    if word == "pot":
        if family == "snooker":
            return "snooker pot, one ball" if len(args) == 1 else "snooker pot, several"
        return "pool pot, one ball" if len(args) == 1 else "pool pot, several balls"
    if word == "foul":
        if family == "snooker":
            down = [a for a in args[1:] if a in BALLS]
            if len(down) > 1:
                return "snooker foul, several balls down"
            return "snooker foul, a ball down" if down else "snooker foul, no ball down"
        return "%s foul" % ("pool" if family == "pool" else "straight pool")
    if word == "score":
        return "straight pool score"
    if word == "frame":
        return "frame (start)"
    if word == "go":
        return "go (shot clock)"
    return word


def _lines(match, depth, budget=None):
    """Breadth first over the 16 keys, short and long, from the position of `match`:
    yields (presses, (word, args)) for every event line a sequence gives, fewest
    presses first (a refused key ends a path; positions that show the same are visited
    once); stops past `depth` presses or `budget` sequences tried (yielding None)."""
    from scoreboard.core.notation import parse_event
    from scoreboard.keys.grammar import Grammar

    family = match.family
    keys = [(n, long) for n in Grammar(match).names for long in (False, True)]
    frontier = [()]
    seen = set()
    tried = 0
    for d in range(1, depth + 1):
        nxt = []
        for path in frontier:
            tried += len(keys)
            if budget is not None and tried > budget:
                yield None
                return
            for key in keys:
                g = Grammar(match)
                for name, long in path:
                    g.press(name, long)
                r = g.press(key[0], key[1])
                if r.refusal is not None:
                    continue
                if r.line is not None:
                    try:
                        ev = parse_event(family, r.line)
                    except ValueError:
                        continue
                    yield d, (ev[1], tuple(ev[2]))
                    continue
                shown = (g.mode, r.entry, repr(r.menu), g.first_breaker, g.hint())
                if shown not in seen:
                    seen.add(shown)
                    nxt.append(path + (key,))
        frontier = nxt


def fewest(match, want, depth=MAX_DEPTH, budget=BUDGET):
    """The fewest presses from the position of `match` whose line is the event `want`
    (word, args), or None past `depth` or `budget` sequences tried."""
    want = (want[0], tuple(want[1]))
    for found in _lines(match, depth, budget):
        if found is None:
            return None
        if found[1] == want:
            return found[0]
    return None


def reachable(match, depth=3):
    """{(word, args): fewest presses} of every event line that some sequence of at most
    `depth` presses gives from the position of `match` (the search of `fewest`, all its
    lines kept): what the key grammar lets a referee enter that quickly."""
    got = {}
    for d, event in _lines(match, depth):
        got.setdefault(event, d)
    return got


def measure(matches, only=None):
    """{action: [presses, ...]} over the event lines of `matches` (None: not found);
    `only`: the actions to measure (all when None)."""
    from scoreboard.core.notation import Reader
    from scoreboard.core.replay import replay

    got = {}
    for _name, lines in matches:
        reader = Reader()
        for i, text in enumerate(lines):
            event = reader.feed(text)
            if event is None:
                continue
            match = replay(lines[:i])
            want = (event[1], event[2])
            kind = action(match.family, want)
            if only is not None and kind not in only:
                continue
            n = fewest(match, want)
            got.setdefault(kind, []).append(n)
            if n is None:
                print("not found: %s" % text.split("#")[0].strip(), file=sys.stderr)
    return got


LIMITS = {"snooker foul, a ball down": 3, "pool pot, one ball": 2}  # issue 26's
EXTRA = ("snooker foul, several balls down",)  # shown with the limits, below the N most common


def table(got, top):
    rows = sorted(got.items(), key=lambda kv: (-len(kv[1]), kv[0]))[:top]
    out = ["| action | events | presses (mean) | presses (most) | over the limit |",
           "|---|---|---|---|---|"]
    for name, presses in rows:
        found = [p for p in presses if p is not None]
        mean = sum(found) / len(found) if found else 0
        limit = LIMITS.get(name)
        over = "%d of %d (limit %d)" % (len([p for p in found if p > limit]), len(presses),
                                       limit) if limit else ""
        most = max(found) if found else "-"
        out.append("| %s | %d | %.2f | %s | %s |" % (name, len(presses), mean, most, over))
    for name in sorted(LIMITS) + list(EXTRA):
        if name not in dict(rows) and name in got:
            found = [p for p in got[name] if p is not None]
            limit = LIMITS.get(name)
            over = "%d of %d (limit %d)" % (len([p for p in found if p > limit]),
                                           len(got[name]), limit) if limit else ""
            out.append("| %s | %d | %.2f | %d | %s |" % (
                name, len(got[name]), sum(found) / len(found), max(found), over))
    return out


def _head(game, match):
    return ["sbn 1", "game " + game, "match " + match, 'side A "Ann"', 'side B "Bob"']


_SNOOKER = _head("snooker reds=15", "best-of 3")
_NINE = _head("nineball", "race-to 3")
_STRAIGHT = _head("straight", "points 100")
_CLOCKED = _SNOOKER + ["clock shot=45 warn=10"]
# The common strokes of the review (issue 33, the findings' key economy): (action,
# header, the lines before, the event). `--strokes` gives the fewest presses of each.
STROKES = (
    ("snooker pot", _SNOOKER, ["frame A"], "pot red"),
    ("two reds in one stroke", _SNOOKER, ["frame A"], "pot red red"),
    ("pot in nine-ball, one ball", _NINE, ["frame A"], "pot 9"),
    ("snooker foul, no ball down", _SNOOKER, ["frame A"], "foul 4"),
    ("snooker foul, the ball concerned named", _SNOOKER, ["frame A"], "foul 6"),
    ("snooker foul, the ball concerned went down", _SNOOKER, ["frame A"], "foul 6 pink"),
    ("snooker foul, two reds down", _SNOOKER, ["frame A"], "foul 4 red red"),
    ("snooker foul, another ball down than the one concerned", _SNOOKER, ["frame A"],
     "foul 7 pink"),
    ("snooker foul, the ball concerned and reds down", _SNOOKER, ["frame A"],
     "foul 6 red red"),
    ("free ball (after the foul)", _SNOOKER, ["frame A", "foul 4"], "free"),
    ("free ball potted (the nominated colour)", _SNOOKER, ["frame A", "foul 4", "free"],
     "pot free"),
    ("miss", _SNOOKER, ["frame A"], "foul 4 miss"),
    ("miss, the ball concerned named", _SNOOKER, ["frame A"], "foul 5 miss"),
    ("replace (after a miss)", _SNOOKER, ["frame A", "foul 4 miss"], "replace"),
    ("push out", _NINE, ["frame A", "end"], "push"),
    ("pass", _NINE, ["frame A", "end", "push"], "pass"),
    ("three-foul warning", _STRAIGHT, ["frame A", "foul", "end", "foul", "end"], "warn A"),
    ("ball in hand (pool foul)", _NINE, ["frame A"], "foul"),
    ("straight pool: a ball", _STRAIGHT, ["frame A"], "score 1"),
    ("straight pool: 5 balls", _STRAIGHT, ["frame A"], "score 5"),
    ("straight pool: re-rack of 15", _STRAIGHT, ["frame A", "score 14"], "rerack 15"),
    ("straight pool: opening-break foul", _STRAIGHT, ["frame A"], "foul break"),
    ("time foul, snooker", _CLOCKED, ["@0 frame A", "@1000 go"], "foul 4 time"),
    ("time foul, pool", _NINE, ["frame A"], "foul time"),
    ("concede a frame (snooker)", _SNOOKER, ["frame A"], "concede"),
    ("concede the match (pool)", _NINE, ["frame A"], "concede"),
    ("forfeit for a late start, once called", _SNOOKER, ["called"], "forfeit A late"),
)


def strokes():
    """[(action, fewest presses or None)] of STROKES."""
    from scoreboard.core.notation import parse_event
    from scoreboard.core.replay import replay

    out = []
    for name, head, before, line in STROKES:
        match = replay(head + before)
        ev = parse_event(match.family, line)
        out.append((name, fewest(match, (ev[1], ev[2]), budget=20 * BUDGET)))
    return out


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m host_tools.measure.presses",
                                description=__doc__.splitlines()[0])
    p.add_argument("--top", type=int, default=10, help="the N most common actions")
    p.add_argument("--firmware", help="measure this firmware folder instead (on the "
                   "corpus this tree's firmware plays)")
    p.add_argument("--corpus", help=argparse.SUPPRESS)  # the lines, as JSON: for --firmware
    p.add_argument("--strokes", action="store_true", help="the fewest presses of each "
                   "common stroke (STROKES) instead of the corpus")
    a = p.parse_args(argv)
    if a.strokes:
        if a.firmware:  # the other firmware's, in a process of its own
            sys.path.insert(0, str(Path(a.firmware).resolve()))
            for name in [m for m in sys.modules if m.startswith("scoreboard")]:
                del sys.modules[name]
        print("| action | presses |\n|---|---|")
        for name, n in strokes():
            print("| %s | %s |" % (name, "-" if n is None else n))
        return 0
    if a.corpus:
        sys.path.insert(0, str(Path(a.firmware).resolve()))
        with open(a.corpus, encoding="utf-8") as f:
            matches = json.load(f)
    elif a.firmware:  # the same corpus, measured in a process of the other firmware's
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "corpus.json"
            path.write_text(json.dumps(corpus()), encoding="utf-8")
            return subprocess.call([sys.executable, "-m", "host_tools.measure.presses",
                                    "--top", str(a.top), "--firmware", a.firmware,
                                    "--corpus", str(path)])
    else:
        matches = corpus()
    got = measure(matches)
    print("\n".join(table(got, a.top)))
    missing = sum(1 for v in got.values() for p in v if p is None)
    if missing:
        print("(%d events, menu words most, not found within %d presses or %d tries)"
              % (missing, MAX_DEPTH, BUDGET))
    return 0


if __name__ == "__main__":
    sys.exit(main())
