"""Issue 19, item 1: the box tells the host as it plays. Every journal line, as it is
written, goes out on the console framed `SB> STEM N TEXT *CRC` (the journal's bytes,
its CRC-32 with it, N its line number); a reset's recovery says `SB> STEM N`; a console
nobody reads never holds the box up. Under CPython, the MicroPython unix port and the
32-bit build, which must print the same."""

import subprocess
import sys
import time

import pytest

from scoreboard.core.words import strip_checksum
from support import device, mpy

SCRIPT = mpy.REPO / "tests" / "micropython" / "echo_check.py"
INTERPRETERS = {"cpython": [sys.executable], "micropython": [str(mpy.MICROPYTHON)],
                "mp32": [str(device.MP32)]}


def _run(name, *args, timeout=60):
    proc = subprocess.run([*INTERPRETERS[name], str(SCRIPT), *map(str, args)],
                          capture_output=True, timeout=timeout, check=False)
    return proc.returncode, proc.stdout.decode(), proc.stderr.decode()


@pytest.mark.parametrize("name", sorted(INTERPRETERS))
def test_every_journal_line_goes_out_framed_as_written(name, tmp_path):
    rc, out, err = _run(name, tmp_path / "flash", "journal")
    assert rc == 0, out + err
    frames, _, file_text = out.partition("file\n")
    journal = file_text.splitlines()
    lines = frames.split("\r\n")
    assert lines.pop() == ""  # every frame ends with \r\n
    # The header (with the id and box lines the box adds), then one frame per event.
    assert len(lines) == len(journal) + 1
    stem = "PICO-3F2A0001-0001"
    for n, (frame, line) in enumerate(zip(lines, journal), 1):
        assert frame == "SB> %s %d %s" % (stem, n, line)
        strip_checksum(frame.split(" ", 3)[3], True)  # its own CRC-32 holds
    assert journal[1] == "id %s *" % stem + journal[1].rsplit("*", 1)[1]
    assert journal[-1].startswith("@9800 pot red *")
    # After the reset, recovery says how many lines the journal holds.
    assert lines[-1] == "SB> %s %d" % (stem, len(journal))


def test_the_interpreters_frame_alike(tmp_path):
    outs = {name: _run(name, tmp_path / name, "journal")[1] for name in INTERPRETERS}
    assert outs["micropython"] == outs["cpython"]
    assert outs["mp32"] == outs["cpython"]


@pytest.mark.parametrize("name", sorted(INTERPRETERS))
def test_a_console_nobody_reads_never_holds_the_box_up(name):
    """5,000 strokes onto a pipe that is never read while the box plays (a pipe holds
    64 KB, about 1,300 frames): the box goes on at once, dropping what cannot go."""
    n = 5000
    t = time.monotonic()
    proc = subprocess.Popen([*INTERPRETERS[name], str(SCRIPT), "-", "flood", str(n)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        rc = proc.wait(timeout=30)  # nobody reads stdout until the box is done
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        pytest.fail("the box waited for a console nobody reads")
    elapsed = time.monotonic() - t
    out = proc.stdout.read().decode()
    err = proc.stderr.read().decode()
    assert rc == 0, err
    words = err.split()
    sent, dropped = int(words[1]), int(words[3])
    assert sent + dropped == n
    assert dropped > 0 and sent > 0
    frames = out.split("\r\n")
    assert frames.pop() == ""
    assert len(frames) == sent  # what went out went whole
    assert set(frames) == {"SB> PICO-3F2A0001-0001 %d @61250 pot red *1a2b3c4d" % (i + 1)
                           for i in range(sent)}
    assert elapsed < 20
