"""Eight-ball, nine-ball and ten-ball racks (docs/rules.md, pool; seed 004 after the WPA).

The board records who wins each rack and the fouls; ball numbers (`pot 3 9`) are an
optional detail that shows the balls left and lets the board end a rack on a legal pot
of the game ball. Three fouls in a row lose the rack in nine- and ten-ball, only after
the warning on two; eight-ball has no three-foul rule. A club may switch the three-foul
rule off, or on in eight-ball (`rules threefoul=0|1`), and the push out off in nine- and
ten-ball (`rules pushout=0`): the match passes in what the header says.
"""

from .frame import Frame, other

_GAME_BALL = {"eightball": 8, "nineball": 9, "tenball": 10}
# The object balls of each game, 1 to this number: the one table (the key grammar's
# number entry reads it too).
BALLS = {"eightball": 15, "nineball": 9, "tenball": 10}


class PoolFrame(Frame):
    """One rack of eight-, nine- or ten-ball."""
    STATE = Frame.STATE + ("left", "strokes")

    def __init__(self, number, breaker, players, game, three_fouls, push_out):
        super().__init__(number, breaker, players)
        self.game = game
        self.game_ball = _GAME_BALL[game]
        self.left = (1 << (BALLS[game] + 1)) - 2  # bit n: ball n on the table
        self.strokes = 0  # strokes played in this rack; the first is the break
        # The three-foul rule and the push out, as the header sets them (Header.three_fouls,
        # Header.push_out: the WPA's rules unless `rules` says otherwise).
        self.three_fouls = three_fouls
        self.push_out = push_out

    def fill_view(self, v):
        """The `current` fields of the replay JSON into the View v: no score in pool."""
        return v.fill(self.striker, None, None, self.fouls, self.prompts())

    def prompts(self):
        return ["warn-fouls"] if self.three_fouls and self.warn_prompt() else []

    def balls_left(self):
        return [n for n in range(1, 16) if self.left >> n & 1]

    def record_score(self):
        return None

    def apply(self, word, args):
        self.check_open()
        if word == "rack":
            self._rack(args[0], "run" in args, "golden" in args)
        elif word == "pot":
            self._pot(args)
        elif word == "foul":
            self._foul()
        elif word == "end":
            self.reset_fouls(self.striker)
            self.strokes += 1
            self.change_striker()
        elif word == "warn":
            if not self.three_fouls:
                if self.game == "eightball":
                    raise ValueError("eight-ball has no three-foul rule")
                raise ValueError("the three-foul rule is off in this match")
            self.warn(args[0])
        elif word == "push":
            if self.game == "eightball":
                raise ValueError("no push out in eight-ball")
            if not self.push_out:
                raise ValueError("the push out is off in this match")
            if self.strokes != 1:
                raise ValueError("a push out is only the shot after the break")
            self.strokes += 1
            self.change_striker()
        elif word == "pass":
            if self.last != "push":
                raise ValueError("'pass' only right after a push out")
            self.change_striker()
        elif word == "award":
            self.award(args[0])
        else:
            raise ValueError("'%s' is not a word of %s" % (word, self.game))
        self.last = word

    def _rack(self, side, run, golden):
        if run or golden:
            if side != self.breaker or self.turns[other(side)]:
                raise ValueError("a break and run is the breaker's, in one visit")
        if golden and self.game != "nineball":
            raise ValueError("a golden break is nine-ball's")
        self.finish(side, "won")

    def _pot(self, balls):
        mask = 0
        for n in balls:
            bit = 1 << n
            if not self.left & bit:
                raise ValueError("ball %d is not on the table" % n)
            if mask & bit:
                raise ValueError("ball %d named twice" % n)
            mask |= bit
        s = self.striker
        on_break = self.strokes == 0
        game_bit = 1 << self.game_ball
        self.strokes += 1
        self.reset_fouls(s)
        if mask & game_bit and on_break and self.game_ball != 9:
            mask &= ~game_bit  # the 8 or the 10 on the break is spotted: no win
        self.left &= ~mask
        if mask & game_bit:
            self.finish(s, "won")

    def _foul(self):
        s = self.striker
        self.strokes += 1
        if not self.three_fouls:
            self.fouls[s] += 1  # counted for the display; no third foul is punished
        elif self.count_foul(s):
            self.finish(other(s), "fouls")
            return
        self.change_striker()
