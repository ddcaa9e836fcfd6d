"""Keys that waited (issue 36): what the app does with a backlog a Pico's keypad hands
over after the flash kept the CPU busy, on CPython.

A board whose keypad keeps every change with its time, as the PIO's DMA ring does
(drivers/pio_keypad.py), and hands them over at the app's next pass; passes come
seldom, as when each write waits 400 ms for a worn flash chip. From the contract:

- the keys of one pass are journaled in one write, in order, each line stamped with its
  own key's time (not the pass's);
- the LED shows them once they are on the flash, and the "keys too fast" notice stays
  off: nothing was lost;
- a power cut at any byte of those writes (a sample; every byte under `-m slow`) leaves
  a journal the app recovers to the replay of its whole lines, never the error screen.
"""

import sys

import pytest
from boards.host import HostBoard
from host_tools.measure.app_bench import HEADER, match_keys
from scoreboard import lang
from scoreboard.app import App
from scoreboard.keys.keymaps import keymap
from support import device, mpy, powercut

sys.path.insert(0, str(mpy.REPO / "tests" / "micropython"))
import journal_play as jp

LEGEND = keymap("snooker")
PERIOD = 125  # 8 taps a second
HOLD = 30
PASS_EVERY = 450  # a pass that waits for a worn flash chip's erase (400 ms) and pages


class QueuedKeys(HostBoard):
    """A host board whose keypad keeps each change with its time and hands the ones due
    to the app's pass (`keys.take`), as the Pico's PIO ring does; it counts the flash
    syncs (one per journal write)."""

    def __init__(self, flash):
        super().__init__(flash)
        self.changes = []  # (at, bitmap), in time order
        self.state = 0
        self.syncs = 0

    def feed_keys(self, keys, now):
        while self.changes and self.changes[0][0] <= now:
            at, self.state = self.changes.pop(0)
            keys.take(self.state, at)
        keys.take(self.state, now)

    def sync(self):
        self.syncs += 1
        super().sync()


def rig(flash, frames=1):
    device.queue(flash, "m", [line % frames if "%d" in line else line for line in HEADER])
    board = QueuedKeys(str(flash))
    app = App(board)
    app.boot(0)
    return board, app


def tap(board, name, down):
    """Key `name` down at `down`, up HOLD ms later; the release's time."""
    bit = 1 << LEGEND.index(name)
    board.changes += [(down, bit), (down + HOLD, 0)]
    return down + HOLD


def step(board, app, now):
    board.now = now
    app.step(now)


def journal(flash):
    return device.journal_files(flash)[-1].read_text(encoding="utf-8").splitlines()


def test_a_backlog_is_one_write_each_line_at_its_own_time(tmp_path):
    board, app = rig(tmp_path)
    start = tap(board, "ok", 1000)
    step(board, app, 1100)  # the match starts: `frame A` at the ok's release
    names = ["red", "black", "end", "red", "yellow", "end"]
    releases = [tap(board, name, 1200 + i * PERIOD) for i, name in enumerate(names)]
    syncs = board.syncs
    step(board, app, 2000)  # the flash kept the CPU away: all six in this pass
    assert board.syncs - syncs == 1, "one write for the pass's lines"
    lines = [line.rsplit(" *", 1)[0] for line in journal(tmp_path) if line.startswith("@")]
    assert lines == ["@0 frame A"] + ["@%d %s" % (r - start, text) for r, text in zip(
        releases, ["pot red", "pot black", "end", "pot red", "pot yellow", "end"])]
    assert app.screen.notice != lang.t("a.keys_lost"), "nothing was lost"
    assert app.match.frame.score == [8, 3]


def test_the_led_never_shows_a_line_the_flash_does_not_hold(tmp_path):
    board, app = rig(tmp_path)
    tap(board, "ok", 1000)
    step(board, app, 1100)
    for i, name in enumerate(["red", "black", "end"]):
        tap(board, name, 1200 + i * PERIOD)
    shown = []  # at each LED picture: the match's strokes, and the journal's lines

    def led():
        shown.append((app.match.strokes, len(journal(tmp_path))))

    board.on_led = led
    step(board, app, 2000)
    assert shown, "the LED answered the keys"
    assert all(pair == shown[-1] for pair in shown), "each picture after the write: %s" % shown
    assert shown[-1][0] == 3  # red, black, and the miss that ends the visit


def test_a_stroke_stamped_before_the_line_before_it_is_not(tmp_path):
    """A key that waited behind the desk's call (stamped at the call's pass) keeps the
    journal's stamps in order: never earlier than the line before it."""
    board, app = rig(tmp_path)
    tap(board, "ok", 1000)
    step(board, app, 1100)
    tap(board, "red", 1200)
    app.desk_called(None, 1500)  # `called`, stamped at 1500 - 1030
    step(board, app, 1600)
    stamps = [int(line.split()[0][1:]) for line in journal(tmp_path) if line.startswith("@")]
    assert stamps == sorted(stamps), stamps


# -- power cuts in the writes of a backlog ---------------------------------------------------

def record(tmp_path, monkeypatch):
    """A best-of-1 tapped at 8 a second with a pass every PASS_EVERY ms, every flash
    change logged: (ops, start folder, root)."""
    root = tmp_path / "flash"
    device.queue(root, "m1", [line % 1 if "%d" in line else line for line in HEADER])
    start = tmp_path / "start"
    import shutil

    shutil.copytree(root, start)
    rec = powercut.Recorder(root)
    rec.install(monkeypatch, *powercut.journal_modules())
    board = QueuedKeys(str(root))
    app = App(board)
    app.boot(0)
    keys = match_keys(1)
    for i, name in enumerate(keys):
        tap(board, name, 1000 + i * PERIOD)
    now = 0
    while board.changes or now < 1000 + len(keys) * PERIOD + 1000:
        now += PASS_EVERY
        step(board, app, now)
    assert app.match.finished() or app.match.frame.ended
    rec.on = False
    monkeypatch.undo()
    return rec.ops, start, root


def run_cuts(tmp_path, monkeypatch, step_bytes):
    ops, start, root = record(tmp_path, monkeypatch)
    batched = [op for op in ops if op[0] == "write" and op[2].count(b"\n") > 1
               and op[1].endswith(".sbn")]
    assert len(batched) > 5, "the keys were journaled several to a write"
    tried = 0
    dest = tmp_path / "cut"
    for k, j in cut_points(ops, step_bytes):
        powercut.flash_at(ops, k, j, start, root, dest)
        board = HostBoard(str(dest))
        app = App(board)
        app.boot(0)
        app.step(10)
        where = "cut at op %d byte %d" % (k, j)
        assert not app.stopped and app.screen.kind != "error", (where, app.screen.error)
        files = device.journal_files(dest)
        if app.match is not None and files:
            whole = jp.lines_of(files[-1].read_bytes())
            assert jp.report(app.match) == jp.replay_lines(whole), where
        tried += 1
    return tried


def cut_points(ops, step_bytes):
    """Every op boundary, and every `step_bytes`-th byte inside the journal's writes."""
    n = 0
    for k, op in enumerate(ops):
        yield k, 0
        if op[0] == "write" and op[1].endswith(".sbn"):
            for j in range(1, len(op[2])):
                n += 1
                if n % step_bytes == 0:
                    yield k, j


def test_power_cuts_in_backlog_writes_sample(tmp_path, monkeypatch):
    assert run_cuts(tmp_path, monkeypatch, 11) > 150


@pytest.mark.slow
def test_power_cuts_in_backlog_writes_at_every_byte(tmp_path, monkeypatch):
    assert run_cuts(tmp_path, monkeypatch, 1) > 1000
