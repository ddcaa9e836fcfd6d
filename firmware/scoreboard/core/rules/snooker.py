"""Snooker: the frame's rules (docs/rules.md, snooker; seed 000 after the WPBSA rules).

The board computes the score, the ball on, the reds left, points remaining, snookers
required, breaks, fouls and misses in a row, the end of the frame and the prompts; it
records what only the referee judges (a foul's value, a miss, a free ball, an award).
"""

from micropython import const

from ..vocab import COLOURS
from .frame import Frame, other

# What the striker is on. Colours in the colours stage are their values, 2 (yellow) to 7.
ANY = const(0)  # any colour: after a red, or after a free ball taken as a red
RED = const(1)
_YELLOW = const(2)
_BLACK = const(7)
_GONE = const(8)  # past the black: the table is empty
_MIN_FOUL = const(4)
_MAX_FOUL = const(7)

_STAGE_LEFT = (0, 0, 27, 25, 22, 18, 13, 7, 0)  # colours stage: sum of c..black


def colour_value(name):
    return COLOURS.index(name) + 2


def ball_name(on):
    if on == RED:
        return "red"
    if on == ANY:
        return "colour"
    if on >= _GONE:
        return None
    return COLOURS[on - 2]


def _split_balls(balls):
    """(number of reds, list of colour values) of the balls named in a pot or foul."""
    reds = 0
    colours = []
    for b in balls:
        if b == "red":
            reds += 1
        else:
            colours.append(colour_value(b))
    return reds, colours


class SnookerFrame(Frame):
    """One snooker frame.

    `level_ends_in_respot` says whether a level score after the last black goes to a
    re-spotted black (matches decided on frames, or the last frame of an aggregate
    match); `offset` is A's aggregate lead from earlier frames, so that in the last
    frame of an aggregate match it is the aggregate that must be level.
    """
    STATE = Frame.STATE + ("reds", "on", "free", "respotted", "misses", "pots", "received",
                             "pre", "foul_by", "foul_miss")

    def __init__(self, number, breaker, players, reds=15, misses_limit=3,
                 level_ends_in_respot=True, offset=0):
        super().__init__(number, breaker, players)
        self.reds = reds
        self.on = RED
        self.free = False
        self.respotted = False
        self.misses = [0, 0]
        self.misses_limit = misses_limit
        self.level_ends_in_respot = level_ends_in_respot
        self.offset = offset
        self.pots = [0, 0]  # points from pots, for the books: score = pots + received
        self.received = [0, 0]  # points from the other side's fouls and penalties
        self.pre = (RED, reds, False)  # (on, reds, free) before the last foul, for `replace`
        self.foul_by = 0  # the offender of the last foul: read only right after a foul
        self.foul_miss = False

    # -- derived -------------------------------------------------------------------------
    def ball_on(self):
        return ball_name(self.on)

    def remaining(self):
        on = self.on
        if on == RED:
            return 8 * self.reds + 27 + (8 if self.free else 0)
        if on == ANY:
            return 7 + 8 * self.reds + 27
        return _STAGE_LEFT[on] + (on if self.free and on < _GONE else 0)

    def only_black_left(self):
        return self.on == _BLACK and self.reds == 0

    def deficit(self):
        return abs(self.score[0] - self.score[1])

    def snookers_required(self):
        """0 while the side behind can still tie; None when only the black is left and
        the deficit is over 7; else the least k with k * max(4, ball on) >= D - P."""
        d = self.deficit()
        p = self.remaining()
        if d <= p:
            return 0
        if self.only_black_left():
            return None
        f = _MIN_FOUL if self.on <= RED else max(_MIN_FOUL, self.on)
        return (d - p + f - 1) // f

    def frame_ball(self):
        """Potting the ball on (the black when any colour is on) puts the striker out of
        reach, and the striker is not out of reach already."""
        if self.awaiting_respot or self.on >= _GONE:
            return False
        s = self.striker
        lead = self.score[s] - self.score[other(s)]
        p = self.remaining()
        if lead > p:
            return False
        if self.on == RED:
            gain, left = 1, p - 1  # a red; its colour stays among what remains
        elif self.on == ANY:
            gain, left = _BLACK, p - _BLACK
        else:
            gain, left = self.on, p - self.on
        return lead + gain > left

    def fill_view(self, v):
        """The `current` fields of the replay JSON into the View v. While the board
        waits for `respot` nobody is at the table (striker None), and the re-spotted
        black is on from the level score until the frame ends."""
        v.fill(None if self.awaiting_respot else self.striker, self.score, self.brk,
               self.fouls, self.prompts())
        v.ball_on = self.ball_on()
        v.reds = self.reds
        v.remaining = self.remaining()
        v.snookers_required = self.snookers_required()
        v.free_ball = self.free
        v.respotted_black = self.respotted or self.awaiting_respot
        v.misses = self.misses
        return v

    def prompts(self):
        out = []
        k = self.snookers_required()
        if k:
            out.append("snookers")
        d = self.deficit()
        if d and d == self.remaining() and not self.awaiting_respot:
            out.append("tie-only")
        if self.misses_limit > 1 and self.misses[self.striker] >= self.misses_limit - 1:
            out.append("warn-miss")
        if self.frame_ball():
            out.append("frame-ball")
        if self.awaiting_respot:
            out.append("respot")
        return out

    # -- events --------------------------------------------------------------------------
    def apply(self, word, args):
        """Apply one snooker word; ValueError with the reason, and no change, if refused."""
        self.check_open()  # while the black waits for `respot`, the match refuses the rest
        if word == "penalty":
            # Not a stroke: the order of play and what may follow a foul stay as they were.
            self._penalty(args[0], args[1])
            return
        missed = self.foul_by if self.last == "foul" and self.foul_miss else None
        if word == "pot":
            self._pot(args)
        elif word == "foul":
            self._foul(args)
        elif word == "end":
            self._end_visit()
        elif word == "again":
            self._after_foul(word)
            self.play_again(self.foul_by)
        elif word == "free":
            self._after_foul(word)
            self.free = True
        elif word == "replace":
            self._after_foul(word)
            if not self.foul_miss:
                raise ValueError("'replace' only after a foul with 'miss'")
            self.on, self.reds, self.free = self.pre
            self.play_again(self.foul_by)
            self.misses[self.foul_by] += 1
        elif word == "claim":
            self._claim()
        elif word == "concede":
            self.finish(other(self.striker), "conceded")
        elif word == "award":
            self.award(args[0])
        elif word == "respot":
            self._respot(args[0])
        else:
            raise ValueError("'%s' is not a snooker word" % word)
        if missed is not None and word != "replace":
            # Playing on from where the balls lie starts the miss count again.
            self.misses[missed] = 0
        self.last = word

    def _after_foul(self, word):
        if self.last != "foul":
            raise ValueError("'%s' only right after a foul" % word)

    def _next_on(self):
        """The ball on for the next visit."""
        if self.reds:
            return RED
        if self.on <= RED:
            return _YELLOW  # the colour after the last red has been played at
        return self.on

    def _pot(self, balls):
        free = balls[0] == "free"
        if free:
            if not self.free:
                raise ValueError("no free ball: 'free' comes right after the foul")
            balls = balls[1:]
        reds, colours = _split_balls(balls)
        on = self.on
        if reds and colours:
            raise ValueError("reds and a colour cannot both be potted legally")
        if len(colours) > 1:
            raise ValueError("only one colour can be potted in a stroke")
        if reds > self.reds:
            raise ValueError("only %d red(s) on the table" % self.reds)
        if on == RED:
            if colours:
                raise ValueError("ball on is red, not %s" % COLOURS[colours[0] - 2])
            points = reds + (1 if free else 0)
            after = ANY
        elif on == ANY:
            if free:
                raise ValueError("no free ball when any colour is on")
            if reds:
                raise ValueError("ball on is a colour, not red")
            points = colours[0]
            after = RED if self.reds else _YELLOW
        else:
            if reds:
                raise ValueError("no reds left: ball on is %s" % ball_name(on))
            if colours and colours[0] != on:
                raise ValueError("ball on is %s, not %s" % (ball_name(on),
                                                           COLOURS[colours[0] - 2]))
            points = on  # the ball on, or a free ball that scores as the ball on
            after = on + 1 if colours else on
        s = self.striker
        self.score[s] += points
        self.pots[s] += points
        self.brk += points
        self.fouls[s] = 0
        self.misses[s] = 0
        was_black = self.only_black_left()
        self.reds -= reds
        self.on = after
        self.free = False
        if was_black:
            self._last_black_played("potted")

    def _foul(self, args):
        value = args[0]
        balls = []
        miss = False
        for a in args[1:]:
            if a == "miss":
                miss = True
            elif a != "time":
                balls.append(a)
        if value < _MIN_FOUL or value > _MAX_FOUL:
            raise ValueError("a foul is worth 4 to 7, not %d" % value)
        on = self.on
        if on > RED and value < on:
            raise ValueError("ball on is %s: the foul is worth at least %d" % (ball_name(on),
                                                                                on))
        reds, colours = _split_balls(balls)
        if reds > self.reds:
            raise ValueError("only %d red(s) on the table" % self.reds)
        for c in colours:
            if on > RED and c < on:
                raise ValueError("%s is not on the table" % COLOURS[c - 2])
            if value < c:
                raise ValueError("%s dropped: the foul is worth at least %d" % (
                    COLOURS[c - 2], c))
        s = self.striker
        o = other(s)
        self.pre = (self.on, self.reds, self.free)
        self.score[o] += value
        self.received[o] += value
        self.fouls[s] += 1
        if not miss:
            self.misses[s] = 0
        self.foul_by = s
        self.foul_miss = miss
        was_black = self.only_black_left()
        self.reds -= reds
        self.free = False
        if was_black:
            self._last_black_played("fouled")
            return
        self.on = self._next_on()
        self.change_striker()

    def _end_visit(self):
        s = self.striker
        self.fouls[s] = 0
        self.misses[s] = 0
        self.free = False
        self.on = self._next_on()
        self.change_striker()

    def _last_black_played(self, how):
        """The first score or foul with only the black left ends the frame, unless the
        score is then level where a level score goes to a re-spotted black."""
        diff = self.score[0] - self.score[1]
        if self.level_ends_in_respot and diff + self.offset == 0:
            self.close_visit()
            self.awaiting_respot = True
            self.on = _BLACK
            return
        self.on = _GONE
        if diff == 0:
            self.finish(None, "drawn")
        else:
            self.finish(0 if diff > 0 else 1, how)

    def claim_refusal(self):
        """Why the striker may not claim the frame now, or None: the key grammar asks
        before the question (issue 33: check first, then ask), `claim` raises it."""
        if not self.only_black_left():
            return "a claim needs only the black left"
        s = self.striker
        if self.score[s] - self.score[other(s)] <= _BLACK:
            return "a claim needs a lead of more than 7"
        return None

    def _claim(self):
        why = self.claim_refusal()
        if why is not None:
            raise ValueError(why)
        self.finish(self.striker, "claimed")

    def _penalty(self, side, value):
        if value < _MIN_FOUL or value > _MAX_FOUL:
            raise ValueError("a penalty is worth 4 to 7, not %d" % value)
        self.check_penalised(side)
        o = other(side)
        self.score[o] += value
        self.received[o] += value

    def _respot(self, side):
        if not self.awaiting_respot:
            raise ValueError("the black is re-spotted only after a tie on the last black")
        self.awaiting_respot = False
        self.respotted = True
        self.striker = side
        self.on = _BLACK
