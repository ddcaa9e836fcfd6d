"""The match: a header and its events folded into state.

Event-sourced: the state is the fold of the events. RAM holds only what the current
frame needs: the events since the last `frame` line (its *segment*) and a few running
totals. A finished frame leaves a small record in a *store*: a list on the host, a file
on the device's flash (`store.py`), so memory does not grow with the match.
`undo` drops the last event still in effect and folds the segment again from the
nearest snapshot before it (`snapshot.py`), so it costs what it withdraws, not the
whole frame; it cannot reach past the last `frame` line.

What the device code reads: `view()` (the frame in play, a `views.View`), `timing()`
(a `views.Timing`), `time` (the `timekeeper.Timekeeper`: clock, stopwatches, shot
times), `outcome()`, `result()`, `frames()`. For the journal: `checkpoint()` is the
start of the current segment as one line of text, `Match.restore(header, store, text)`
rebuilds the match from it (then the segment's lines are replayed on it).
"""

from . import checkpoint, vocab
from .vocab import PRE_FRAME, RESPOT_OK, SUSPENDED_OK, family
from .notation import clock_settings
from .vocab import SIDES
from .rules.frame import other, side_index
from .segment import Segment
from .snapshot import Snapshots, load
from .store import ListStore
from .timekeeper import Timekeeper
from .views import View

_WORDS = vocab.WORDS


class Match:
    # Attributes that are caches, not state: undo need not give them back.
    SCRATCH = ("_view", "_snaps")
    # What a snapshot inside a segment saves (snapshot.py).
    STATE = ("frame", "voided", "result_how", "suspended", "strokes", "time")

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
        self.base_records = len(self.store)  # records in the store when the segment began
        self.events = Segment(self.family)  # the events since the last `frame` line
        self.time = Timekeeper(clock_settings(header.clock) if header.clock else None,
                               60 * header.rule("late", header.LATE))
        self._view = View()
        self._snaps = Snapshots()
        self._clear_segment()

    # -- the segment ---------------------------------------------------------------------
    def fresh_segment(self):
        """A segment with no event yet, from the totals and the timekeeper's base (the
        segment's chunks kept: a frame as long as an earlier one allocates none)."""
        self.events.clear()
        self._snaps.clear()
        self._clear_segment()

    def _clear_segment(self):
        self.frame = self._new_frame(self.number, self.breaker) if self.number else None
        self.voided = []  # records of frames restarted in this segment
        self.result_how = None  # (how, winner, why) when the match was stopped
        self.suspended = False
        self.strokes = 0  # in this frame; the shot after the break-off has its own limit
        self.time.restart()

    def _new_frame(self, number, breaker):
        # Only the match's own game's rules are imported: none of the others' RAM.
        h = self.header
        if self.family == "snooker":
            from .rules.snooker import SnookerFrame

            on_frames = not h.by_points
            last = h.kind == "frames" and self.counted + 1 >= h.target
            return SnookerFrame(number, breaker, self.players, h.reds, h.rule("misses", h.MISSES),
                                on_frames or last, 0 if on_frames else self.agg[0] - self.agg[1])
        if self.family == "pool":
            from .rules.pool import PoolFrame

            return PoolFrame(number, breaker, self.players, h.game, h.three_fouls(),
                             h.push_out())
        from .rules.straight import StraightFrame

        return StraightFrame(number, breaker, self.players, h.target, h.three_fouls())

    def _rewind(self):
        """After `undo` dropped the last event: the state of the events that remain,
        folded again from the nearest snapshot (or the segment's start), leaving fine
        snapshots on the way for the undos that may follow."""
        events = self.events
        n = len(events)
        snaps = self._snaps
        near = snaps.nearest(n)
        if near is None:
            self._clear_segment()
            count, offset = 0, 0
        else:
            count, offset, saved = near
            load(saved)
        for e, end in events.entries(count, offset):
            self._apply(e)
            count += 1
            snaps.fine(self, count, end, n)

    # The clock and the shot times, read by the app, the screens and the report.
    @property
    def clock(self):
        return self.time.clock

    @property
    def last_ms(self):
        return self.time.last_ms

    @property
    def stamped(self):
        return self.time.stamped

    # -- applying events -----------------------------------------------------------------
    def apply(self, event):
        """Apply one parsed event; ValueError with the reason, and no change, if refused."""
        word = event[1]
        if word == "undo":
            if not self.number:
                raise ValueError("no undo before the first 'frame'")
            if not self.events:
                raise ValueError("nothing to undo after the last 'frame' line")
            self.events.pop()
            self._rewind()
            return
        if word == "frame":
            self._start_frame(event[0], event[2])
            return
        self._apply(event)
        events = self.events
        events.append(event)
        snaps = self._snaps
        if not events.count % snaps.every:
            snaps.appended(self, events.count, events.used)

    def _apply(self, event):
        ms, word, args = event
        t = self.time
        if ms is None:
            ms = t.last_ms
        elif ms < t.last_ms:
            t.at(ms)  # refused: earlier than the last stamp
        if self.finished():
            raise ValueError("the match is over")
        row = _WORDS[word]
        kind = row[2]
        flags = row[3]
        if self.suspended and not flags & SUSPENDED_OK:
            raise ValueError("play is suspended: 'resume' first")
        if args:
            args = tuple(side_index(a) if a in SIDES else a for a in args)
        f = self.frame
        if f is None:
            if not flags & PRE_FRAME:
                raise ValueError("no frame in progress: start one with 'frame'")
        elif f.awaiting_respot and not flags & RESPOT_OK:
            raise ValueError("the black is re-spotted first: 'respot A' or 'respot B'")
        if kind == "match" or kind == "clock":
            self._match_word(word, args, ms, event[0] is not None)
        elif word == "concede" and self.family != "snooker":
            f.check_open()
            self._stop(("conceded", other(f.striker), None), "conceded")
        else:
            f.apply(word, args)
            self._after_frame_word(kind, ms, event[0] is not None)
        if event[0] is not None:
            self.time.mark(ms)

    def _after_frame_word(self, kind, ms, stamped):
        """After a stroke the shot is over; after a stroke or a decision (`again`,
        `free`, `replace`, `respot`, `pass`, `rerack`) the balls are set for the next
        shot, which is timed (and on the clock) from now unless the clock waits for
        `go`. A line without a stamp has no known time: it times no shot. A ruling
        (`warn`, `penalty`, `award`, `claim`, `concede`) is not a shot."""
        if kind == "ruling":
            return
        t = self.time
        if kind == "stroke":
            self.strokes += 1
        if kind == "stroke" or kind == "result":  # the rack's last shot was played
            t.clock.stop(ms)
            if stamped:
                t.shots.strike(ms)
        clock = t.clock
        if self.frame.ended or (clock.enabled and clock.settings.wait_go):
            t.shots.cancel()
        else:
            self._set(ms, stamped)

    def _set(self, ms, stamped):
        """The balls are set for the striker: the shot is on the clock, and timed."""
        striker = self.frame.striker
        t = self.time
        t.clock.start(ms, striker, self.strokes == 1)
        if stamped:
            t.shots.start(ms, striker)
        else:
            t.shots.cancel()

    def _match_word(self, word, args, ms, stamped):
        f = self.frame
        t = self.time
        if word == "forfeit":
            self._stop(("disqualified" if args[1] == "disqualified" else "forfeited",
                        other(args[0]), args[1]), "forfeited")
        elif word == "abandon":
            self._stop(("abandoned", args[0] if args else None, None), "abandoned")
        elif word == "called":
            if self.number or t.late.active:
                raise ValueError("the match was already called")
            t.late.call(ms)
        elif word == "suspend":
            if self.suspended:
                raise ValueError("play is already suspended")
            self.suspended = True
            t.pause(ms)
        elif word == "resume":
            if not self.suspended:
                raise ValueError("play is not suspended")
            self.suspended = False
            t.resume(ms)
        elif word == "restart":
            f.check_open()
            f.abort("restarted")
            self.voided.append(f.record())
            self.frame = self._new_frame(f.number, f.breaker)
            self.strokes = 0
            t.clock.new_frame()
            t.shots.cancel()
        elif word == "clock":
            if args[0] == "off":
                if not t.clock.enabled:
                    raise ValueError("the shot clock is already off")
                t.clock.off()
            else:
                t.clock.configure(clock_settings(args[1:]))
        elif word == "go":
            f.check_open()
            self._set(ms, stamped)
        elif word == "hit":
            t.clock.stop(ms)
            if stamped:
                t.shots.strike(ms)
        elif word == "extend":
            f.check_open()
            if not t.clock.enabled:
                raise ValueError("no shot clock")
            c = t.clock
            if not c.extend(ms):  # the reason itself, short enough for the panel's line
                if not c.active:
                    raise ValueError("no shot on the clock to extend: ok is go")
                if c.expired:
                    raise ValueError("the shot has run out: no extension")
                if c.first:
                    raise ValueError("no extension on the first shot after the break")
                if c.extensions_left(c.side) <= 0:
                    raise ValueError("no extension left")
                raise ValueError("no extension: none left, no shot on the clock, or the "
                                 "first shot after the break")

    def _stop(self, result, how):
        f = self.frame
        if f is not None and not f.ended:
            f.abort(how)
        self.result_how = result

    def _start_frame(self, ms, args):
        if self.finished():
            raise ValueError("the match is over")
        f = self.frame
        if f is not None and not f.ended:
            raise ValueError("frame %d is still in progress" % f.number)
        if self.suspended:
            raise ValueError("play is suspended: 'resume' first")
        stamped = self.time.stamped or ms is not None
        ms = self.time.at(ms)
        breaker = self._next_breaker(args[0] if args else None)
        self._commit()
        self.number += 1
        self.breaker = breaker
        self.base_records = len(self.store)
        self.time.new_segment(ms, stamped)
        self.fresh_segment()

    def next_breaker(self):
        """Who breaks the next frame (0 or 1): the header's break policy applied to the
        frame just finished; None before the first frame (the referee chooses). The one
        rule: `frame` applies it, the key grammar announces it."""
        last = self.frame
        if last is None:
            return None
        policy = self.header.breaks
        if policy == "alternate" or last.winner is None:
            return other(last.breaker)
        return last.winner if policy == "winner" else other(last.winner)

    def _next_breaker(self, asked):
        """The breaker of a `frame` line: the policy's, and `asked` must agree with it."""
        want = self.next_breaker()
        if want is None:
            return 0 if asked is None else side_index(asked)
        if asked is not None and side_index(asked) != want:
            raise ValueError("%s breaks frame %d (breaks %s)" % (SIDES[want], self.number + 1,
                                                                 self.header.breaks))
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
            self.high[s] = max(self.high[s], f.high[s])
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
        if self.result_how is not None:
            return True, self.result_how[1]
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

    def view(self):
        """The frame in play as a View (`views.py`): the `current` fields of the replay
        JSON, the clock's TIME among the prompts. The same View each time, refilled."""
        v = self.current().fill_view(self._view)
        if self.time.time_is_up():
            v.prompts.append("time")
        return v

    def result(self):
        """(how, why, score) once the match is over, else None. `how`: played, conceded,
        forfeited, disqualified, abandoned; an interrupted or disqualified match keeps
        only its winner and loser marks (seed 004 1.14): its score is None."""
        finished, _ = self.outcome()
        if not finished:
            return None
        if self.result_how is not None:
            how, _, why = self.result_how
            return how, why, None
        if self.family == "straight":
            return "played", None, tuple(self.frame.score)
        if self.header.by_points:  # decided on aggregate points: the points are the score
            return "played", None, tuple(self.aggregate())
        return "played", None, tuple(self.frames_won())

    def timing(self):
        """Elapsed times and shot statistics from the `@MS` stamps, as a Timing
        (`views.py`); None when no line in effect carries a stamp."""
        return self.time.report(self.frame is not None)

    # -- checkpoints (checkpoint.py) -------------------------------------------------------
    def checkpoint(self):
        """Everything needed to rebuild this match as it was right after its last `frame`
        line (the start of the current segment), as one ASCII line without spaces or
        line end. `Match.restore(header, store, text)` with the same header and a store
        holding the same records gives that match back; the segment's lines replayed on
        it then give exactly the state of a full replay."""
        return checkpoint.write(self)

    @classmethod
    def restore(cls, header, store, text):
        """The match at the start of the segment that `checkpoint()` wrote `text` for.
        ValueError when the text is not a checkpoint or disagrees with the store."""
        return checkpoint.read(cls(header, store), text)

    def high_breaks(self):
        f = self.frame
        if f is None:
            return self.high
        return [max(self.high[s], f.high[s], f.brk if f.striker == s else 0) for s in (0, 1)]

