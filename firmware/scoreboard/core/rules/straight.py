"""Straight pool (14.1 continuous): points to a target, one frame (docs/rules.md).

One point a ball; a foul costs 1, an opening-break foul 2 (not one of three fouls);
the third foul in a row by a warned side costs 15 more, and that side breaks again
under opening-break rules with all 15 balls racked (unless the header's `rules
threefoul=0` switches that rule off: then no warning, and a third foul costs 1). With
one object ball left the other 14 are racked and the striker continues, so one `score`
scores at most 14 of a full table, and the referee's `rerack` is refused before one
ball is left. Scores may go below zero.
"""

from micropython import const

from .frame import Frame, other

_RACK = const(15)
_BREAK_FOUL = const(2)
_THIRD_FOUL_EXTRA = const(15)


class StraightFrame(Frame):
    STATE = Frame.STATE + ("balls", "opening", "pots", "lost")

    def __init__(self, number, breaker, players, target, three_fouls):
        super().__init__(number, breaker, players)
        self.target = target
        self.three_fouls = three_fouls  # the header's `rules threefoul`
        self.balls = _RACK  # object balls on the table
        self.opening = True  # the next stroke is an opening break
        self.pots = [0, 0]
        self.lost = [0, 0]  # points lost to fouls and penalties

    def fill_view(self, v):
        """The `current` fields of the replay JSON into the View v: points and the run."""
        return v.fill(self.striker, self.score, self.brk, self.fouls, self.prompts())

    def prompts(self):
        return ["warn-fouls"] if self.three_fouls and self.warn_prompt() else []

    def apply(self, word, args):
        self.check_open()
        last = self.last
        if word == "score":
            self._score(args[0])
        elif word == "foul":
            self._foul("break" in args)
        elif word == "again":
            if last != "foul-break":
                raise ValueError("'again' only right after an opening-break foul")
            self.play_again(other(self.striker))
            self.opening = True
        elif word == "end":
            self.opening = False
            self.reset_fouls(self.striker)
            self.change_striker()
        elif word == "rerack":
            # The balls are racked when one object ball is left (14 down), which the
            # board does itself (`_score`): a re-rack is recorded only where the table
            # holds 15 again (all 15 racked, or a journal that wrote the board's rack).
            if self.balls != _RACK:
                raise ValueError("%d balls on the table: the balls are racked when one is "
                                 "left" % self.balls)
        elif word == "warn":
            if not self.three_fouls:
                raise ValueError("the three-foul rule is off in this match")
            self.warn(args[0])
        elif word == "penalty":
            self.check_penalised(args[0])
            self._lose(args[0], args[1])
        elif word == "award":
            self.award(args[0])
        else:
            raise ValueError("'%s' is not a word of straight pool" % word)
        if word == "foul" and "break" in args:
            word = "foul-break"
        self.last = word

    def _lose(self, side, points):
        self.score[side] -= points
        self.lost[side] += points

    def _score(self, n):
        if n > self.balls:
            raise ValueError("only %d object balls on the table" % self.balls)
        if n == _RACK:  # 14 down racks them again: the 15th is then from the new rack
            raise ValueError("15 balls on the table: at most 14 before they are racked "
                             "again")
        s = self.striker
        self.opening = False
        self.score[s] += n
        self.pots[s] += n
        self.brk += n
        self.reset_fouls(s)
        self.balls -= n
        if self.balls <= 1:
            self.balls += _RACK - 1 if self.balls else _RACK  # re-rack 14, or all 15
        if self.score[s] >= self.target:
            self.finish(s, "won")

    def _foul(self, breaking):
        s = self.striker
        if breaking:
            if not self.opening:
                raise ValueError("'foul break' only on an opening break")
            self._lose(s, _BREAK_FOUL)
        else:
            self._lose(s, 1)
            if not self.three_fouls:
                self.fouls[s] += 1  # counted for the display; no third foul is punished
            elif self.count_foul(s):
                self._lose(s, _THIRD_FOUL_EXTRA)
                self.reset_fouls(s)
                self.close_visit()
                self.balls = _RACK
                self.opening = True
                return  # the offender breaks, under opening-break rules
        self.opening = False
        self.change_striker()
