"""The request channel: the desk's requests, read from the USB console while the app
plays, so that `scoreboard sync`, `setup` and `live` never stop the app (and never lose a
press made meanwhile).

Protocol 1. A request is one line from the host; every answer line goes back on the
console beside the echo's `SB> ` frames (scoreboard/echo.py), framed the same way:

    #SB? SEQ VERB ARG... *CRC32   a request (SEQ: the host's number for it; the `#`
                                  makes it a comment to a REPL a stopped app left)
    SB! SEQ - DATA... *CRC32      a piece of the answer: more follow
    SB! SEQ ok WORDS... *CRC32    the answer's end, and what it says
    SB! SEQ err WORDS... *CRC32   refused, the reason in words

CRC32 is the journal's checksum (scoreboard.core.words.crc, 8 hex digits) of the text
between the prefix and ` *`. A request whose checksum fails is answered `err checksum`;
one that cannot be read at all is not answered (the host asks again). A new request
ends the one being answered (a host that gave up and asks afresh).

    hello                    ok sb 1 box BOXID fw VERSION state STATE current STEM free N
                             table T (STATE: start, setup, match, over, error; STEM: what
                             the `current` file names, the match in play; T: the table
                             the box's settings claim, 1..99; `-`: none)
    ls DIR                   `- HEXNAME KIND SIZE` for each entry of matches/ or queue/
                             (KIND 16384 for a folder), then `ok COUNT`
    sha PATH                 ok HEX: the SHA-256 of a file on the box
    read PATH LINE           `- BASE64` pieces of the file from the start of its line
                             LINE (1: the whole file), then `ok BYTES SHA256` of what was
                             sent: a journal read from line N (live's catch-up) or whole
    put NAME OFFSET BASE64   a piece of queue/NAME.part at OFFSET (0: a new file); ok SIZE
    queue NAME SHA256        queue/NAME.part, when it has that SHA-256 and the core reads
                             it as a header the box can start (as `setup` checks it),
                             becomes queue/NAME.sbn; the start screen lists it at once
    mark ID SHA256 TIME      matches/ID.pulled (`pulled TIME sha256 HEX`), written only
                             when ID's journal (its last continuation) has that SHA-256
    prune BYTES              pulled matches deleted (scoreboard.space) until BYTES are
                             free; ok FREE
    settings [KEY=VALUE...]  `- KEY VALUE` for each setting, `- KEY set` for each
                             password that is set (never its value), then ok; with
                             KEY=VALUE words (percent-encoded), those of the network
                             first (scoreboard/settings.py `change`: all or none)
    table T                  the box's table (settings.txt `table=T`, 1..99; `-` clears
                             it), shown on its start screen and said in `hello`: ok table T
    withdraw ID              queue/ID.sbn taken back (the desk moved the match to another
                             table): `ok withdrawn ID`, or `ok absent ID` when it is not
                             queued; refused when match ID has started on the box
    stop                     `ok stopping`, then the app stops (the REPL is left for
                             mpremote: `scoreboard flash`, development); the panels say so
    called ID                the desk's call (seed 004 1.7: the late start counts from
                             it): queue/ID.sbn started with its `called` line, as the
                             referee's `called` from the start screen starts it (`ok
                             started STEM late M`), or `called` entered in match ID in
                             progress before its first frame (`ok called STEM late M`);
                             M: its late start's minutes. Refused: another match on the
                             box, the referee in its menus, ID past its first frame or
                             called already or over, no match ID

PATH is `matches/NAME`, `queue/NAME` or one of the box's own top-level files: nothing
else on the flash is reached.

Pace: every pass (`poll`) reads what the console holds, up to IN_MAX bytes, then works on
the answer for at most BUDGET_MS: one piece of it (PIECE bytes of a file, or a slice of
its hash) and more while the budget lasts. So a long read is served between the passes
and the keys, the clock and the panels keep their pace.
A pass with nothing to read costs one poll of the console and allocates nothing. A host
that stopped reading (an answer line that took SLOW_MS to go) ends its answer.

Another program on the port never stops a match: main.py turns the port's keyboard
interrupt off while the app runs (micropython.kbd_intr(-1)), so a Ctrl-C is a byte
like any other, and the channel drops control bytes (Ctrl-C, Ctrl-A, Ctrl-D) with the
line they interrupt. Stopping the app is the deliberate `stop` request (a line with its
CRC: no terminal sends it by accident); the desk's own tools send it before they need
the REPL (sync_board.Board, `scoreboard flash`, `scoreboard device --stop`).
"""

import binascii
import os

from micropython import const

try:
    import select
except ImportError:  # a port without it: no requests
    select = None

from scoreboard.core.words import check_id, crc, strip_checksum
from scoreboard.echo import ticks_ms
from scoreboard.core.ticks import ticks_diff

PROTOCOL = const(1)
IN_MAX = const(256)  # console bytes read in one pass
_LINE = const(400)  # the longest request line (a `put` of PIECE bytes is about 300)
PIECE = const(384)  # file bytes in one answer line (512 in base64)
SLOW_MS = const(200)  # an answer line that took this long found a host that does not read
BUDGET_MS = const(4)  # a pass goes on answering for this long (the pass period is 10 ms)
_TOP = ("current", "counter", "settings.txt", "board.txt")
_FOLDERS = ("matches", "queue")


class Refused(Exception):
    """A request the box will not do: its reason goes back as `err`."""


class Channel:
    """Requests from `inp` (a binary stream), answered on `out`, about `app`'s box."""

    def __init__(self, app, inp, out):
        self.app = app
        self.inp = inp
        self.out = out
        self.line = bytearray(_LINE)
        self.n = 0  # bytes of the request line so far
        self.over = False  # the line passed _LINE: dropped up to its end
        self.one = bytearray(1)
        self.job = None  # the answer being sent: a generator of lines
        self.stopping = False  # `stop` answered: the app stops after this pass
        self.seq = "0"
        self.now = 0  # the pass's time, for an answer that enters a line (`called`)
        self.budget_ms = BUDGET_MS
        self.requests = 0  # requests taken
        self.answered = 0  # answer lines sent
        self._poll = None
        self._ipoll = None
        if select is not None:
            try:
                p = select.poll()
                p.register(inp, select.POLLIN)
                self._poll = p
                self._ipoll = getattr(p, "ipoll", None)
            except (OSError, TypeError, ValueError, AttributeError):
                self._poll = None

    def ready(self):
        """Whether the console has a byte to read (allocates nothing on MicroPython:
        ipoll; CPython's poll, for the tests, has only poll)."""
        ipoll = self._ipoll
        for _ in ipoll(0) if ipoll is not None else self._poll.poll(0):
            return True
        return False

    def poll(self, now):
        """One pass: read what came, answer a piece. Allocates nothing when idle."""
        if self._poll is None:
            return
        got = 0
        while got < IN_MAX and self.ready():
            if not self.inp.readinto(self.one):
                break
            got += 1
            b = self.one[0]
            if b == 0x0A:
                if not self.over and self.n:
                    self._request(bytes(self.line[:self.n]))
                self.n = 0
                self.over = False
            elif b < 0x20 and b != 0x0D:  # Ctrl-C, Ctrl-A, Ctrl-D...: another program's
                # keys for a REPL (a terminal, an IDE connecting): the line is dropped and
                # the match goes on (the `stop` request is the way to stop the app)
                self.n = 0
            elif self.n < _LINE:
                if b != 0x0D:
                    self.line[self.n] = b
                    self.n += 1
            else:
                self.over = True
        if self.job is not None:
            self.now = now
            # pieces while the pass has time: the keys, the clock and the panels first
            t0 = ticks_ms()
            self._step()
            while self.job is not None and ticks_diff(ticks_ms(), t0) < self.budget_ms:
                self._step()
        if self.stopping:  # `ok stopping` is sent: the app stops as Ctrl-C stopped it
            raise KeyboardInterrupt

    # -- requests -----------------------------------------------------------------------
    def _request(self, raw):
        if raw[:5] != b"#SB? ":
            return  # not ours (a person typing, the REPL's echo): no answer
        try:
            text = raw[5:].decode()
        except UnicodeError:
            return
        seq = text.partition(" ")[0]
        if not seq.isdigit():
            return
        self._end()
        self.seq = seq
        self.requests += 1
        try:
            body = strip_checksum(text, True)
        except ValueError:
            self._send("err checksum")
            return
        words = body.split()[1:]
        verb = words[0] if words else ""
        handler = _VERBS.get(verb)
        if handler is None:
            self._send("err unknown request %s" % verb)
            return
        self.job = handler(self, words[1:])  # a generator: poll() steps it (its checks too)

    def _step(self):
        """The next line of the answer being sent; the last one (ok, err) ends it. A
        request that fails in any way is answered `err`: it never stops the app."""
        job = self.job
        if job is None:
            return
        try:
            line = next(job)
            if line is _PENDING:
                return
        except StopIteration:
            self.job = None
            return
        except Refused as e:
            line = "err " + str(e)
        except OSError as e:
            line = "err %s" % _os_reason(self.app, e)
        except Exception as e:  # a bug, out of memory: the match goes on
            line = "err failed: %s" % (e.__class__.__name__,)
        if not self._send(line) or line[:1] != "-":
            self._end()

    def _end(self):
        if self.job is not None:
            self.job.close()
            self.job = None

    def _send(self, text):
        """`SB! SEQ TEXT *CRC`; False when the line took SLOW_MS (the host does not read)."""
        body = self.seq + " " + text
        t0 = ticks_ms()
        try:
            self.out.write(b"SB! " + body.encode() + b" *" + crc(body).encode() + b"\r\n")
            if hasattr(self.out, "flush"):
                self.out.flush()
        except OSError:
            return False
        self.answered += 1
        return ticks_diff(ticks_ms(), t0) < SLOW_MS

    # -- the verbs: each returns a generator of answer lines (the last: ok or err) -------
    def hello(self, args):
        app = self.app
        from scoreboard import __version__

        table = app.table()
        yield "ok sb %d box %s fw %s state %s current %s free %d table %s" % (
            PROTOCOL, app.journal.board_id, __version__, app.state(),
            app.journal.files.read_small("current") or "-", _flash_free(app),
            "-" if table is None else table)

    def ls(self, args):
        folder = _one(args, "ls DIR")
        if folder not in _FOLDERS:
            raise Refused("no folder %s: matches or queue" % folder)
        # bytes: a name that is not UTF-8 (no file of the box's own) still lists
        path = _folder(self.app, folder).encode()
        count = 0
        for e in os.ilistdir(path) if hasattr(os, "ilistdir") else _listdir(path):
            name = e[0]
            if isinstance(name, str):  # a port that gives str for a bytes folder
                name = name.encode()
            size = e[3] if len(e) > 3 else os.stat(path + b"/" + name)[6]
            count += 1
            yield "- %s %d %d" % (binascii.hexlify(name).decode(), e[1], size)
        yield "ok %d" % count

    def sha(self, args):
        path = _path(self.app, _one(args, "sha PATH"))
        h = _hasher()
        yield from _hashing(path, h)
        yield "ok " + binascii.hexlify(h.digest()).decode()

    def read(self, args):
        if len(args) != 2 or not args[1].isdigit() or int(args[1]) < 1:
            raise Refused("read PATH LINE")
        path = _path(self.app, args[0])
        skip = int(args[1]) - 1  # lines before the first one sent
        h = _hasher()
        sent = 0
        with open(path, "rb") as f:
            while True:
                data = f.read(PIECE)
                if not data:
                    break
                if skip:
                    i = 0
                    while skip:
                        j = data.find(b"\n", i)
                        if j < 0:
                            break
                        i = j + 1
                        skip -= 1
                    if skip or i == len(data):
                        yield _PENDING
                        continue
                    data = data[i:]
                h.update(data)
                sent += len(data)
                yield "- " + binascii.b2a_base64(data).decode().strip()
        yield "ok %d %s" % (sent, binascii.hexlify(h.digest()).decode())

    def put(self, args):
        if len(args) != 3 or not args[1].isdigit():
            raise Refused("put NAME OFFSET BASE64")
        part = _queue_file(self.app, args[0], ".part")
        offset = int(args[1])
        try:
            data = binascii.a2b_base64(args[2])
        except ValueError:
            raise Refused("the piece is not base64") from None
        size = _size(part)
        if offset == 0:
            size = 0
        elif offset != size:
            raise Refused("the piece is at %d, the file has %d bytes" % (offset, size))
        from scoreboard.files import QUEUED_MAX

        if offset + len(data) > QUEUED_MAX:
            raise Refused("over %d bytes: too long for a header" % QUEUED_MAX)
        with open(part, "wb" if offset == 0 else "ab") as f:
            f.write(data)
        yield "ok %d" % (offset + len(data))

    def queue(self, args):
        from scoreboard.files import QUEUED_MAX, check_match_id, normalised, parse_header
        from scoreboard.journal import JournalError

        if len(args) != 2:
            raise Refused("queue NAME SHA256")
        part = _queue_file(self.app, args[0], ".part")
        final = _queue_file(self.app, args[0], ".sbn")
        if _size(part) > QUEUED_MAX:
            raise Refused("over %d bytes: too long for a header" % QUEUED_MAX)
        with open(part, "rb") as f:
            data = f.read()
        h = _hasher()
        h.update(data)
        if binascii.hexlify(h.digest()).decode() != args[1].lower():
            raise Refused("the file arrived damaged (its SHA-256 differs): send it again")
        files = self.app.journal.files
        try:
            lines, skipped = normalised(data)
            header = parse_header(lines, None, skipped)
            if header.id is not None:
                check_match_id(header.id)
                from scoreboard.space import last_stem

                if last_stem(files, header.id) is not None:  # as Journal.start refuses it
                    raise JournalError("match %s is on the box already" % header.id)
        except (ValueError, JournalError) as e:
            files.remove(part)
            raise Refused(str(e)) from None
        files.replace(part, final)
        self.app.queue_changed(ticks_ms())
        yield "ok"

    def mark(self, args):
        from scoreboard.space import last_stem

        if len(args) != 3:
            raise Refused("mark ID SHA256 TIME")
        mid, want, when = args
        files = self.app.journal.files
        _name(mid)
        stem = last_stem(files, mid)
        if stem is None:
            raise Refused("no match %s on the box" % mid)
        h = _hasher()
        yield from _hashing(files.match_path(stem + ".sbn"), h)
        if binascii.hexlify(h.digest()).decode() != want.lower():
            raise Refused("%s changed since it was read: sync again" % stem)
        files.write_small("matches/%s.pulled" % mid, "pulled %s sha256 %s" % (when, want))
        yield "ok"

    def prune(self, args):
        from scoreboard.space import prune

        need = _one(args, "prune BYTES")
        if not need.isdigit():
            raise Refused("prune BYTES")
        files = self.app.journal.files
        prune(files, int(need), self.app.journal.stem)
        yield "ok %d" % _flash_free(self.app)

    def table(self, args):
        """The box's table, kept in its settings (the desk sets it once)."""
        from scoreboard.settings import TABLE_MAX

        word = _one(args, "table T")
        if word != "-" and not (word.isdigit() and 1 <= int(word) <= TABLE_MAX):
            raise Refused("table %s: a number 1 to %d, or - for none" % (word, TABLE_MAX))
        self.app.set_table(None if word == "-" else int(word), ticks_ms())
        yield "ok table %s" % word

    def withdraw(self, args):
        """Take a queued match back (the desk moved it): refused once it has started."""
        from scoreboard.space import last_stem

        mid = _name(_one(args, "withdraw ID"))
        app = self.app
        files = app.journal.files
        if last_stem(files, mid) is not None or (app.match is not None and
                                                  app.journal.id == mid):
            raise Refused("match %s has started on the box" % mid)
        queued = _queue_file(app, mid, ".sbn")
        there = files.exists(queued)
        files.remove(queued)
        files.remove(_queue_file(app, mid, ".part"))
        if there:
            app.queue_changed(ticks_ms())
        yield "ok %s %s" % ("withdrawn" if there else "absent", mid)

    def stop(self, args):
        """The deliberate stop (development, `scoreboard flash`): answered, then the app
        stops at the end of this pass (poll raises KeyboardInterrupt)."""
        self.stopping = True
        yield "ok stopping"

    def settings(self, args):
        from scoreboard.settings import change, secrets_set

        values = self.app.settings
        files = self.app.journal.files
        if args:
            try:
                change(files, values, args)
            except ValueError as e:
                raise Refused(str(e)) from None
        for key in sorted(values):
            yield "- %s %s" % (key, values[key])
        for key in secrets_set(files):
            yield "- %s set" % key
        yield "ok"

    def called(self, args):
        """The desk's call of match ID: its `called` line goes in as the referee's does
        (app.desk_called), in this pass, between the pass's keys and the next's."""
        app = self.app
        mid = _name(_one(args, "called ID"))
        m = app.match
        start = None
        if m is not None:
            here = app.journal.id
            if m.finished():
                raise Refused("match %s is over on the box" % mid if here == mid else
                              "match %s has ended on the box and waits for the referee's "
                              "ok" % here)
            if here != mid:
                raise Refused("match %s is in progress on the box" % here)
            if m.number:
                raise Refused("match %s is past its first frame" % mid)
            if m.time.late.active:
                raise Refused("match %s was called already" % mid)
        elif app.state() != "start":
            raise Refused("the referee has the box's menus open: call again once it "
                          "shows its start screen")
        else:
            if not app.journal.files.exists(_queue_file(app, mid, ".sbn")):
                from scoreboard.space import last_stem

                played = last_stem(app.journal.files, mid) is not None
                raise Refused(("match %s was played on the box already" if played
                               else "no match %s on the box") % mid)
            start = app.menu.start_named(mid, "called")
            if start.refusal is not None:
                raise Refused(start.refusal)
        why = app.desk_called(start, self.now)
        if why is not None:
            raise Refused(why)
        yield "ok %s %s late %d" % ("called" if start is None else "started",
                                    app.journal.stem, app.match.time.late.limit_ms // 60000)


_PENDING = object()  # a job's step that did work but has nothing to send yet

_VERBS = {"hello": Channel.hello, "ls": Channel.ls, "sha": Channel.sha, "read": Channel.read,
          "put": Channel.put, "queue": Channel.queue, "mark": Channel.mark,
          "prune": Channel.prune, "settings": Channel.settings, "called": Channel.called,
          "table": Channel.table, "withdraw": Channel.withdraw, "stop": Channel.stop}


def _one(args, usage):
    if len(args) != 1:
        raise Refused(usage)
    return args[0]


def _name(word):
    """A file name of the box's own (an id's characters: no folder, no dot-dot)."""
    try:
        return check_id(word, "name")
    except ValueError as e:
        raise Refused(str(e)) from None


def _path(app, word):
    """The flash path of a request's PATH: matches/NAME, queue/NAME or a top-level file."""
    folder, slash, name = word.partition("/")
    files = app.journal.files
    if not slash and word in _TOP:
        return files.path(word)
    if slash and folder in _FOLDERS and name and "/" not in name and name[0] != "." and \
            ".." not in name:
        return files.path(word)
    raise Refused("no file %s for the host: matches/NAME, queue/NAME or %s" % (
        word, ", ".join(_TOP)))


def _queue_file(app, name, ext):
    _folder(app, "queue")
    return app.journal.files.path("queue/" + _name(name) + ext)


def _folder(app, folder):
    """The flash path of matches/ or queue/, made again when it is gone (deleted by
    hand): the desk can queue at once, not only after the box's next boot."""
    path = app.journal.files.path(folder)
    try:
        os.stat(path)
    except OSError:
        os.mkdir(path)
    return path


def _size(path):
    try:
        return os.stat(path)[6]
    except OSError:
        return 0


def _flash_free(app):
    """Free bytes as the flash's filesystem counts them (statvfs: whole blocks), what
    `setup` checks a queue against."""
    from scoreboard.files import fs_free

    return fs_free(app.journal.files.root or "/")


def _hashing(path, h):
    """A job's steps that hash the file at `path` into `h`, a PIECE a step."""
    buf = bytearray(PIECE)
    with open(path, "rb") as f:
        while True:
            n = f.readinto(buf)
            if not n:
                return
            h.update(memoryview(buf)[:n])
            yield _PENDING


def _hasher():
    import hashlib

    return hashlib.sha256()


def _listdir(path):
    """(name, kind, inode, size) like ilistdir, where a port has only listdir."""
    for n in os.listdir(path):
        st = os.stat(path + b"/" + n)
        yield n, st[0] & 0xF000, 0, st[6]


def _os_reason(app, e):
    """An OSError in words, with its errno: `2 no such file` (the host maps the number)."""
    n = app.board.errno(e)
    return "%d %s" % (n, _REASONS.get(n, "error"))


_REASONS = {2: "no such file", 5: "input/output error", 12: "out of memory",
            13: "permission denied", 17: "file exists", 20: "not a folder",
            21: "is a folder", 28: "no space left on the flash"}
