"""A box at a table whose keys a test presses when it chooses: `scoreboard device --pty
--keys -` (the real firmware on the MicroPython unix port behind a pty), its key script
written to its standard input a few lines at a time, each press logged with its wall
time (`--keys-log`).

`TableBox(folder, hold=MS, gap=MS, table=N)`: the box at table N, its flash in
`folder/flash`, each short
press held `hold` ms and the keys then released `gap` ms (the device's `--hold` and
`--gap`; by default 80 and 150); `port` for the desk's `--port`. `press(keys)`: key
script lines, played from now in real time. `queued(match_id)`: the header the desk
queued there (the core's Header, None while there is none); `journal(match_id)`: its
journal's lines as on the flash; `presses()`: every press so far as (name, the epoch
ms at which its key went down).
"""

import subprocess
from pathlib import Path

from scoreboard.core.notation import Reader
from support.livebox import SCOREBOARD, _readline, checkout_env, stop
from support.vdev import REPO


class TableBox:
    def __init__(self, folder, hold=None, gap=None, table=None):
        """`table`: the box stands at that table, as `scoreboard setup --table N` left it
        (its settings), with a chip id of its own (boards/host.py's unique_id)."""
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        self.flash = folder / "flash"
        if table is not None:
            self.flash.mkdir(exist_ok=True)
            (self.flash / "settings.txt").write_text("table=%d\n" % table)
            (self.flash / "unique_id").write_text("0000%04x" % table)
        self.log = folder / "presses.txt"
        self.sent = []  # every key line written to the box, in order
        cmd = [str(SCOREBOARD), "device", "--pty", "--flash", str(self.flash), "--keys", "-",
               "--keys-log", str(self.log)]
        cmd += ["--hold", str(hold)] if hold else []
        cmd += ["--gap", str(gap)] if gap else []
        self.proc = subprocess.Popen(
            cmd, cwd=str(REPO), stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True,
            env=checkout_env())
        self.port = _readline(self.proc, 15, b"port ").split()[1]

    def press(self, keys):
        """Key script lines (`NAME`, `NAME long`, `@MS`), played from now."""
        assert self.proc.poll() is None, "the box has stopped"
        self.proc.stdin.write(("\n".join(keys) + "\n").encode("utf-8"))
        self.proc.stdin.flush()
        self.sent += [k for k in keys if not k.startswith("@")]

    def queued(self, match_id):
        path = self.flash / "queue" / ("%s.sbn" % match_id)
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        reader = Reader()
        for line in text.splitlines():
            if reader.feed(line) is not None:
                return None  # a line of the match: not a whole header yet
        reader.finish()
        return reader.header

    def journal(self, match_id):
        path = self.flash / "matches" / ("%s.sbn" % match_id)
        try:
            return path.read_text(encoding="utf-8").splitlines()
        except FileNotFoundError:
            return []

    def presses(self):
        try:
            lines = self.log.read_text(encoding="utf-8").splitlines()
        except FileNotFoundError:
            return []
        return [(name, int(ms)) for name, ms in (line.split() for line in lines)]

    def stop(self):
        if self.proc.stdin:
            try:
                self.proc.stdin.close()
            except OSError:
                pass
        stop(self.proc)
