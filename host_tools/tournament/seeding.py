"""Who goes where: the players ranked (the seeded ones by their seed, then the others
drawn at random from the tournament's recorded seed: the same seed, the same draw), the
standard bracket positions (seeds 1 and 2 in opposite halves, 1 to 4 in different
quarters, and so on: the top two can meet only in the final, and the byes of a field
that is not a power of two fall to the top seeds), and the groups, filled by snake
seeding (1 2 3 4 / 8 7 6 5 / 9 ...).
"""

import random


def ranked(entries, draw_seed):
    """The indexes of `entries` (each with a `.seed`, int or None) in rank order: the
    seeded ones by seed, then the unseeded in the order drawn from `draw_seed`."""
    seeded = sorted((i for i, e in enumerate(entries) if e.seed is not None),
                    key=lambda i: (entries[i].seed, i))
    others = [i for i, e in enumerate(entries) if e.seed is None]
    random.Random(draw_seed).shuffle(others)
    return seeded + others


def bracket_size(n):
    """The least power of two with room for `n` (2 at least)."""
    size = 2
    while size < n:
        size *= 2
    return size


def positions(size):
    """The ranks (1-based) in bracket order for a bracket of `size` (a power of two):
    positions(8) == [1, 8, 4, 5, 2, 7, 3, 6]; each pair is a first-round match."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [r for s in order for r in (s, total - s)]
    return order


def snake(items, groups):
    """`items` (in rank order) dealt into `groups` lists by snake seeding."""
    out = [[] for _ in range(groups)]
    for i, item in enumerate(items):
        lap, at = divmod(i, groups)
        out[at if lap % 2 == 0 else groups - 1 - at].append(item)
    return out
