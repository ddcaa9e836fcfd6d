"""`scoreboard tournament create|show|result`: the desk's tournament, in the results
database (docs/tournament.md).

    create NAME --format single|double|groups --players FILE.csv [--race N | --best-of N]
           [--game GAME] [--seed N] [--groups G --advance K]
           [--STAGE-race N | --STAGE-best-of N]   (STAGE: group, winners, losers, final)
    show NAME [--json]
    result NAME MATCH WINNER A_SCORE B_SCORE [--walkover | --retired | --abandoned]
           [--correct]
    assign NAME MATCH --table N [--port PORT]
    call NAME MATCH [--port PORT]
    decide NAME N take|keep
    uncall NAME MATCH

Every verb takes `--lang en|pl|bg`: what it prints (the refusals, `show`'s text, the
game's and the results' words) in the club's language (host_tools/tournament/says.py).
NAME is the event's name as the club writes it (`"Turniej sobotni 12.12"`), or the id
made of it (`Turniej-sobotni-12.12`: what the boxes' match ids and the pages' addresses
carry).

The arguments and the messages; the draw, the bracket and the database are
host_tools/tournament's (with boxresults, the bracket its database is opened with, which
puts the matches the boxes play into it as `sync` and `live --db` store them). `assign
--port` queues the match's header (tournament/header.py) on the box as `setup` does, and
records that box as the match's (only its result counts: tournament/identity.py); a
match moved to another table is first taken back from the box it was queued on (found
among the connected boxes by its id), and the move is refused when that box has started
it. `call --port` sends the call to the box (its `called`: the box's late start counts
from it), only to the match's own box. `decide` settles a result held for the desk
(`show` lists them): `take` makes it the match's, `keep` keeps the bracket's. Bad input
(an unknown tournament or match, a result given twice, a wrong winner, a bad CSV row, a
match not ready, a busy table, a box not reached) is one line on stderr and exit status
1, nothing recorded; a call recorded that the box did not take is its line on stdout,
the box's reason on stderr and exit status 3.
"""

import argparse
import secrets

from host_tools.device.connect import call_box
from host_tools.device.box import BoardError
from host_tools.messages import fail, one_of, say, write_out
from host_tools.commands.options import add_db_options, open_or_fail
from host_tools.results.db import DbError
from host_tools.results.draw import SetupError
from host_tools.live import onbox
from host_tools.tournament import TournamentError, players, store, view
from host_tools.tournament import conditions as stage_conditions
from host_tools.tournament import boxresults
from host_tools.tournament.header import header_lines
from host_tools.tournament.advance import describe, name_of
from host_tools.tournament.model import FORMATS, STAGE_KEYS
from host_tools.tournament.says import LANGS, Said, core, text, word

PROG = "tournament"
CALL_NOT_ON_BOX = 3  # `call --port`: recorded, but the box did not take it


def _number(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("%r is not a whole number" % text) from None
    if value < 1:
        raise argparse.ArgumentTypeError("%d: 1 at least" % value)
    return value


def _seed(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("%r is not a whole number" % text) from None
    if not 0 <= value < 2 ** 31:
        raise argparse.ArgumentTypeError("%d: 0 to %d" % (value, 2 ** 31 - 1))
    return value


def add_parser(sub):
    p = sub.add_parser("tournament", help="a tournament: its draw, bracket and results")
    verbs = p.add_subparsers(dest="verb", required=True)

    c = verbs.add_parser("create", help="draw a new tournament")
    c.add_argument("name", help="its name as the club writes it (at most %d characters; "
                                "quote it when it has spaces)" % store.NAME_MAX)
    c.add_argument("--format", required=True, choices=FORMATS)
    c.add_argument("--players", required=True, metavar="FILE.csv",
                   help="the players: a header row name[,seed][,club] (or the club's "
                        "language's: nazwisko,imię,klub), one player a row")
    length = c.add_mutually_exclusive_group()
    length.add_argument("--race", type=_number, metavar="N", help="pool: race to N racks")
    length.add_argument("--best-of", type=_number, metavar="N", help="snooker: best of N")
    c.add_argument("--game", default=None,
                   help="the game as a header names it (default: eightball, or snooker "
                        "with --best-of)")
    c.add_argument("--seed", type=_seed, default=None, metavar="N",
                   help="the draw's seed (default: a random one, recorded)")
    c.add_argument("--groups", type=_number, metavar="G", help="groups: how many")
    c.add_argument("--advance", type=_number, metavar="K",
                   help="groups: the top K of each go into the knockout")
    c.add_argument("--clock", default=None, metavar="WORDS",
                   help="the shot clock, as a header's clock words: \"shot=45 warn=10\"")
    c.add_argument("--breaks", default=None, choices=("alternate", "winner", "loser"),
                   help="who breaks each rack (pool)")
    c.add_argument("--late", type=_number, default=None, metavar="M",
                   help="the late start (seed 004 1.7): minutes after the call (rules late=M)")
    c.add_argument("--misses", type=_number, default=None, metavar="N",
                   help="snooker: misses in a row before the frame may be awarded")
    c.add_argument("--three-foul", default=None, choices=("on", "off"),
                   help="pool and straight pool: the three-foul rule (rules threefoul=1|0; "
                        "default: on in nine-, ten-ball and straight pool, off in eight-ball)")
    c.add_argument("--push-out", default=None, choices=("on", "off"),
                   help="nine- and ten-ball: the push out after the break (rules pushout=1|0; "
                        "default: on)")
    for stage in STAGE_KEYS:
        one = c.add_mutually_exclusive_group()
        one.add_argument("--%s-race" % stage, type=_number, metavar="N",
                         help="the %s stage's race" % stage)
        one.add_argument("--%s-best-of" % stage, type=_number, metavar="N",
                         help="the %s stage's best-of" % stage)
    _common(c)
    c.set_defaults(run=run_create)

    s = verbs.add_parser("show", help="the bracket and the table board")
    s.add_argument("name", help="the tournament")
    s.add_argument("--json", action="store_true", help="as JSON (docs/tournament.md)")
    _common(s)
    s.set_defaults(run=run_show)

    r = verbs.add_parser("result", help="a result entered by hand")
    r.add_argument("name", help="the tournament")
    r.add_argument("match", help="the match's id (W1-01, L2-03, F1, GA-04 ...)")
    r.add_argument("winner", help="the winner: a player's id or name")
    r.add_argument("a_score", help="side A's frames or racks (- for a result without score)")
    r.add_argument("b_score", help="side B's")
    kind = r.add_mutually_exclusive_group()
    for how in ("walkover", "retired", "abandoned"):
        kind.add_argument("--" + how, dest="how", action="store_const", const=how,
                          help={"walkover": "the loser did not play (forfeit)",
                                "retired": "the loser retired (seed 004 1.13)",
                                "abandoned": "interrupted or disqualified (seed 004 1.14)"}
                          [how])
    r.add_argument("--correct", action="store_true",
                   help="replace the match's result (while the matches it feeds have not "
                        "started)")
    _common(r)
    r.set_defaults(run=run_result, how="played")

    a = verbs.add_parser("assign", help="put a match on a table (and queue it on its box)")
    a.add_argument("name", help="the tournament")
    a.add_argument("match", help="the match's id")
    a.add_argument("--table", required=True, type=_number, metavar="N", help="the table")
    a.add_argument("--port", default=None,
                   help="the table's box: queue the match there (without it the assignment "
                        "is only recorded)")
    _common(a)
    a.set_defaults(run=run_assign)

    k = verbs.add_parser("call", help="announce a match at its table (the late start counts)")
    k.add_argument("name", help="the tournament")
    k.add_argument("match", help="the match's id")
    k.add_argument("--port", default=None,
                   help="the table's box: the call reaches it too (its late start counts "
                        "from now); without it the call is only recorded")
    _common(k)
    k.set_defaults(run=run_call)

    d = verbs.add_parser("decide", help="settle a result held for the desk (see show)")
    d.add_argument("name", help="the tournament")
    d.add_argument("held", type=_number, metavar="N", help="the held result's number")
    d.add_argument("decision", choices=("take", "keep"),
                   help="take: the held result becomes the match's; keep: the bracket's stays")
    _common(d)
    d.set_defaults(run=run_decide)

    u = verbs.add_parser("uncall", help="take a call back (the match assigned again)")
    u.add_argument("name", help="the tournament")
    u.add_argument("match", help="the match's id")
    _common(u)
    u.set_defaults(run=run_uncall)


def _common(p):
    add_db_options(p)
    p.add_argument("--lang", default="en",
                   help="what it prints, in en, pl or bg (default: en)")


def _checked_lang(args):
    """True when --lang is one the tournament speaks, else said in one line."""
    if args.lang in LANGS:
        return True
    fail(PROG, "--lang %s: the tournament speaks %s" % (args.lang, one_of(LANGS)))
    return False


def _say(args, template, *values):
    say(text(Said(template, *values), args.lang))


def _fail(args, e):
    fail(PROG, text(e, args.lang))


def _conditions(args):
    """{stage key: {"match": words}} for the format's stages, checked as a header."""
    stages = {s: (getattr(args, "%s_race" % s), getattr(args, "%s_best_of" % s))
              for s in STAGE_KEYS}
    rules = {k: getattr(args, k) for k in ("late", "misses") if getattr(args, k)}
    for key, value in (("threefoul", args.three_foul), ("pushout", args.push_out)):
        if value is not None:
            rules[key] = stage_conditions.switch(value, key)
    return stage_conditions.conditions(args.format, args.game, args.race, args.best_of, stages,
                                       args.clock, args.breaks, rules)


_REFUSED = object()  # what _in_db gives when it has said why in one line


def _in_db(args, change, create=False):
    """`change(db)` in the database the arguments choose, closed after; _REFUSED when the
    database or the tournament refused, the reason said in one line."""
    db = open_or_fail(PROG, args, create, bracket=boxresults)
    if db is None:
        return _REFUSED
    try:
        return change(db)
    except (TournamentError, DbError) as e:
        _fail(args, e)
        return _REFUSED
    finally:
        db.close()


def run_create(args):
    if not _checked_lang(args):
        return 2
    try:
        stage_conditions.check_groups(args.format, args.groups, args.advance)
        store.check_name(args.name)
        game, conditions = _conditions(args)
        entries = players.read(args.players)
        seed = args.seed if args.seed is not None else secrets.randbelow(10 ** 9)
        t = store.make(args.name, args.format, entries, game, conditions, seed, args.groups,
                       args.advance)
    except TournamentError as e:
        _fail(args, e)
        return 1
    if _in_db(args, lambda db: store.create(db, t, store.source()), create=True) is _REFUSED:
        return 1
    byes = sum(1 for st in t.states.values() if st.status == "bye" and st.winner is not None)
    _say(args, "%s: %s, %d players, %d matches (%d byes), draw seed %d", t.name,
         word("format", view.FORMAT_NAMES[t.format]), len(t.players), len(t.specs), byes, seed)
    _say(args, "%s: its id (the boxes' match ids, the pages' addresses): %s", t.name,
         store.naming.slug(t.name))
    return 0


def run_show(args):
    if not _checked_lang(args):
        return 2
    got = _in_db(args, lambda db: (store.load(db, args.name), store.held(db, args.name)))
    if got is _REFUSED:
        return 1
    t, held = got
    if args.json:
        import json

        data = json.loads(view.as_json(t))
        data["held"] = held
        return write_out(PROG, json.dumps(data, indent=1, sort_keys=True) + "\n")
    out = view.as_text(t, args.lang)
    if held:  # what the desk must decide: `decide NAME N take|keep`
        out += "".join("%s\n" % text(store.held_line(h), args.lang) for h in held)
    return write_out(PROG, out)


def run_decide(args):
    if not _checked_lang(args):
        return 2
    t = _in_db(args, lambda db: store.decide(db, args.name, args.held,
                                             args.decision == "take"))
    if t is _REFUSED:
        return 1
    if args.decision == "take":
        _say(args, "%s: held result %d taken", t.name, args.held)
    else:
        _say(args, "%s: held result %d kept out: the bracket's stays", t.name, args.held)
    return 0


def _score(text):
    if text.strip() == "-":
        return None
    if not text.strip().isascii() or not text.strip().isdigit() or len(text.strip()) > 4:
        raise TournamentError("score %s: a whole number from 0, or - for none", text)
    return int(text)


def run_result(args):
    if not _checked_lang(args):
        return 2
    try:
        a, b = _score(args.a_score), _score(args.b_score)
        if (a is None) != (b is None):
            raise TournamentError("give both scores, or - - for a result without a score")
    except TournamentError as e:
        _fail(args, e)
        return 1
    got = _in_db(args, lambda db: store.result(db, args.name, args.match, args.winner,
                                               None if a is None else (a, b), args.how,
                                               args.correct))
    if got is _REFUSED:
        return 1
    t, changed = got
    _say(args, "%s: %s, corrected" if args.correct else "%s: %s", t.name,
         describe(t, args.match))
    for mid in changed:
        if mid != args.match:
            status = word("status", t.states[mid].status)
            if t.states[mid].status == "waiting":
                _say(args, "  %s: %s", mid, status)
            else:
                _say(args, "  %s: %s  %s", mid, status, describe(t, mid))
    if t.champion is not None:
        _say(args, "%s: champion %s", t.name, name_of(t, t.champion))
    return 0


def run_assign(args):
    if not _checked_lang(args):
        return 2
    db = open_or_fail(PROG, args, bracket=boxresults)
    if db is None:
        return 1
    queued = None
    notes = []
    try:
        t = store.load(db, args.name)
        store.check_assign(db, t, args.match, args.table)
        box = None
        if args.port is not None:
            box, claim = onbox.identity(args.port)
            onbox.check_claim(args.port, claim, args.table)
        notes = _move_off(db, t, args.match, args.table, box, args.port)
        t.tables[args.match] = args.table
        if args.port is not None:
            lines = header_lines(t, args.match)
            box, _, name = onbox.queue(args.port, lines, "%s %s" % (t.name, args.match))
            queued = "%s as %s (box %s)" % (args.port, name, box)
        t = store.assign(db, args.name, args.match, args.table, box=box)
    except (TournamentError, DbError) as e:
        if queued:
            _fail(args, Said("%s; its header stays queued on the box", e.said
                             if isinstance(e, TournamentError) else str(e)))
        else:
            _fail(args, e)
        return 1
    except (SetupError, BoardError) as e:  # the box's words, said where known (says.CORE)
        _fail(args, core((str(e).splitlines() or [type(e).__name__])[0]))
        return 1
    finally:
        db.close()
    if queued:
        _say(args, "%s: %s on table %d, queued on %s", t.name, describe(t, args.match),
             args.table, queued)
    else:
        _say(args, "%s: %s on table %d", t.name, describe(t, args.match), args.table)
    for note in notes:
        _say(args, "%s: %s", t.name, note)
    return 0


def _move_off(db, t, match, table, box, port):
    """A match queued on another box (assigned before, to another table or box): taken
    back from it first, found among the connected boxes by its id; TournamentError when
    it has started there. The notes to print."""
    from host_tools.device.ports import auto_ports

    old_table, old_box = store.assigned_box(db, t.name, match)
    if t.active.get(match) not in ("assigned", "called") or old_box is None or (
            old_box == box and old_table == table):
        return []
    if old_box == box:  # the same box, another table: its queued header is replaced
        return []
    found = onbox.locate(old_box, [p for p in auto_ports() if p != port])
    if found is None:
        return [onbox.not_reached(old_table, old_box)]
    return [onbox.withdraw(found, store.box_match(t.name, match), old_table, old_box)]


def run_call(args):
    if not _checked_lang(args):
        return 2
    got = _in_db(args, lambda db: (store.call(db, args.name, args.match),
                                   store.called_at(db, args.name, args.match)))
    if got is _REFUSED:
        return 1
    t, at = got
    said = Said("%s: %s called to table %s at %s", t.name, describe(t, args.match),
                t.tables.get(args.match, "?"), at)
    if args.port is None:
        say(text(said, args.lang))
        return 0
    # The call is recorded (the announcement was made) before the box hears it: a box
    # not reached or refusing changes nothing in the database, and says why. It goes
    # only to the match's own box (the one it was queued on).
    try:
        owner = _in_db(args, lambda db: store.assigned_box(db, args.name, args.match)[1])
        if owner not in (None, _REFUSED) and onbox.identity(args.port)[0] != owner:
            raise BoardError("the box on %s is not %s's box %s: the call goes only to the "
                             "box the match was queued on" % (args.port, args.match, owner))
        box = call_box(args.port, store.box_match(t.name, args.match))
    except (BoardError, OSError) as e:
        say(text(said, args.lang))
        _fail(args, Said("the call is recorded; table %s's box did not take it: %s",
                         t.tables.get(args.match, "?"),
                         core((str(e).splitlines() or [type(e).__name__])[0])))
        return CALL_NOT_ON_BOX
    _say(args, "%s; %s", said, box)
    return 0


def run_uncall(args):
    if not _checked_lang(args):
        return 2
    t = _in_db(args, lambda db: store.uncall(db, args.name, args.match))
    if t is _REFUSED:
        return 1
    _say(args, "%s: %s: the call taken back, on table %s again", t.name,
         describe(t, args.match), t.tables.get(args.match, "?"))
    return 0
