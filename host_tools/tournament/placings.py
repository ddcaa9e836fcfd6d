"""The final placings, for the prizes: who is 1st, 2nd, 3rd-4th, 5th-8th ... by the round
a player went out in (players out in the same round share the places: 16 players in a
single elimination are 1, 2, 3-4, 5-8, 9-16; in a double elimination 1, 2, 3, 4, 5-6,
7-8, 9-12, 13-16).

A player goes out:
- in a single elimination (and the knockout after the groups) at the first loss, in
  that match's round (the final the last round);
- in a double elimination at the second loss: in a round of the losers' bracket, or in
  the grand final (the reset's loser, or the final's side B when side A wins it);
- in the groups, when the group is played out and the player's place is past the
  knockout's: each group's 3rd place before its 4th.

Places are known round by round: those out in a round once every match that can put a
player out in that round or before is decided. The places of a round are the field's
size less those out by its end, plus one, to the field's size less those out before
it; the champion is 1st once there is one.
"""

from host_tools.tournament import advance

GROUPS_FIRST = (0, -10 ** 6)  # a group match's key: before any place in the groups


def _key(t, spec):
    """The key of a player who goes out in `spec` (larger: went further), or None when
    nobody goes out there (a double elimination's winners' bracket); a group match has
    GROUPS_FIRST, every group having to be played out first."""
    if spec.stage.startswith("group "):
        return GROUPS_FIRST
    if t.format == "double":
        if spec.stage == "winners":
            return None
        return (1, 10 ** 6) if spec.stage == "final" else (1, spec.round)
    return (1, spec.round)


def _out(t):
    """{player: key of the round the player went out in}, for those out."""
    out = {}
    losses = {}
    for s in t.specs:
        st = t.states[s.id]
        if s.stage.startswith("group ") or st.status not in ("done", "walkover"):
            continue
        loser = st.b if st.winner == st.a else st.a
        losses[loser] = losses.get(loser, 0) + 1
        if loser not in out and (t.format != "double" or losses[loser] == 2):
            out[loser] = _key(t, s)
    if t.format == "groups":
        groups = {}
        for s in t.specs:
            if s.stage.startswith("group "):
                groups.setdefault(s.stage, []).append(s)
        for specs in groups.values():
            if all(t.states[s.id].decided for s in specs):
                for place, row in enumerate(advance.table(t, specs), 1):
                    if place > t.advance:
                        out[row[0]] = (0, -place)
    return out


def placings(t):
    """[(first place, last place, player id)] of the players whose place is known, best
    first (the same places in the CSV's order of the players)."""
    out = _out(t)
    keys = sorted(set(out.values()))
    n = len(t.players)
    rows = []
    if t.champion is not None:
        rows.append((1, 1, t.champion))
    gone = 0  # players out before the round
    for k in keys:
        them = sorted(p for p, kp in out.items() if kp == k)
        complete = all(t.states[s.id].decided for s in t.specs
                       if _key(t, s) is not None and _key(t, s) <= k)
        if complete:
            rows += [(n - gone - len(them) + 1, n - gone, p) for p in them]
        gone += len(them)
    return sorted(rows)


def text(first, last):
    """`1`, `3-4`: a place, or places shared."""
    return str(first) if first == last else "%d-%d" % (first, last)
