"""The bracket filled from the results: `resolve` derives every match's sides, winner
and status (model.State) and the champion from the Specs and the results alone, so that
a correction is the same derivation again; `enter` checks a result and makes it part of
the tournament.

- A side nobody comes to (a bye in the draw, the loser of a bye, a reset not needed) is
  empty: a match with one empty side is a `bye` won by the other, with two a `bye` that
  sends nobody on.
- Walkovers, retirements and interrupted or disqualified matches (seed 004 1.13-1.14)
  have a winner and a loser and no score; a walkover is a loss like any other.
- A match with both players known and no result is `ready`, unless one of them is
  playing (or has been called to, or assigned) another match, or is in a `ready` one
  that comes before it: then it is `waiting` too, so that no player is in two ready
  matches at once (in a group, the next round waits for the player's match before).
- A group is placed once all its matches are decided: by matches won, then the wins
  among those level, then the frame (rack) difference, then the frames won, then the
  draw's rank (seed 004 1.6 leaves the tie-breaks to the management; these are ours).
- A correction that would change who plays a match that has started (playing, or a
  result entered) is refused, naming it; an assigned or called match whose players it
  changes is no longer assigned (nor on its table).
"""

from host_tools.tournament import TournamentError
from host_tools.tournament.conditions import header_words
from host_tools.tournament.model import HOWS, Result, State, stage_key
from host_tools.tournament.says import Said, length, word

EMPTY = "empty"
PENDING = "pending"
ACTIVE = ("assigned", "called", "playing")


def _side(t, states, source, standings):
    if source is None:
        return EMPTY
    kind, _, rest = source.partition(":")
    if kind == "p":
        return int(rest)
    if kind == "g":
        group, _, place = rest.partition(":")
        table = standings.get(group)
        if table is None:
            table = standings[group] = _standings(t, states, group, standings)
        if table is PENDING:
            return PENDING
        return table[int(place) - 1] if int(place) <= len(table) else EMPTY
    if kind == "r":
        mid, _, which = rest.partition(":")
        st = states[mid]
        if not st.decided:
            return PENDING
        if st.winner is not None and st.winner == st.b:
            return st.a if which == "a" else st.b
        return EMPTY
    st = states[rest]
    if not st.decided:
        return PENDING
    if kind == "w":
        return EMPTY if st.winner is None else st.winner
    loser = st.b if st.winner == st.a else st.a
    return EMPTY if st.winner is None or st.a is None or st.b is None else loser


def _standings(t, states, group, standings):
    """The players of group `group` in their places, or PENDING while it is played."""
    if "" not in standings:  # once a resolve: the groups' matches, the ranks
        by_stage = {}
        for s in t.specs:
            by_stage.setdefault(s.stage, []).append(s)
        standings[""] = by_stage, {p.id: p.rank for p in t.players}
    by_stage, rank = standings[""]
    specs = by_stage["group " + group]
    if not all(states[s.id].decided for s in specs):
        return PENDING
    return [row[0] for row in table(t, specs, states, rank)]


def table(t, specs, states=None, rank=None):
    """The group table of the matches `specs` decided so far, best placed first:
    [(player, won, lost, frames for, frames against)]."""
    states = t.states if states is None else states
    rank = {p.id: p.rank for p in t.players} if rank is None else rank
    won, lost, frames_for, frames_against = {}, {}, {}, {}
    beat = []
    for s in specs:
        st = states[s.id]
        for p in (st.a, st.b):
            for d in (won, lost, frames_for, frames_against):
                d.setdefault(p, 0)
        if not st.decided:
            continue
        loser = st.b if st.winner == st.a else st.a
        won[st.winner] += 1
        lost[loser] += 1
        beat.append((st.winner, loser))
        r = t.results.get(s.id)
        if r is not None and r.score is not None:
            frames_for[st.a] += r.score[0]
            frames_for[st.b] += r.score[1]
            frames_against[st.a] += r.score[1]
            frames_against[st.b] += r.score[0]

    def among(p):
        level = {q for q in won if won[q] == won[p]}
        return sum(1 for w, lo in beat if w == p and lo in level)

    order = sorted(won, key=lambda p: (-won[p], -among(p),
                                       -(frames_for[p] - frames_against[p]), -frames_for[p],
                                       rank[p]))
    return [(p, won[p], lost[p], frames_for[p], frames_against[p]) for p in order]


def resolve(t):
    """Fill t.states and t.champion from t.specs, t.results and t.active."""
    states = {}
    standings = {}
    for s in t.specs:
        a = _side(t, states, s.a_from, standings)
        b = _side(t, states, s.b_from, standings)
        st = State(a=a if isinstance(a, int) else None, b=b if isinstance(b, int) else None,
                   a_empty=a == EMPTY, b_empty=b == EMPTY)
        if a == EMPTY and b == EMPTY:
            st.status, st.decided = "bye", True
        elif (a == EMPTY and isinstance(b, int)) or (b == EMPTY and isinstance(a, int)):
            st.status, st.decided, st.winner = "bye", True, st.a if st.b is None else st.b
        elif st.a is not None and st.b is not None:
            r = t.results.get(s.id)
            if r is not None:
                st.winner, st.decided = r.winner, True
                st.status = "walkover" if r.how == "walkover" else "done"
            else:
                st.status = t.active.get(s.id, "ready")
        states[s.id] = st
    busy = set()
    for s in t.specs:
        st = states[s.id]
        if st.status in ACTIVE:
            busy.update((st.a, st.b))
    for s in t.specs:
        st = states[s.id]
        if st.status == "ready":
            if st.a in busy or st.b in busy:
                st.status = "waiting"
            busy.update((st.a, st.b))
    t.states = states
    t.champion = None
    if all(st.decided for st in states.values()):
        won = [states[s.id].winner for s in t.specs if states[s.id].winner is not None]
        t.champion = won[-1] if won else None
    return t


def name_of(t, pid):
    p = t.player(pid)
    return p.name if p else "?"


def describe(t, match_id):
    """`W1-01 (Ann v Bob)`, `W1-01 (Ann 5-3 Bob)`: a match in a message (a Said: its
    `v` and a result's kind are words too)."""
    st = t.states[match_id]
    a = name_of(t, st.a) if st.a is not None else "?"
    b = name_of(t, st.b) if st.b is not None else "?"
    r = t.results.get(match_id)
    if r is None:
        return Said("%s (%s v %s)", match_id, a, b)
    if r.score is None:
        return Said("%s (%s beat %s, %s)", match_id, name_of(t, r.winner),
                    a if r.winner == st.b else b, word("how", r.how))
    return Said("%s (%s %d-%d %s)", match_id, a, r.score[0], r.score[1], b)


def match_format(t, spec):
    """The stage's `match` words: `race-to 5`, `best-of 7`."""
    return t.conditions[stage_key(spec.stage)]["match"]


def condition_words(t, spec):
    """The stage's playing conditions besides its `match` words, as the header lines the
    box reads (conditions.header_words)."""
    return header_words(t.conditions[stage_key(spec.stage)])


def check_score(t, spec, score, winner_is_a):
    """TournamentError unless `score` (a, b) ends a match of the stage's format with
    that winner."""
    kind, n = match_format(t, spec).split()
    n = int(n)
    need = n if kind == "race-to" else (n + 1) // 2
    won, lost = (score[0], score[1]) if winner_is_a else (score[1], score[0])
    if won != need or not 0 <= lost < need:
        raise TournamentError("%s is %s: the winner has %d, the loser fewer; %d-%d does "
                              "not end it with that winner", spec.id,
                              length(match_format(t, spec)), need, score[0], score[1])


def find_player(t, st, who):
    """The player of the match `who` names: an id or a name (case aside)."""
    ids = [p for p in (st.a, st.b) if p is not None]
    text = str(who).strip()
    for pid in ids:
        if text == str(pid) or text.casefold() == name_of(t, pid).casefold():
            return pid
    return None


def enter(t, match_id, who, score, how="played", correct=False, at=None, by=None):
    """Make the result part of `t` (resolved again) and return the matches whose sides
    changed; TournamentError with the reason, `t` unchanged, when it cannot be."""
    if how not in HOWS:
        raise TournamentError("unknown kind of result %s", how)
    spec = t.spec(match_id)
    if spec is None:
        raise TournamentError("no match %s in %s", match_id, t.name)
    st = t.states[match_id]
    if st.status == "bye":
        raise TournamentError("%s is a bye: there is nothing to play", match_id)
    if st.a is None or st.b is None:
        raise TournamentError("%s waits for its players (%s v %s)", match_id,
                              source_text(t, spec.a_from, st.a), source_text(t, spec.b_from,
                                                                             st.b))
    before = t.results.get(match_id)
    if before is not None and not correct:
        raise TournamentError("%s has its result already: %s; a correction needs "
                              "--correct", match_id, describe(t, match_id))
    if before is None and correct:
        raise TournamentError("%s has no result to correct", match_id)
    winner = find_player(t, st, who)
    if winner is None:
        raise TournamentError("the winner of %s is %s or %s, not %s", describe(t, match_id),
                              name_of(t, st.a), name_of(t, st.b), who)
    if how == "played":
        if score is None:
            raise TournamentError("a played match needs its score")
        check_score(t, spec, score, winner == st.a)
    elif score is not None:
        raise TournamentError("a result %s has no score (seed 004 1.13-1.14: winner and "
                              "loser only): give - - as the scores", word("how", how))
    old = {mid: (s.a, s.b) for mid, s in t.states.items()}
    old_states = t.states
    results = dict(t.results)
    results[match_id] = Result(winner, tuple(score) if score else None, how, at, by)
    saved = t.results, t.active
    t.results = results
    resolve(t)
    changed = [s.id for s in t.specs if (t.states[s.id].a, t.states[s.id].b) != old[s.id]]
    started = [mid for mid in changed if mid in saved[0] or saved[1].get(mid) == "playing"]
    if started:
        t.results, t.active, t.states = saved[0], saved[1], old_states
        resolve(t)
        first = started[0]
        raise TournamentError("%s cannot be corrected that way: it changes who plays in %s, "
                              "which has %s", match_id, describe(t, first),
                              Said("its result") if first in saved[0] else Said("started"))
    active = {mid: v for mid, v in t.active.items() if mid not in changed}
    if active != t.active:
        t.tables = {mid: n for mid, n in t.tables.items()
                    if mid not in t.active or mid in active}
        t.active = active
        resolve(t)
    return changed


def source_text(t, source, pid):
    """Who comes to a side: the player's name, else where from (`the winner of W1-01`)."""
    if pid is not None:
        return name_of(t, pid)
    if source is None:
        return Said("nobody")
    kind, _, rest = source.partition(":")
    if kind == "g":
        g, _, place = rest.partition(":")
        if place in ("1", "2"):
            return Said("group %s's winner" if place == "1" else "group %s's runner-up", g)
        return Said("group %s's no. %s", g, place)
    said = {"w": "the winner of %s", "l": "the loser of %s", "r": "the reset of %s"}.get(kind)
    return Said(said, rest.split(":")[0]) if said else rest.split(":")[0]
