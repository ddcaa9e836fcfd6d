"""The link to a box under attack (issue 14): syncs that must not fail at random, large
files moved intact, a listing that is checked end to end (a damaged or short one is
asked for again, then refused: never taken in part), names that are not UTF-8, and board
errors that name their file and say the errno in words.

Real parts: the MicroPython unix port behind the virtual device, the real mpremote
transport; the noisy cable below loses bytes of real answers on their way in.
"""

import contextlib
import hashlib
import os
import signal
import subprocess
import time

import pytest

from support.hostfixtures import *  # noqa: F403  (fixtures: flash, device)
from support.hostfixtures import fill_box
from support.vdev import (PYTHON, REPO, VirtualDevice, journal_match, scoreboard,
                          stored_ids, sync)
from host_tools import cli
from host_tools.commands import sync as sync_cmd
from host_tools.results.db import open_db
from host_tools.measure.matchgen import generate, header
from host_tools.device.box import BoardError
from host_tools.device.sync_board import Board


# -- syncs that do not fail at random ---------------------------------------------------

def _stuttering_sync(port, url):
    """`scoreboard sync` on a busy computer: the command is stopped for 0.15 s in every
    0.3 s (SIGSTOP, SIGCONT), so the box's answers pile up in the line meanwhile."""
    proc = subprocess.Popen([str(PYTHON), "-m", "host_tools", "sync", "--port", port,
                             "--db", url], cwd=str(REPO), stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        while proc.poll() is None:
            time.sleep(0.15)
            with contextlib.suppress(ProcessLookupError):
                proc.send_signal(signal.SIGSTOP)
            time.sleep(0.15)
            with contextlib.suppress(ProcessLookupError):
                proc.send_signal(signal.SIGCONT)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return proc.returncode, out.decode(), err.decode()


def _sync_runs(flash, tmp_path, runs, stutter=False, finished=5):
    """`runs` syncs of a box with several matches, each from an unmarked box into a new
    database; the number that pulled everything."""
    ids = fill_box(flash, finished, unfinished=1, target=35, reds=15)
    good = 0
    with VirtualDevice(flash) as dev:
        for i in range(runs):
            for p in (flash / "matches").glob("*.pulled"):
                p.unlink()
            url = str(tmp_path / ("r%d.sqlite" % i))
            rc, out, err = _stuttering_sync(dev.port, url) if stutter else sync(dev.port, url)
            assert "Traceback" not in out + err
            if rc == 0 and stored_ids(url) == ids and out.strip().endswith(
                    "pulled %d, skipped 0, refused 0; 1 in progress copied as unfinished"
                    % finished):
                good += 1
    return good


def test_a_sync_succeeds_also_on_a_busy_computer(flash, tmp_path):
    """The default run's sample of the sweep below: one sync on a busy computer."""
    assert _sync_runs(flash, tmp_path, 1, stutter=True, finished=3) == 1


@pytest.mark.slow
def test_syncs_all_succeed_100_runs(flash, tmp_path):
    t = time.monotonic()
    good = _sync_runs(flash, tmp_path, 100)
    took = time.monotonic() - t
    for p in tmp_path.glob("r*.sqlite"):
        p.unlink()
    t = time.monotonic()
    busy = _sync_runs(flash, tmp_path, 20, stutter=True)
    print("sync success: %d of 100 plain runs (%.1f s), %d of 20 on a busy computer "
          "(%.1f s)" % (good, took, busy, time.monotonic() - t))
    assert good == 100 and busy == 20


# -- large files, intact ------------------------------------------------------------------

def _big_match(flash, megabytes):
    """A legal match of about `megabytes` MB on the box: long frames (many safety
    exchanges) of a best-of-9999."""
    head = header("snooker", 9999, 15)
    head = [head[0], "id PICO-3F2A-0777", "date 2026-11-29T18:03"] + head[1:]
    lines = generate(head, seed=7, frames=int(megabytes * 165), boost={"end": 30},
                     max_events=10 ** 8)
    return journal_match(flash, "PICO-3F2A-0777", lines)


def _moves_intact(flash, tmp_path, megabytes):
    path = _big_match(flash, megabytes)
    files = tmp_path / "pulled"
    url = str(tmp_path / "big.sqlite")
    with VirtualDevice(flash) as dev:
        t = time.monotonic()
        rc, _, err = scoreboard("sync", "--port", dev.port, "--db", url, "--files", files,
                                timeout=600)
        took = time.monotonic() - t
    assert rc == 0, err
    size = path.stat().st_size
    box = hashlib.sha256(path.read_bytes()).hexdigest()
    assert hashlib.sha256((files / "PICO-3F2A-0777.sbn").read_bytes()).hexdigest() == box
    db = open_db(url)
    try:
        assert [m["sha256"] for m in db.matches()] == [box]
    finally:
        db.close()
    print("%.1f MB synced intact in %.1f s (sha256 %s on both ends)" % (
        size / 1e6, took, box[:12]))
    return size


def test_half_a_megabyte_match_moves_intact(flash, tmp_path):
    assert _moves_intact(flash, tmp_path, 0.5) > 450_000


@pytest.mark.slow
@pytest.mark.parametrize("megabytes", [1, 5, 10])
def test_large_match_files_move_intact(flash, tmp_path, megabytes):
    assert _moves_intact(flash, tmp_path, megabytes) > megabytes * 900_000


# -- a listing checked end to end ------------------------------------------------------------

def noisy_board(lose, what=b"ilistdir"):
    """A Board class whose cable loses bytes of the board's answers to code containing
    `what` (a listing, by default): `lose(attempt, offset)` says whether the byte at
    `offset` of the answer to the `attempt`-th such exec (from 1) is lost. The answer's
    frame (the \\x04 ends, the prompt) always gets through, and so does one byte of
    each read, so the board never seems gone: only the text is damaged."""

    class NoisyBoard(Board):
        attempts = 0

        def __init__(self, *args, **kw):
            super().__init__(*args, **kw)
            self._armed = False
            self._noisy = None  # the offset in the answer, while it is being damaged
            read = self.t.serial.read
            paste = self.t.raw_paste_write

            def noisy_read(n=1):
                data = read(n)
                if self._noisy is None or len(data) < 2:
                    return data
                kept = bytearray()
                for b in data:
                    at = self._noisy
                    self._noisy += 1
                    if b in b"\x04>" or not lose(NoisyBoard.attempts, at):
                        kept.append(b)
                return bytes(kept or data[:1])

            def paste_then_noise(code):
                paste(code)  # the code and its flow control get through: only the answer
                if self._armed:
                    self._noisy = 0

            self.t.serial.read = noisy_read
            self.t.raw_paste_write = paste_then_noise

        def exec(self, code, consumer=None):
            text = code.encode() if isinstance(code, str) else code
            if what not in text:
                return super().exec(code, consumer)
            NoisyBoard.attempts += 1
            self._armed = True
            try:
                return super().exec(code, consumer)
            finally:
                self._armed = False
                self._noisy = None

    return NoisyBoard


def _sync_in_process(monkeypatch, capsys, board_class, port, url):
    # the raw REPL's path (a box whose firmware has no request channel), under noise
    monkeypatch.setattr(sync_cmd, "open_box", lambda port, **kw: board_class(port))
    rc = cli.main(["sync", "--port", port, "--db", url])
    out, err = capsys.readouterr()
    return rc, out, err


def test_a_listing_damaged_once_is_asked_for_again(flash, device, tmp_path, monkeypatch,
                                                   capsys):
    ids = fill_box(flash, 4)
    board = noisy_board(lambda attempt, at: attempt == 1 and at == 45)
    url = str(tmp_path / "r.sqlite")
    rc, out, err = _sync_in_process(monkeypatch, capsys, board, device.port, url)
    assert board.attempts == 2
    assert rc == 0, err
    assert out.strip().endswith("sync: pulled 4, skipped 0, refused 0")
    assert stored_ids(url) == ids


def test_a_listing_damaged_every_time_fails_the_sync(flash, device, tmp_path, monkeypatch,
                                                     capsys):
    fill_box(flash, 4)
    board = noisy_board(lambda attempt, at: at % 40 == 20)
    url = str(tmp_path / "r.sqlite")
    rc, out, err = _sync_in_process(monkeypatch, capsys, board, device.port, url)
    assert rc != 0
    assert "sync: pulled" not in out
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("sync: ") and "listing" in lines[0], err
    assert stored_ids(url) == []
    assert not list((flash / "matches").glob("*.pulled"))


def test_a_short_listing_fails_the_sync(flash, device, tmp_path, monkeypatch, capsys):
    """The end of every listing lost (its last entries and whatever follows them)."""
    fill_box(flash, 4)
    board = noisy_board(lambda attempt, at: at > 60)
    url = str(tmp_path / "r.sqlite")
    rc, out, err = _sync_in_process(monkeypatch, capsys, board, device.port, url)
    assert rc != 0 and "sync: pulled" not in out and "listing" in err
    assert stored_ids(url) == []


def test_a_file_damaged_once_is_read_again_and_always_damaged_is_refused(flash, device):
    data = bytes(range(256)) * 400
    (flash / "blob.bin").write_bytes(data)
    board = noisy_board(lambda attempt, at: attempt == 1 and at == 300, b"b2a_base64")(
        device.port)
    try:
        assert board.read("blob.bin") == data
    finally:
        board.close()
    board = noisy_board(lambda attempt, at: at % 1000 == 500, b"b2a_base64")(device.port)
    try:
        with pytest.raises(BoardError) as e:
            board.read("blob.bin")
        assert "blob.bin" in str(e.value) and "damaged" in str(e.value)
    finally:
        board.close()


# -- names that are not UTF-8 ----------------------------------------------------------

def test_a_name_that_is_not_utf8_is_reported_and_skipped(flash, device, tmp_path):
    ids = fill_box(flash, 2)
    bad = os.path.join(os.fsencode(flash / "matches"), b"PICO-\xff\xfe-0009.sbn")
    with open(bad, "wb") as f:
        f.write(b"sbn 1\n")
    rc, out, err = sync(device.port, str(tmp_path / "r.sqlite"))
    assert "Traceback" not in out + err
    assert rc == 0, err
    assert out.strip().endswith("sync: pulled 2, skipped 0, refused 0")
    assert "matches/PICO-\\xff\\xfe-0009.sbn" in err and "not UTF-8" in err
    assert stored_ids(str(tmp_path / "r.sqlite")) == ids
    assert os.path.exists(bad)


# -- board errors that say which file and why --------------------------------------------

def test_board_errors_name_the_path_and_the_errno_in_words(flash, device):
    (flash / "matches").mkdir(exist_ok=True)
    (flash / "note.txt").write_text("a file\n")
    board = Board(device.port)
    try:
        cases = [
            (lambda: board.read("matches"), "matches", "Is a directory"),
            (lambda: board.read("matches/none.sbn"), "matches/none.sbn",
             "No such file or directory"),
            (lambda: board.write("note.txt/x", b"1"), "note.txt/x", "Not a directory"),
            (lambda: board.write("q" * 300, b"1"), "q" * 300, "File name too long"),
            (lambda: board.listdir("note.txt"), "note.txt", "Not a directory"),
            (lambda: board.mkdir("note.txt/sub"), "note.txt/sub", "Not a directory"),
        ]
        for call, path, words in cases:
            with pytest.raises(BoardError) as e:
                call()
            text = str(e.value)
            assert path in text and words in text, text
            assert "OSError" not in text and "Errno" not in text, text
            assert len(text.splitlines()) == 1
        assert board.listdir("nothing-here") == []  # a folder that is not there is empty
        board.mkdir("matches")  # there already: fine
    finally:
        board.close()
