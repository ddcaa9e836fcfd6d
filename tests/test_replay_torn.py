"""`scoreboard replay` on a box's journal with a torn last line (issue 24, point 3).

A power cut in the middle of a write leaves the journal's last line without its line
end, or with a checksum that does not match; the box's recovery and `scoreboard sync`
drop that line. Replay does the same, with one line on stderr saying so, and shows the
match as the lines before it left it. A bad line before the last stays an error, and a
notation file written by hand (no checksums) is replayed whole, last line end or not.
"""

import json
import subprocess
import sys

from scoreboard.core.words import with_checksum
from support.vdev import REPO, journal_text, match_lines

LINES = match_lines("PICO-3F2A-0007", seed=3)


def replay(*args, stdin=None):
    proc = subprocess.run([sys.executable, "-m", "host_tools", "replay", *map(str, args)],
                          input=stdin, capture_output=True, cwd=str(REPO), timeout=60,
                          check=False)
    return proc.returncode, proc.stdout.decode(), proc.stderr.decode()


def test_a_torn_last_line_is_dropped_with_a_note(tmp_path):
    whole = journal_text(LINES).encode()
    path = tmp_path / "whole.sbn"
    path.write_bytes(whole)
    rc, want, err = replay(path, "--json")
    assert rc == 0 and err == "", err
    tears = {
        "no line end": whole + with_checksum("foul 4")[:-3].encode(),
        "bad checksum": whole + b"foul 4 *00000000\n",
    }
    for why, data in tears.items():
        torn = tmp_path / "torn.sbn"
        torn.write_bytes(data)
        rc, out, err = replay(torn, "--json")
        assert (rc, err) == (0, "%s: a torn last line (%s) was dropped\n" % (torn, why)), err
        assert json.loads(out) == json.loads(want)
        rc, out, err = replay("-", stdin=data)
        assert rc == 0 and err == "standard input: a torn last line (%s) was dropped\n" % why
        rc, out, err = replay(torn)  # the summary too
        assert rc == 0 and out.startswith("Ann v Bob\n") and len(err.splitlines()) == 1


def test_a_bad_line_before_the_last_is_still_an_error(tmp_path):
    lines = journal_text(LINES).splitlines(keepends=True)
    lines[4] = lines[4][:-10] + "*00000000\n"  # a flipped checksum in the header
    path = tmp_path / "bad.sbn"
    path.write_text("".join(lines), encoding="utf-8")
    rc, out, err = replay(path)
    assert (rc, out, err) == (2, "", "line 5: bad checksum\n")


def test_a_notation_file_without_checksums_is_replayed_whole(tmp_path):
    path = tmp_path / "hand.sbn"
    text = "\n".join(LINES)  # no line end after the last line: nothing is torn
    path.write_text(text, encoding="utf-8")
    rc, out, err = replay(path, "--json")
    whole = tmp_path / "whole.sbn"
    whole.write_text(text + "\n", encoding="utf-8")
    assert (rc, err) == (0, "")
    assert json.loads(out) == json.loads(replay(whole, "--json")[1])
    # Its last event counts: without it the match stands elsewhere.
    shorter = tmp_path / "shorter.sbn"
    shorter.write_text("\n".join(LINES[:-1]), encoding="utf-8")
    assert json.loads(replay(shorter, "--json")[1]) != json.loads(out)


def test_cpython_and_micropython_read_a_journal_by_the_same_rule(tmp_path):
    """Issue 37: a file whose first line carries its checksum is a box's journal under
    both interpreters (core/replay.py's is_journal): a later line without one is damage
    for both (MicroPython read on), and a torn last line is dropped by both with the same
    note and the same match."""
    from support import mpy

    lines = journal_text(LINES).splitlines(keepends=True)
    cases = {
        "missing": "".join(lines[:3] + [lines[3].rsplit(" *", 1)[0] + "\n"] + lines[4:]),
        "torn": "".join(lines) + with_checksum("foul 4")[:-3],
        "hand": "\n".join(LINES) + "\n",
    }
    for name, text in cases.items():
        path = tmp_path / ("%s.sbn" % name)
        path.write_text(text, encoding="utf-8")
        cp = replay(path, "--json")
        proc = subprocess.run([mpy.tool(mpy.MICROPYTHON), mpy.REPLAY_SCRIPT, path],
                              capture_output=True, timeout=60, check=False)
        mp = (proc.returncode, proc.stdout.decode(), proc.stderr.decode())
        if cp[0] == 0:
            assert (mp[0], mp[2]) == (cp[0], cp[2]), (name, mp, cp)
            assert json.loads(mp[1]) == json.loads(cp[1]), name
        else:
            assert mp == cp, name
    assert replay(tmp_path / "missing.sbn")[2] == "line 4: missing checksum\n"
