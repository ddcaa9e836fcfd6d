"""The journal's main recovery scenario, printed line by line under either interpreter.

    micropython tests/micropython/journal_scenario.py MATCH.sbn FLASH_DIR [STEP [EVERY]]

Plays the match through a Journal on FLASH_DIR (a fresh folder), resets (a new Journal
on the same folder) and recovers; resets in the middle of the first and of the last
frame (only that frame's lines may be replayed); then cuts the journal every STEP bytes
(default 97) and recovers each cut, and flips one byte in every EVERY-th line (default
1); prints what it sees. The test compares the output with CPython's (the oracle) and
checks the `ok` marks.
"""

import sys

import _paths

_paths.setup(__file__)

import journal_play as jp  # noqa: E402
from scoreboard.journal import Journal  # noqa: E402

BOX = "PICO-3F2A"


def lines_of_file(path):
    with open(path) as f:
        return list(f)


def fresh(flash):
    jp.rmtree(flash)
    return Journal(flash, BOX)


def resets(flash, head, events):
    """A reset in the middle of the first and of the last frame."""
    frames = [i for i, e in enumerate(events) if e.split()[e[:1] == "@"] == "frame"]
    for start, end in ((frames[0], frames[1] if len(frames) > 1 else len(events)),
                       (frames[-1], len(events))):
        n = (start + 1 + end) // 2
        j = fresh(flash)
        j.start(head)
        jp.play(j, events[:n])
        live = jp.report(j.match)
        j = Journal(flash, BOX)
        match, damage = j.recover()
        ok = jp.report(match) == live and damage is None and j.replayed == n - start - 1
        print("reset in frame", match.number, "after", n, "events: replayed", j.replayed,
              "ok" if ok else "WRONG")


def main():
    src, flash = sys.argv[1], sys.argv[2]
    step = int(sys.argv[3]) if len(sys.argv) > 3 else 97
    every = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    head, events = jp.split(lines_of_file(src))
    j = fresh(flash)
    j.start(head)
    jp.play(j, events)
    live = jp.report(j.match)
    mid = j.id
    print("start", mid, "events", len(events))
    print("live", live)
    j = Journal(flash, BOX)
    match, damage = j.recover()
    print("recovered", jp.report(match) == live, damage, "replayed", j.replayed)
    jpath = flash + "/matches/" + mid + ".sbn"
    kpath = flash + "/matches/" + mid + ".ckpt"
    data = jp.read(jpath)
    ckpt = jp.read(kpath)
    print("bytes", len(data), "checkpoint bytes", len(ckpt))
    for cut in range(0, len(data) + 1, step):
        j = fresh(flash)
        j.start(head)
        jp.write(jpath, data[:cut])
        jp.write(kpath, ckpt)
        match, damage = Journal(flash, BOX).recover()
        whole = jp.lines_of(data[:cut])
        if match is None:
            print("cut", cut, "no match", damage is not None, len(whole) < len(head))
            continue
        print("cut", cut, "lines", len(whole),
              "ok" if jp.report(match) == jp.replay_lines(whole) else "MISMATCH", damage)
    lines = jp.lines_of(data)
    at = 0
    for n, line in enumerate(lines):
        if n % every and n + 1 < len(lines):
            at += len(line)
            continue
        j = fresh(flash)
        j.start(head)
        flipped = bytearray(data)
        flipped[at + len(line) // 2] ^= 0x10
        jp.write(jpath, bytes(flipped))
        jp.write(kpath, ckpt)
        j = Journal(flash, BOX)
        match, damage = j.recover()
        at += len(line)
        want = n + 1 if n + 1 < len(lines) else None  # the last line: torn, dropped
        got = None if j.damage is None else j.damage.line
        same = match is None or jp.report(match) == jp.replay_lines(lines[:n])
        print("flip line", n + 1, "damage", got, "ok" if got == want and same else "WRONG")
    resets(flash, head, events)


main()
