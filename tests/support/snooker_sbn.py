"""The snooker rule tests' shared positions and helpers (tests/test_snooker_*.py): each
position's score is worked out by hand in its comment, from docs/rules.md and docs/notation.md.
"""

from support.sbn import HEADER

VALUES = {"yellow": 2, "green": 3, "brown": 4, "blue": 5, "pink": 6, "black": 7}
COLOURS = ["yellow", "green", "brown", "blue", "pink", "black"]


def reds(n):
    return "pot " + " ".join(["red"] * n)


def rb(k):
    """k times red then black by the striker: 8k points, k reds fewer."""
    return ["pot red", "pot black"] * k


def last_line(events):
    """Line number of the last of `events` after START (first event is line 7)."""
    return 6 + len(events)


def cur(st):
    assert st["current"] is not None, st
    return st["current"]


# A 27, B 0, B at the table on yellow (colours stage), remaining 27.
# A breaks: `end` (nothing); B fouls 5 (A 5); A pots 7 reds (12), black (19), the last
# 8 reds (27), misses the colour after the last red (`end`: A's break 22 recorded).
P27 = ["end", "foul 5", reds(7), "pot black", reds(8), "end"]
# B then pots yellow to pink: 2+3+4+5+6 = 20; B at the table on black, A 27 B 20.
YTOP = ["pot yellow", "pot green", "pot brown", "pot blue", "pot pink"]

# 35 v 60 with blue on, B at the table (same lines as scenarios/snooker-snookers-required).
S3560 = (
    rb(3) + ["end"]            # A 24 (break 24), reds 12
    + rb(7) + ["end"]          # B 56 (break 56), reds 5
    + ["pot red", "end"]       # A 25, reds 4, colour not played -> B on red
    + ["end"]                  # B misses -> A on red
    + ["foul 4 red red red"]   # A fouls, 3 reds stay down: reds 1, B 60
    + ["end"]                  # B misses -> A on red
    + ["pot red", "end"]       # A 26, reds 0, misses the colour -> B on yellow
    + ["end"]                  # B misses yellow -> A on yellow
    + ["pot yellow", "pot green", "pot brown", "end"]  # A 35, B on blue
)

BY_POINTS = HEADER.replace("match best-of 7", "match frames 2 by points")
# frame 1 won by A 34-20 on a foul on the last black
F1_A34_B20 = ["frame"] + P27 + YTOP + ["foul 7"]
# frame 2, B breaks, the mirror of P27: B 27 A 0, A on yellow; A pots yellow to pink (20)
F2_MIRROR = ["frame", "end", "foul 5", reds(7), "pot black", reds(8), "end"] + YTOP
