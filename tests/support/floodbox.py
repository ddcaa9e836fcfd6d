"""A fake box on a pty whose answer never ends (round 5 N6): a right `hello`, then, for
`ls` (`mode="ls"`) or for the `read` of the match its hello names in play
(`mode="read"`), pieces for ever, every CRC right. `sent` counts its bytes. And
`peak_rss_kb(pid)`: a process's peak resident memory (VmHWM)."""

import os
import select
import threading
import tty

import host_tools  # noqa: F401  (the firmware on the path)
from scoreboard.core.words import crc


class FloodBox:
    def __init__(self, mode="ls"):
        self.mode = mode
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.port = os.ttyname(self.slave)
        self.sent = 0
        self.running = True
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    @staticmethod
    def line(seq, text):
        body = "%s %s" % (seq, text)
        return ("SB! %s *%s\r\n" % (body, crc(body))).encode()

    def _piece(self, seq, n):
        if self.mode == "ls":
            return self.line(seq, "- %08x 32768 100" % n)
        return self.line(seq, "- " + "QUFB" * 128)

    def run(self):
        buf = b""
        flood = None
        n = 0
        current = "FAKE-0001-0001" if self.mode == "read" else "-"
        while self.running:
            r, w, _ = select.select([self.master], [self.master] if flood else [], [], 0.1)
            if r:
                try:
                    buf += os.read(self.master, 4096)
                except OSError:
                    return
                while b"\n" in buf:
                    raw, buf = buf.split(b"\n", 1)
                    at = raw.find(b"#SB? ")
                    if at < 0:
                        continue
                    words = raw[at + 5:].decode(errors="replace").split()
                    if len(words) < 2:
                        continue
                    seq, verb = words[0], words[1]
                    if verb == "hello":
                        os.write(self.master, self.line(
                            seq, "ok sb 1 box FAKE-0001 fw 9 state match current %s free "
                                 "1000 table -" % current))
                    elif verb == self.mode:
                        flood = seq
                    elif verb == "ls":  # read mode: one journal to read
                        name = (current + ".sbn").encode().hex()
                        os.write(self.master, self.line(seq, "- %s 32768 100" % name) +
                                 self.line(seq, "ok 1"))
            if flood and w:
                chunk = b"".join(self._piece(flood, n + i) for i in range(64))
                n += 64
                try:
                    self.sent += os.write(self.master, chunk)
                except (BlockingIOError, OSError):
                    pass

    def close(self):
        self.running = False
        self.thread.join(2)
        for fd in (self.master, self.slave):
            os.close(fd)


def peak_rss_kb(pid):
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0
