"""The match: a header and its events folded into state.

Event-sourced: the state is the fold of the events. RAM holds only what the current
frame needs: the events since the last `frame` line (its *segment*) and a few running
totals. A finished frame leaves a small record in a *store*: a list on the host, a file
on the device's flash (`scoreboard.framestore`), so memory does not grow with the match.
`undo` drops the last event still in effect and folds the segment again from its start;
it cannot reach past the last `frame` line.
"""

from .notation import PRE_FRAME, SIDES, family
from .rules.frame import other, side_index
from .rules.pool import PoolFrame
from .rules.snooker import SnookerFrame
from .rules.straight import StraightFrame

# Words the match itself handles; the rest go to the frame.
_MATCH_WORDS = ("forfeit", "abandon", "called", "suspend", "resume", "clock", "go", "hit",
                "extend", "restart")
_WHILE_SUSPENDED = ("resume", "award", "forfeit", "abandon", "clock")


class ListStore:
    """Finished frames' records kept in RAM: for host tools and tests."""

    def __init__(self):
        self.items = []

    def add(self, record):
        self.items.append(record)

    def __iter__(self):
        return iter(self.items)

    def __len__(self):
        return len(self.items)


class Match:
    def __init__(self, header, store=None):
        header.check()
        self.header = header
        self.family = family(header.game)
        self.store = ListStore() if store is None else store
        self.players = (len(header.sides[0]), len(header.sides[1]))
        # Totals of the frames before the current one, fixed at each `frame` line.
        self.won = [0, 0]
        self.agg = [0, 0]
        self.high = [0, 0]
        self.counted = 0  # finished frames that count (restarted ones do not)
        self.number = 0  # the current frame's number; 0 before the first
        self.breaker = None  # who broke off the current frame
        self.events = []  # the segment: events since the last `frame` line
        self._clear_segment()

    # -- the segment ---------------------------------------------------------------------
    def _clear_segment(self):
        self.frame = self._new_frame(self.number, self.breaker) if self.number else None
        self.voided = []  # records of frames restarted in this segment
        self.result = None  # (how, winner, why) when the match was stopped
        self.suspended = False
        self.called_at = None

    def _new_frame(self, number, breaker):
        h = self.header
        if self.family == "snooker":
            on_frames = not h.by_points
            last = h.kind == "frames" and self.counted + 1 >= h.target
            return SnookerFrame(number, breaker, self.players, h.reds, h.rule("misses", 3),
                                on_frames or last, 0 if on_frames else self.agg[0] - self.agg[1])
        if self.family == "pool":
            return PoolFrame(number, breaker, self.players, h.game)
        return StraightFrame(number, breaker, self.players, h.target)

    def _refold(self):
        events = self.events
        self.events = []
        self._clear_segment()
        for e in events:
            self._apply(e)
            self.events.append(e)

    # -- applying events -----------------------------------------------------------------
    def apply(self, event):
        """Apply one parsed event; ValueError with the reason, and no change, if refused."""
        word = event[1]
        if word == "undo":
            if not self.events:
                raise ValueError("nothing to undo after the last 'frame' line"
                                 if self.number else "nothing to undo")
            self.events.pop()
            self._refold()
            return
        if word == "frame":
            self._start_frame(event[2])
            return
        self._apply(event)
        self.events.append(event)

    def _apply(self, event):
        ms, word, args = event
        if self.finished():
            raise ValueError("the match is over")
        if self.suspended and word not in _WHILE_SUSPENDED:
            raise ValueError("play is suspended: 'resume' first")
        args = tuple(side_index(a) if a in SIDES else a for a in args)
        f = self.frame
        if f is None and word not in PRE_FRAME:
            raise ValueError("no frame in progress: start one with 'frame'")
        if word in _MATCH_WORDS:
            self._match_word(word, args)
        elif word == "concede" and self.family != "snooker":
            f.check_open()
            self._stop(("conceded", other(f.striker), None), "conceded")
        else:
            f.apply(word, args)

    def _match_word(self, word, args):
        f = self.frame
        if word == "forfeit":
            self._stop(("disqualified" if args[1] == "disqualified" else "forfeited",
                        other(args[0]), args[1]), "forfeited")
        elif word == "abandon":
            self._stop(("abandoned", args[0] if args else None, None), "abandoned")
        elif word == "called":
            if self.number or self.called_at is not None:
                raise ValueError("the match was already called")
            self.called_at = 0
        elif word == "suspend":
            self.suspended = True
        elif word == "resume":
            if not self.suspended:
                raise ValueError("play is not suspended")
            self.suspended = False
        elif word == "restart":
            f.check_open()
            f.abort("restarted")
            self.voided.append(f.record())
            self.frame = self._new_frame(f.number, f.breaker)
        # `clock`, `go`, `hit`, `extend`: the shot clock (not yet wired).

    def _stop(self, result, how):
        f = self.frame
        if f is not None and not f.ended:
            f.abort(how)
        self.result = result

    def _start_frame(self, args):
        if self.finished():
            raise ValueError("the match is over")
        f = self.frame
        if f is not None and not f.ended:
            raise ValueError("frame %d is still in progress" % f.number)
        if self.suspended:
            raise ValueError("play is suspended: 'resume' first")
        breaker = self._next_breaker(args[0] if args else None)
        self._commit()
        self.number += 1
        self.breaker = breaker
        self.events = []
        self._clear_segment()

    def _next_breaker(self, asked):
        """Who breaks the next frame: the policy applied to the frame just finished."""
        last = self.frame
        if last is None:
            return 0 if asked is None else side_index(asked)
        policy = self.header.breaks
        if policy == "alternate" or last.winner is None:
            want = other(last.breaker)
        elif policy == "winner":
            want = last.winner
        else:
            want = other(last.winner)
        if asked is not None and side_index(asked) != want:
            raise ValueError("%s breaks frame %d (breaks %s)" % (SIDES[want], self.number + 1,
                                                                 policy))
        return want

    def _commit(self):
        """The segment is closed by a `frame` line: its frames go to the store."""
        for r in self.voided:
            self.store.add(r)
        f = self.frame
        if f is None:
            return
        self.store.add(f.record())
        if f.winner is not None:
            self.won[f.winner] += 1
        for s in (0, 1):
            self.agg[s] += f.score[s]
            if f.high[s] > self.high[s]:
                self.high[s] = f.high[s]
        self.counted += 1

    # -- derived -------------------------------------------------------------------------
    def frames_won(self):
        won = [self.won[0], self.won[1]]
        f = self.frame
        if f is not None and f.ended and f.winner is not None:
            won[f.winner] += 1
        return won

    def aggregate(self):
        f = self.frame
        if f is None or self.family == "pool":
            return self.agg
        return [self.agg[0] + f.score[0], self.agg[1] + f.score[1]]

    def outcome(self):
        """(finished, winner): winner 0, 1 or None."""
        if self.result is not None:
            return True, self.result[1]
        h = self.header
        won = self.frames_won()
        f = self.frame
        if h.kind == "best-of" or h.kind == "race-to":
            need = h.target // 2 + 1 if h.kind == "best-of" else h.target
            for s in (0, 1):
                if won[s] >= need:
                    return True, s
            return False, None
        if h.kind == "frames":
            counted = self.counted + (1 if f is not None and f.ended else 0)
            if counted < h.target:
                return False, None
            a, b = self.aggregate() if h.by_points else won
            return True, (0 if a > b else 1 if b > a else None)
        # points: one frame, which ends when a side reaches the target
        if f is not None and f.ended:
            return True, f.winner
        return False, None

    def finished(self):
        return self.outcome()[0]

    def frames(self):
        """Every frame started, in order: the stored ones, then this segment's."""
        for r in self.store:
            yield r
        for r in self.voided:
            yield r
        if self.frame is not None:
            yield self.frame.record()

    def current(self):
        """The frame in play, or None between frames and after the match."""
        f = self.frame
        if f is None or f.ended or self.finished():
            return None
        return f

    def high_breaks(self):
        f = self.frame
        if f is None:
            return self.high
        return [max(self.high[s], f.high[s], f.brk if f.striker == s else 0) for s in (0, 1)]
