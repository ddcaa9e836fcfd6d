"""What every game's frame (rack) shares: whose turn it is, visits, breaks, the end.

A frame is a small state machine fed one event at a time by `match.py`. Each game's
subclass validates an event completely before changing anything, so a refused event
(a `ValueError` carrying the reason) leaves the frame exactly as it was.
Sides are 0 (A) and 1 (B) inside the core; the notation's letters only at the edges.
"""

from micropython import const

_MIN_LISTED_BREAK = const(10)


def other(side):
    return 1 - side


def side_index(letter):
    return 0 if letter == "A" else 1


class Frame:
    """One frame or rack: the parts that do not depend on the game."""
    STATE = ("striker", "turns", "score", "brk", "breaks", "high", "fouls", "warned",
              "awaiting_respot", "ended", "winner", "how", "last")

    def __init__(self, number, breaker, players):
        self.number = number
        self.breaker = breaker
        self.striker = breaker
        self.players = players  # (players of A, players of B): 1 or 2 each
        self.turns = [0, 0]  # visits each side has started, for doubles rotation
        self.turns[breaker] = 1
        self.score = [0, 0]
        self.brk = 0  # the striker's current break (run)
        self.breaks = ([], [])  # finished breaks of 10 or more, per side, in order
        self.high = [0, 0]  # highest finished break per side, any size
        self.fouls = [0, 0]  # fouls in a row
        self.warned = [False, False]  # warned on two fouls (pool's three-foul rule)
        self.awaiting_respot = False  # snooker: a tie on the last black waits for `respot`
        self.ended = False
        self.winner = None
        self.how = None
        self.last = None  # the previous game word applied, for words valid only after it

    # -- derived -------------------------------------------------------------------------
    def player(self):
        """Which player of the striking side is at the table (0 or 1): doubles alternate."""
        return (self.turns[self.striker] - 1) % self.players[self.striker]

    def prompts(self):
        return []

    # -- changes shared by all games -----------------------------------------------------
    def close_visit(self):
        """The striker's visit ends: its break, if any, joins the records."""
        b = self.brk
        if b:
            s = self.striker
            if b >= _MIN_LISTED_BREAK:
                self.breaks[s].append(b)
            self.high[s] = max(self.high[s], b)
        self.brk = 0

    def change_striker(self):
        self.close_visit()
        self.striker = other(self.striker)
        self.turns[self.striker] += 1

    def play_again(self, offender):
        """After a foul the offender is made to play again: the incoming side's visit is
        taken back, and the same player of the offending side plays on."""
        self.turns[self.striker] -= 1
        self.striker = offender

    def finish(self, winner, how):
        self.close_visit()
        self.ended = True
        self.winner = winner
        self.how = how

    def abort(self, how):
        """The match stops with this frame unfinished (forfeit, abandon)."""
        self.finish(None, how)

    def check_open(self):
        if self.ended:
            raise ValueError("frame %d is over: start the next with 'frame'" % self.number)

    def check_penalised(self, side):
        """`penalty A N` is for a side not at the table (seed 000 3.2.b.ii)."""
        if side == self.striker:
            raise ValueError("the side at the table commits a foul, not a penalty")

    def award(self, side):
        self.check_open()
        self.finish(side, "awarded")

    # -- the three-foul rule (nine-ball, ten-ball, straight pool; seed 004 2.13) ----------
    def reset_fouls(self, side):
        self.fouls[side] = 0
        self.warned[side] = False

    def warn(self, side):
        if self.fouls[side] != 2 or self.warned[side]:
            raise ValueError("a warning is given on two fouls in a row, once")
        self.warned[side] = True

    def count_foul(self, side):
        """One more foul in a row by side; True when it is a third foul that is punished.
        Without the warning a third foul counts only as the second."""
        if self.fouls[side] == 2 and not self.warned[side]:
            return False
        self.fouls[side] += 1
        return self.fouls[side] >= 3

    def warn_prompt(self):
        s = self.striker
        return self.fouls[s] == 2 and not self.warned[s]

    def record(self):
        """What a finished frame leaves for the match record (see match.FrameRecord)."""
        return (self.number, self.breaker, self.record_score(), self.winner, self.how,
                tuple(self.breaks[0]), tuple(self.breaks[1]))

    def record_score(self):
        return (self.score[0], self.score[1])
