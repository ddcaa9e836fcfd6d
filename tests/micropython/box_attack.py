"""The box under attack (issue 14): the real app on the host board, driven by commands,
printing what the referee would see. Runs unchanged under CPython and MicroPython; the
test (tests/app/test_box_attack.py) compares the outputs of the interpreters.

    micropython tests/micropython/box_attack.py --flash DIR [--flash-kb N] < commands

Every command of host_tools/mp/device.py (`press NAME`, `wait MS`, `show`, `status`,
`reset`, `heap`...), and:

    text           `N kind|message|notice`: the screen's kind and its boxed lines
    queue          `Q total cursor first name,name...`: the start screen's list
    choose LABEL   open the menu and choose the item LABEL (`_` for a space), level by
                   level: `choose abandon no_winner`
    jump MS        let MS milliseconds pass in big steps (days of match time at once)
    prune          as if the flash were full: `P <room> <files left in matches/>`
    files          `D name,name...`: what is in matches/
    filler KB      fill the flash: write KB kilobytes (0: remove the filler)
    reset          a power cut: a new app boots on the same flash
"""

import os
import sys

import _paths

ROOT = _paths.setup(__file__)
sys.path.insert(0, ROOT + "/host_tools/mp")

from device import SCAN_MS, Runner  # noqa: E402
from mp_args import option  # noqa: E402

_STEP = 1 << 27  # the longest step `jump` takes: well inside the ticks' half period


def text(runner):
    s = runner.app.screen
    print("N %s|%s|%s" % (s.kind, s.message, s.notice))


def queue(runner):
    s = runner.app.screen
    total = getattr(s, "queue_total", None)
    first = getattr(s, "queue_first", 0)
    print("Q %d %d %d %s" % (len(s.queue) if total is None else total, s.menu_cursor, first,
                             ",".join(name for name, _ in s.queue)))


def choose(runner, labels):
    app = runner.app
    runner.press("menu", 80)
    for label in labels:
        label = label.replace("_", " ")
        for _ in range(len(app.screen.menu_items) + 1):
            items = app.screen.menu_items
            if app.screen.kind == "menu" and items[app.screen.menu_cursor] == label:
                break
            runner.press("menu", 80)
        else:
            raise ValueError("no menu item '%s'" % label)
        runner.press("ok", 80)


def jump(runner, ms):
    board, app = runner.board, runner.app
    end = board.now + ms
    while board.now < end:
        board.now += _STEP if end - board.now > _STEP else end - board.now
        app.step(board.now)
    runner.wait(SCAN_MS * 10)


def names(runner):
    return ",".join(sorted(os.listdir(runner.board.flash + "/matches")))


def filler(runner, kb):
    path = runner.board.flash + "/filler"
    if kb == 0:
        os.remove(path)
        return
    block = b"f" * 1024
    with open(path, "wb") as f:
        for _ in range(kb):
            f.write(block)


def command(runner, line):
    words = line.split()
    if not words:
        return
    cmd = words[0]
    if cmd == "text":
        text(runner)
    elif cmd == "queue":
        queue(runner)
    elif cmd == "choose":
        choose(runner, words[1:])
    elif cmd == "jump":
        jump(runner, int(words[1]))
    elif cmd == "prune":
        j = runner.app.journal
        j.files.free = lambda: 0
        print("P %s %s" % (j.space_ok(), names(runner)))
    elif cmd == "reset":  # a power cut (the runner's `reset` times it, on MicroPython)
        runner.power_cut()
    elif cmd == "files":
        print("D %s" % names(runner))
    elif cmd == "filler":
        filler(runner, int(words[1]))
    else:
        runner.command(line)


def main():
    kb = option("--flash-kb")
    runner = Runner(option("--flash", "flash"), False, None if kb is None else int(kb))
    while True:
        line = sys.stdin.readline()
        if not line or line.strip() == "quit":
            break
        try:
            command(runner, line)
        except ValueError as e:
            print("? %s" % e)
    runner.app.stop()
    print(". stopped")


main()
