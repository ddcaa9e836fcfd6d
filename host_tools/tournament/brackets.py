"""The matches of a tournament, built once at its creation (model.Spec: where each side
comes from); `advance` fills them from the results.

- single elimination: the players at the standard positions of the least power of two
  that holds them (seeding.positions), nobody at the positions past the field: the top
  seeds' byes. Rounds `winners` W1-01, W2-01 ..., the last the `final` F1.
- double elimination: that winners' bracket (W1.. to its final), a losers' bracket
  (L1: the first round's losers paired; then in turn a round where the losers of the next
  winners' round drop in, in reversed order every other time so that two players do not
  meet again at once, and a round among the losers' bracket alone) and the grand final
  F1, winners' champion (side A) against losers' champion (side B), with its reset F2,
  played only when side B wins F1: a player is out after two losses.
- groups: G round robins (the players dealt by snake seeding, each group's pairs in
  rounds by the circle method: GA-01, GA-02 ...), then a single elimination of the top K
  of each, ranked all group winners first (A1, B1 ..., then A2, B2 ...), so that the
  standard positions keep the group winners apart and give them the byes.
"""

from host_tools.tournament import TournamentError
from host_tools.tournament.model import Spec
from host_tools.tournament.seeding import bracket_size, positions, snake

GROUP_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
GROUP_MAX = 32  # players in a group at most: 496 matches, a round robin a day can hold


def _mid(prefix, rnd, i):
    return "%s%d-%02d" % (prefix, rnd, i + 1)


def elimination(sources, double=False):
    """The Specs of a single (or double) elimination of `sources` (each side's source,
    in rank order)."""
    size = bracket_size(len(sources))
    rounds = size.bit_length() - 1
    order = positions(size)

    def seat(rank):
        return sources[rank - 1] if rank <= len(sources) else None

    specs = []
    ids = {}  # (round, index) -> id of the winners' bracket
    for r in range(1, rounds + 1):
        count = size >> r
        for i in range(count):
            last = r == rounds and not double
            mid = "F1" if last else _mid("W", r, i)
            ids[r, i] = mid
            if r == 1:
                a, b = seat(order[2 * i]), seat(order[2 * i + 1])
            else:
                a, b = "w:" + ids[r - 1, 2 * i], "w:" + ids[r - 1, 2 * i + 1]
            specs.append(Spec(mid, "final" if last else "winners", r, a, b))
    if not double:
        return specs
    if rounds < 2:
        raise TournamentError("a double elimination needs 3 players at least")
    lr = 1  # the losers' round
    count = size // 4
    prev = []
    for i in range(count):
        mid = _mid("L", lr, i)
        specs.append(Spec(mid, "losers", lr, "l:" + ids[1, 2 * i], "l:" + ids[1, 2 * i + 1]))
        prev.append(mid)
    for j in range(1, rounds):
        lr += 1
        count = len(prev)
        dropped = [ids[j + 1, i] for i in range(count)]
        if j % 2 == 1:
            dropped.reverse()
        now = []
        for i in range(count):
            mid = _mid("L", lr, i)
            specs.append(Spec(mid, "losers", lr, "w:" + prev[i], "l:" + dropped[i]))
            now.append(mid)
        prev = now
        if j < rounds - 1:
            lr += 1
            now = []
            for i in range(len(prev) // 2):
                mid = _mid("L", lr, i)
                specs.append(Spec(mid, "losers", lr, "w:" + prev[2 * i],
                                  "w:" + prev[2 * i + 1]))
                now.append(mid)
            prev = now
    specs.append(Spec("F1", "final", 1, "w:" + ids[rounds, 0], "w:" + prev[0]))
    specs.append(Spec("F2", "final", 2, "r:F1:a", "r:F1:b"))
    return specs


def round_robin(letter, sources):
    """The Specs of a round robin among `sources`: each pair once, in rounds (the circle
    method: nobody plays twice in a round)."""
    ring = list(sources) + ([None] if len(sources) % 2 else [])
    specs = []
    n = len(ring)
    for r in range(n - 1):
        for i in range(n // 2):
            a, b = ring[i], ring[n - 1 - i]
            if a is not None and b is not None:
                specs.append(Spec("G%s-%02d" % (letter, len(specs) + 1), "group " + letter,
                                  r + 1, a, b))
        ring = [ring[0], ring[-1]] + ring[1:-1]
    return specs


def group_stage(sources, groups, advance):
    """The group matches and the knockout of the top `advance` of each of `groups`."""
    if not 1 <= groups <= len(GROUP_LETTERS):
        raise TournamentError("--groups %d: 1 to %d groups", groups, len(GROUP_LETTERS))
    dealt = snake(sources, groups)
    smallest = min(len(g) for g in dealt)
    if max(len(g) for g in dealt) > GROUP_MAX:
        raise TournamentError("--groups %d: %d players make groups of %d: at most %d a group "
                              "(give more --groups)", groups, len(sources),
                              max(len(g) for g in dealt), GROUP_MAX)
    if smallest < 2:
        raise TournamentError("%d players make groups of %d: two players a group at least",
                              len(sources), smallest)
    if not 1 <= advance <= smallest:
        raise TournamentError("--advance %d: 1 to %d (the smallest group has %d players)",
                              advance, smallest, smallest)
    if groups * advance < 2:
        raise TournamentError("--groups %d --advance %d sends one player on: a knockout "
                              "needs two", groups, advance)
    specs = []
    for g, members in enumerate(dealt):
        specs += round_robin(GROUP_LETTERS[g], members)
    qualified = ["g:%s:%d" % (GROUP_LETTERS[g], place)
                 for place in range(1, advance + 1) for g in range(groups)]
    return specs + elimination(qualified)


def build(fmt, player_ids, groups=None, advance=None):
    """The Specs of a tournament of `fmt` for `player_ids` in rank order."""
    sources = ["p:%d" % p for p in player_ids]
    if fmt == "single":
        return elimination(sources)
    if fmt == "double":
        return elimination(sources, double=True)
    return group_stage(sources, groups, advance)
