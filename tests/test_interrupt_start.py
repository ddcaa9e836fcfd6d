"""Ctrl-C while `scoreboard` starts (issue 24, point 5): one line and exit status 130,
never a traceback, also while the command's modules are still being imported.

The command is run both ways a user runs it (`python -m host_tools` and the `scoreboard`
console script), with this checkout's host_tools first on the path. SIGINT is sent at a
range of short delays after the package's own code has started: the moment is read from
the interpreter's import-time report (PYTHONPROFILEIMPORTTIME) on stderr, the line of
host_tools.paths, which host_tools/__init__.py imports. What comes before it is the
interpreter's own start-up (site, .pth files), out of the package's reach. `replay -` on
a standard input that stays open waits for ever once started, so every run is cut.
"""

import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from support import mpy

# 28 interpreters started and interrupted: `make test`, not the fast tier.
pytestmark = pytest.mark.heavy

MARK = " host_tools.paths"  # the end of its line in the report
DELAYS_MS = [0, 1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 30, 50]
ENTRIES = {"python -m host_tools": [sys.executable, "-m", "host_tools"],
           "scoreboard": [sys.executable, str(mpy.BIN / "scoreboard")]}


def interrupted(command, delay_ms, cwd):
    """(exit status, stderr lines without the import-time report) of `command replay -`
    sent SIGINT `delay_ms` after the package's code started."""
    env = dict(os.environ, PYTHONPATH=str(mpy.REPO), PYTHONPROFILEIMPORTTIME="1")
    proc = subprocess.Popen(command + ["replay", "-"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=str(cwd),
                            env=env)
    lines, started = [], threading.Event()

    def read():
        for raw in proc.stderr:
            line = raw.decode("utf-8", "replace").rstrip("\n")
            lines.append(line)
            if line.endswith(MARK):
                started.set()
        started.set()  # the end: do not wait for a mark that never comes

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        assert started.wait(60), "the command did not start"
        time.sleep(delay_ms / 1000)
        proc.send_signal(signal.SIGINT)
        rc = proc.wait(60)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.stdin.close()
        reader.join(10)
        proc.stdout.close()
    return rc, [ln for ln in lines if not ln.startswith("import time:")]


def test_ctrl_c_while_the_command_starts_is_one_line_and_130(tmp_path):
    seen = []
    for name, command in ENTRIES.items():
        for delay in DELAYS_MS:
            rc, err = interrupted(command, delay, tmp_path)
            seen.append((name, delay, rc, err))
    bad = [s for s in seen if s[2] != 130 or len(s[3]) != 1
           or s[3][0] not in ("scoreboard: interrupted", "replay: interrupted")]
    assert not bad, "\n".join("%s after %d ms: exit %s, %r" % (
        name, delay, rc, "\n".join(err)[-300:]) for name, delay, rc, err in bad)
    assert not any("Traceback" in "\n".join(s[3]) for s in seen)
