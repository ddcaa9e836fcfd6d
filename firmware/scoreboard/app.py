"""The app: the box's loop, wiring the board, the keys, the rules core, the screens and
the journal together.

    feed_keys -> Debouncer -> (start / set-up lists | Grammar) -> Match.apply -> Journal
                                                                   |
                              LED (every pass that changed it) <---+---> e-ink (policy)

One pass of everything is `step(now)`: the key scan, the shot-clock tick, the LED, the
e-ink refresh policy and the buzzer. `run()` (`main.py`, the box) calls that same
`step()` every SCAN_MS in real time, one task; only the e-ink refresh it decides on is
handed to a second task, which waits for the panel (about 0.7 s partial, 2 s full) while
the passes go on. The tests, the key-script device and the browser simulator call
`step()` with a clock of their own, so a whole match plays in virtual time; their boards'
panels need no waiting, and `step()` pushes the picture at once (`eink_show_now`). The
board is the contract of boards/board.py: the app uses nothing else of it.

A key is answered on the LED in the pass that reads it, once its line is on the flash:
the keys a pass reads (several when they waited while the flash was busy) are journaled
in one write (Journal.hold / commit), each line stamped with its own key's time (the
debouncer's `at`: when the keypad saw it, not when the pass got to it). The e-ink panel
gets a partial refresh per change, coalesced while keys come fast, a full one at a frame's end and
every `FULL_EVERY` partials (ui/refresh.py), never for the ticking clock (the LED's job).
An entry the rules refuse changes nothing: its reason goes on the panel with a low beep.
So does one the flash cannot take: the Match is rebuilt from the journal (what the box
shows is what the flash holds) and the box stays playable; while the flash is nearly
full the panel says about how many frames still fit. Past the stopwatches' range (6.2
days of match time, MAX_MS) only `abandon`, `forfeit` and `suspend` go in, stamped at
MAX_MS (the stamps must not go back, and none may be later), and the panel says why.
"""

from micropython import const

from scoreboard.core.clock import EV_BEEP, EV_TIME, EV_WARN
from scoreboard.core.notation import parse_event
from scoreboard.core.ticks import ticks_add, ticks_diff
from scoreboard.core.timekeeper import MAX_MS, MatchTime
from scoreboard.journal import Journal, JournalError, box_id
from scoreboard.keys.debounce import LONG, PRESS, Debouncer
from scoreboard.keys.grammar import Grammar
from scoreboard.keys.keymaps import keymap
from scoreboard import lang
from scoreboard.settings import (lang_of, led_level_of, load_settings, next_volume,
                                 save_settings, table_of, volume_of)
from scoreboard.sounds import Sounds
from scoreboard.startmenu import StartMenu
from scoreboard.ui import eink, led
from scoreboard.ui.model import Screen, late_minutes
from scoreboard.ui.refresh import Refresh

SCAN_MS = const(10)  # the pass period: a key reaches the LED within one
# After a long pass (a flash write: up to 0.45 s on a worn chip) with an e-ink refresh in
# hand, the next pass waits this share of it: the panel's bands are drawn between passes,
# and a referee tapping fast would otherwise leave it one band a write (seconds stale).
EINK_SHARE = const(3)  # the e-ink task gets 1 ms for every 3 of the pass's
# Heap set aside at the start, let go for the out-of-memory report: 512 B holds the
# report's line and the error screen's own allocations (the emulated Pico's ballast test,
# tests/emulated/test_pico_keys.py); 1 KB took the 32-bit build past its 40 KB budget.
RESERVE = const(512)
OUT_OF_MEMORY = "scoreboard: out of memory"  # when not even its report fits (outofmemory.py)
_FAMILY_DEFAULT = "snooker"
_OVERTIME_WORDS = ("abandon", "forfeit", "suspend")  # what still goes in past MAX_MS


class App:
    net = None  # the net task's Net (scoreboard/net/task.py) while App.run() runs one

    def __init__(self, board):
        self.board = board
        self.journal = Journal(board.flash, box_id(board.unique_id(), board.name),
                               errno_of=board.errno, free=board.free_bytes,
                               sync=board.sync)
        self.journal.echo = board.echo  # its lines on the console too (or None)
        self._reserve = bytearray(RESERVE)  # for the report of a MemoryError (fail)
        # room for every press the Pico's keypad ring can hand over in one pass
        self.keys = Debouncer(size=32)
        self._dropped = 0  # the debouncer's count of presses it could not keep, as shown
        self.settings = load_settings(self.journal.files)
        lang.use(lang_of(self.settings))  # every text the box shows, in the club's language
        self.buzzer = Sounds(board, volume_of(self.settings))
        board.led_level(led_level_of(self.settings))
        self.screen = Screen()
        self.match = None
        self.grammar = None
        self.menu = None  # the start / set-up lists while no match is on
        self.family = None  # the game family whose legend the keys are read with
        self.names = None  # its 16 key names (keymaps.keymap)
        self._legend(_FAMILY_DEFAULT)
        self.passes = 0
        self.time = MatchTime()  # match milliseconds (continue after a reset)
        self.refresh = Refresh()  # the e-ink's policy: when, and whether in full
        self._led_dirty = True
        self._led_due = -1  # ms from _led_at's draw until the LED changes by itself
        self._led_at = 0
        self._eink_wake = None  # run()'s e-ink task waits on this asyncio.Event (None: stepped)
        self._eink_next = None  # the refresh handed to it (full or not) until it is done
        self._overtime = False  # match time is past MAX_MS
        self.stopped = False
        # The desk's requests on the console (scoreboard/channel.py), where there is one.
        self.channel = None
        inp = board.echo.console_input() if board.echo is not None else None
        if inp is not None:  # imported only then: a runner without a console never pays
            from scoreboard.channel import Channel

            self.channel = Channel(self, inp, board.echo.out)

    # -- start-up --------------------------------------------------------------------
    def boot(self, now=None):
        """Recover the match in progress (or show the start screen); draw both panels."""
        now = self.board.ticks_ms() if now is None else now
        try:
            match, damage = self.journal.recover()
        except Exception as e:
            match, damage = None, "cannot read the journal: %s" % e
        if match is not None:
            self._take_match(match, now, match.last_ms)
        else:
            self._show_start()
        notes = []
        files = self.journal.files
        for name, aside in files.repaired:  # what was in the way on the flash (files.py)
            note = lang.t("a.set_aside") % (name, aside)
            if name == "settings.txt":
                note += lang.t("a.defaults")
            elif name == "counter":
                note += lang.t("a.renumbered") % files.next_number(self.journal.board_id)
            notes.append(note)
        if notes:
            notes = [lang.t("a.repaired") % "; ".join(notes)]
        if damage:
            notes.insert(0, lang.t("a.journal") % damage)
        if notes:
            self.screen.notice = " / ".join(notes)
        self._dirty(now, full=True)  # the first picture: up at once (ui/refresh.py)
        self._draw_led(now)

    def _take_match(self, match, now, base_ms):
        self.match = match
        self.menu = None
        self._overtime = False
        # the language of the match's event (its header's `lang`) while it is played,
        # else the box's own (settings.txt)
        lang.use(match.header.lang or lang_of(self.settings))
        self._legend(match.family)
        self.grammar = Grammar(match)
        self.time.resume(base_ms, now)
        self._update_screen()

    def _show_start(self):
        self.match = None
        self.grammar = None
        lang.use(lang_of(self.settings))  # a match's own language ends with it
        self.menu = StartMenu(self.journal.queue)
        self._legend(self.menu.family())
        self._update_screen()

    def _legend(self, family):
        """Read the keys with `family`'s legend (the match's, or the start screen's)."""
        self.family = family
        self.names = keymap(family)

    # -- time ------------------------------------------------------------------------
    def match_ms(self, now):
        """Milliseconds since the match started: what `@MS` stamps and the clock use (at
        most MAX_MS, the stopwatches' range)."""
        ms = self.time.ms(now)
        return MAX_MS if ms > MAX_MS else ms

    # -- one pass --------------------------------------------------------------------
    def step(self, now):
        """One pass of everything at `now`: the key scan, the shot-clock tick, the LED,
        the e-ink refresh when it is due, the buzzer. run() calls it every SCAN_MS; the
        runners with a clock of their own call it directly."""
        if self.stopped:
            return
        try:
            self.scan(now)
            self.tick(now)
            self.led_pass(now)
            self.eink_pass(now)
            self.buzzer.update(now)
            if self.channel is not None:
                self.channel.poll(now)
        except Exception as e:
            self.fail(e)
            if self._eink_wake is None:  # stepped: the error screen goes up now (run(): later)
                try:
                    self.board.eink_show_now(True, self.paint)
                except Exception:  # a panel that fails too: the journal is what matters
                    pass

    def scan(self, now):
        """Read the keys; act on every debounced press, each at its own time; their lines
        go to the flash in one write, then the LED answers. Allocates nothing without
        one."""
        self.passes += 1
        keys = self.keys
        self.board.feed_keys(keys, now)
        ev = keys.get()
        if ev >= 0:
            self.journal.hold()
            try:
                while ev >= 0:
                    kind = ev >> 8
                    if kind == PRESS or kind == LONG:
                        self._press(self.names[ev & 0xFF], kind == LONG, now, keys.at)
                    ev = keys.get()
            finally:
                self._commit(now)
            self.led_pass(now)
        if keys.dropped != self._dropped:  # a press the keys could not keep: say so
            self._dropped = keys.dropped
            self.screen.notice = lang.t("a.keys_lost")
            self.buzzer.play("refuse")
            self._dirty(now)

    def key(self, name, long, now, at=None):
        """One key press by name (a test's, a runner's), made at `at` (default `now`):
        its line journaled, then the LED answers in the same pass."""
        self.journal.hold()
        try:
            self._press(name, long, now, now if at is None else at)
        finally:
            self._commit(now)
        self.led_pass(now)

    def _press(self, name, long, now, at):
        """What a press does, its line held for the pass's one write (`_commit`)."""
        self.screen.message = None
        self.screen.notice = None
        if self.menu is not None:
            self._menu_key(name, long, now, at)
        elif name == "ok" and self.match.finished():
            self._close_match(now)
        else:
            result = self.grammar.press(name, long)
            if result.refusal:
                self._refuse(result.refusal, now)
            elif result.line:
                self._enter(result.line, now, at)
        self._update_screen()
        self._dirty(now)

    def _commit(self, now):
        """The held lines to the flash in one write; when the flash does not take them,
        back to what it holds, the reason on the panel. Whether they were saved."""
        try:
            self.journal.commit()
            return True
        except JournalError as e:
            self._flash_refused(e, now)
            return False

    def _flash_refused(self, e, now):
        """The flash did not take a line: the Match rebuilt from the journal (what the box
        shows is what the flash holds), the reason on the panel."""
        self.match = self.journal.reload()
        self.grammar = Grammar(self.match)
        self._led_dirty = True
        self._update_screen()
        self._refuse(str(e), now)

    def _menu_key(self, name, long, now, at):
        r = self.menu.press(name, long)  # a Result (keys/result.py), as the grammar's
        self._legend(self.menu.family())
        if r.refusal is not None:
            self._refuse(r.refusal, now)
            return
        if r.setting == "volume":
            self.set_volume(next_volume(self.buzzer.volume))
            return
        code = r.value
        if r.setting == "lang" and code:  # a long `undo` on the start screen: the language
            self.settings["lang"] = code
            save_settings(self.journal.files, self.settings)
            self.screen.notice = lang.t("a.language") % lang.name(code)
            return
        if r.header is not None:
            self._begin(r, now, at)

    def _begin(self, r, now, at):
        """Start the match of a start-screen Result (its header, who breaks, the queued
        file) and enter its first line: `frame A`, or the word chosen before it, made at
        `at` (match time 0). The referee's keys come here, and the desk's call
        (desk_called)."""
        try:  # refused on a full flash (after deleting pulled matches), a duplicate id...
            self.journal.start(r.header, r.queued)
        except JournalError as e:
            self._refuse(str(e), now)
            return
        self._take_match(self.journal.match, at, 0)
        self.grammar.first_breaker = 0 if r.breaker == "A" else 1  # if `line` is no frame
        self._enter(r.line, now, at)
        self._dirty(now, full=True)

    def desk_called(self, start, now):
        """The desk's call (the channel's `called`): the queued match started with its
        `called` line (`start`: StartMenu.start_named's Result), else `called` entered in
        the match in progress, by the path the referee's word before the first frame
        takes. The panels follow as after a key. The reason it did not go in (a flash
        that did not take it), or None."""
        self.screen.message = None
        if start is not None:
            self._begin(start, now, now)
        else:
            self._enter("called", now)
        self._update_screen()
        self._dirty(now)
        self._led_dirty = True
        return self.screen.message

    def state(self):
        """What the box is showing, for the desk (the channel's `hello`): start, setup
        (the set-up lists or the words before a queued match), match, over, error."""
        if self.screen.kind == "error":
            return "error"
        if self.menu is not None:
            return "setup" if self.menu.setting_up or self.menu.pre is not None else "start"
        return "over" if self.match.finished() else "match"

    def queue_changed(self, now):
        """The desk queued a match: the start screen lists it at once (not while the
        referee is in the set-up lists: they keep their place)."""
        if self.menu is not None and self.state() == "start":
            self.menu.refresh()
            self._legend(self.menu.family())
            self._update_screen()
            self._dirty(now)

    def table(self):
        """The table the box stands at (its settings, set by the desk), or None."""
        return table_of(self.settings)

    def set_table(self, number, now):
        """The desk sets the box's table (the channel's `table`): kept on flash, shown
        on the start screen at once."""
        if number is None:
            self.settings.pop("table", None)
        else:
            self.settings["table"] = "%d" % number
        save_settings(self.journal.files, self.settings)
        if self.menu is not None:
            self._update_screen()
            self._dirty(now)

    def set_volume(self, percent):
        """The buzzer's volume (0: mute), kept on flash; a beep at the new volume."""
        self.buzzer.volume = percent
        self.settings["volume"] = "%d" % percent
        save_settings(self.journal.files, self.settings)
        self.screen.notice = lang.t("a.sound") % (lang.t("a.sound_off") if percent == 0
                                                  else "%d%%" % percent)
        self.buzzer.play("beep")

    def _close_match(self, now):
        """`ok` on the end-of-match screen: the match is done on the box (its files stay
        until the host has pulled them); the start screen lists what is queued. The
        lines held before it (the match's last ones) are saved first."""
        if not self._commit(now):
            return
        self.journal.finish()
        self._show_start()
        self._dirty(now, full=True)

    def _enter(self, line, now, at=None):
        """Apply one notation line, made at `at` (default `now`), to the match and
        journal it, or refuse it. Its stamp is `at`'s match time, never before the last
        line's (the stamps must not go back)."""
        if self.time.ms(now) > MAX_MS and line.split(" ")[0] not in _OVERTIME_WORDS:
            self._refuse(lang.t("a.overtime"), now)
            return
        ms = self.match_ms(now if at is None else at)
        ms = max(ms, self.match.last_ms)
        text = "@%d %s" % (ms, line)
        try:
            event = parse_event(self.match.family, text)
            was_over = self._frame_over()
            self.match.apply(event)
        except ValueError as e:  # the rules' reason, in the box's language
            self._refuse(lang.refusal(str(e), self.family), now)
            return
        try:
            self.journal.append(text)
        except JournalError as e:  # the flash did not take it: back to what it holds
            self._flash_refused(e, now)
            return
        if self.match.finished():
            self.buzzer.play("match_end")
            self._dirty(now, full=True)
        elif self._frame_over() and not was_over:
            self.buzzer.play("frame_end")
            self._dirty(now, full=True)
        self._led_dirty = True

    def _frame_over(self):
        f = self.match.frame
        return f is not None and f.ended

    def _refuse(self, why, now):
        self.screen.message = why
        self.buzzer.play("refuse")
        self._dirty(now)

    # -- the shot clock ----------------------------------------------------------------
    def tick(self, now):
        m = self.match
        if m is None:
            return
        ms = self.time.ms(now)
        if ms > MAX_MS:
            if not self._overtime:  # once: the panel says why before a key is refused
                self._overtime = True
                self._update_screen()
                self._dirty(now)
            ms = MAX_MS
        late = late_minutes(m, ms)  # a called match's late start: the e-ink says each
        if late != self.screen.late_min:  # minute (never seconds), and when it is due
            self.screen.late_min = late
            self._update_screen()
            self._dirty(now)
        ev = m.clock.tick(ms)
        if ev == EV_TIME:
            self.buzzer.play("time")
            self._led_dirty = True
            self._update_screen()  # TIME on the e-ink too: the footer, the next foul's
            self._dirty(now)
        elif ev == EV_WARN:
            self.buzzer.play("warn")
        elif ev == EV_BEEP:
            self.buzzer.play("beep")

    # -- the LED panel -----------------------------------------------------------------
    def led_pass(self, now):
        """Redraw the LED when what it shows changed: a key, or the time it said it
        would change by itself (the next second, the next flash)."""
        if not self._led_dirty and (self._led_due < 0 or ticks_diff(now, self._led_at) < 0):
            return
        self._draw_led(now)

    def led_changed(self):
        """What the LED shows has changed: it is redrawn at the next pass (led_pass)."""
        self._led_dirty = True

    def _draw_led(self, now):
        self._led_dirty = False
        m = self.match
        self._led_due = led.draw(self.board.led, m, 0 if m is None else self.match_ms(now))
        if self._led_due >= 0:
            self._led_at = ticks_add(now, self._led_due)
        self.board.led_show()

    # -- the e-ink panel ---------------------------------------------------------------
    def _dirty(self, now, full=False):
        self.refresh.changed(now, full)

    def paint(self, canvas):
        """Draw the screen on `canvas`: the board calls this once per band of the e-ink
        panel that it sends (drivers/ssd1683.py), so no 15 KB canvas is ever held."""
        eink.draw(canvas, self.screen)

    def eink_pass(self, now):
        """The e-ink refresh, when one is due and the panel is free: pushed at once when
        the app is stepped (eink_show_now), handed to run()'s e-ink task in real time."""
        if self._eink_next is not None:  # the panel is still taking the last one
            return
        full = self.refresh.due(now)
        if full is None:
            return
        self.refresh.taken(full)
        wake = self._eink_wake
        if wake is None:
            self.board.eink_show_now(full, self.paint)
        else:
            self._eink_next = full
            wake.set()

    # -- what the screens show -----------------------------------------------------------
    def _update_screen(self):
        s = self.screen
        if self.menu is not None:
            self.menu.fill(s)
            table = self.table()  # the start screen's heading: the box's table
            s.title = None if table is None else lang.t("st.table") % table
            return
        m = self.match
        s.match = m
        g = self.grammar
        s.entry = g.entry()
        s.hint = g.hint()  # what the keys do now: the grammar's, never the start screen's
        s.error = None
        if g.menu_items:
            s.kind = "menu"
            s.menu_title = g.menu_title
            s.menu_items = g.menu_items
            s.menu_cursor = g.menu_cursor
        elif m.finished():
            s.kind = "match_end"
        elif self._frame_over():
            s.kind = "frame_end"
        else:
            s.kind = "score"
        if s.notice is None:  # what stands while it holds: past the range, a full flash
            s.notice = lang.t("a.overtime") if self._overtime else self.journal.warning()

    def fail(self, e):
        """The one handler of unexpected exceptions: the error screen, and the app stops
        taking keys. The journal is intact: every line was flushed when written, and
        the next start recovers the match from it. Out of memory, the heap set aside
        at the start is let go first, so that the report itself has room, one line goes
        to the console (a box on a desk's USB cable says why it stopped), and both
        panels say so in the club's language with what to do (scoreboard.outofmemory)."""
        if isinstance(e, MemoryError):
            self._reserve = None
            import gc

            gc.collect()
            try:
                from scoreboard import outofmemory

                outofmemory.mid_match(self.board, e)
            except MemoryError:  # not even that: the journal is what matters
                print(OUT_OF_MEMORY)
            self.show_error(lang.t("a.oom"))  # the table's text: nothing to allocate
        else:
            self.show_error("%s: %s" % (type(e).__name__, e))
        self.stopped = True
        self.buzzer.quiet()

    def note(self, text):
        """A notice on the panel from outside the keys (the net task's: the radio failed,
        the broker refused): it stands until the next key, or `unnote(text)`."""
        self.screen.notice = text
        self._dirty(self.board.ticks_ms())

    def unnote(self, text):
        """Take notice `text` down if it still stands."""
        if self.screen.notice == text:
            self.screen.notice = None
            self._update_screen()  # what stands in its place (a full flash's warning)
            self._dirty(self.board.ticks_ms())

    def show_error(self, text):
        """Make the error screen the one shown; the runner pushes it to the panel (a
        full refresh: `step` at once, `run` when its tasks have stopped)."""
        s = self.screen
        s.kind = "error"
        s.error = text

    def stop(self):
        """Stop cleanly (the channel's `stop`): nothing is pending in the journal."""
        self.stopped = True
        self.buzzer.quiet()
        self.journal.close()

    def show_stopped(self):
        """The app has stopped (main.py, after stop()): both panels say so, so that a
        referee never presses keys into a box that no longer listens. Best effort: a
        panel that fails leaves the journal as it was."""
        self.show_error(lang.t("a.stopped"))
        try:
            led.stopped(self.board.led)
            self.board.led_show()
            self.board.eink_show_now(True, self.paint)
        except Exception:
            pass

    # -- real time ---------------------------------------------------------------------
    async def run(self):
        """The box in real time until stopped: step() every SCAN_MS in this task, the
        very pass the tests step; the e-ink refreshes it decides on go to a second task,
        which waits for the panel while the passes go on. Any exception ends on the error
        screen with the journal intact; KeyboardInterrupt (mpremote, Ctrl-C) stops
        cleanly."""
        import asyncio

        board = self.board
        try:
            self.boot(board.ticks_ms())
        except Exception as e:  # out of memory in the recovery...: the error screen
            self.fail(e)

        def on_error(loop, context):
            self.fail(context.get("exception") or RuntimeError(context.get("message")))

        asyncio.get_event_loop().set_exception_handler(on_error)
        wake = self._eink_wake = asyncio.Event()
        panel = asyncio.create_task(self._eink_task(wake))
        net = _net_task(self)  # the journal to the desk over the club's Wi-Fi, if it can
        try:
            while not self.stopped:
                start = board.ticks_ms()
                self.step(start)
                rest = ticks_diff(board.ticks_ms(), start) // EINK_SHARE
                await asyncio.sleep_ms(rest if rest > SCAN_MS and self._eink_next is not None
                                       else SCAN_MS)
            if self.screen.kind == "error":
                try:
                    await board.eink_show(True, self.paint)
                except Exception:  # a panel that fails too: the journal is what matters
                    pass
        finally:
            panel.cancel()
            if net is not None:
                net.cancel()
            self._eink_wake = None
            self._eink_next = None
            self.stop()

    async def _eink_task(self, wake):
        """run()'s e-ink task: waits on `wake` until a pass hands it a refresh, then for
        the panel to take it (the driver awaits its BUSY line)."""
        while not self.stopped:
            await wake.wait()
            wake.clear()
            try:
                await self.board.eink_show(self._eink_next, self.paint)
            except Exception as e:
                self.fail(e)
            finally:
                self._eink_next = None


def _net_task(app):
    """The net task (scoreboard/net) beside the passes, on a board that can reach a
    network (a radio, or the computer's sockets), else None: a Pico without Wi-Fi never
    loads it. It waits quietly until the settings name a broker."""
    if app.board.radio is None:
        try:
            import socket  # noqa: F401  (the unix port's; the rp2 Pico has none)
        except ImportError:
            return None
    import asyncio

    from scoreboard.net.task import Net

    app.net = Net(app)
    return asyncio.create_task(app.net.run())
