"""Issue 24: the request channel inside the running app (firmware/scoreboard/channel.py),
on CPython with the app stepped on its own clock: every verb answers in framed, checked
lines; bad requests are refused with a reason and change nothing; a long read goes out
one piece a pass while the keys are taken in the same passes; nothing outside matches/
and queue/ is reached. The desk's call (`called`, issue 27 item 1): the queued match
started as the referee's `called` starts it, the late start running from it, the match
in progress called with the referee's presses in the same passes, the refusals, the
host's call never done twice. The MicroPython side (the same module on the unix port,
through the virtual device) is in test_channel_desk.py; its idle pass allocating
nothing is in test_app_alloc.py."""

import base64
import hashlib
import io
import os

import pytest

from host_tools.device.channel import answer
from host_tools.device.frames import request_line
from host_tools.mp.device import Runner
from scoreboard.channel import PIECE, Channel
from support import device

HEADER = ["sbn 1", "game snooker reds=6", "match best-of 3", 'side A "Ann"', 'side B "Bob"']


class Desk:
    """A host on the app's console: requests into a pipe the channel polls, answers out
    of the stream it writes."""

    def __init__(self, tmp_path, queued=True, header=HEADER):
        if queued:
            device.queue(tmp_path, "m1", header)
        self.flash = tmp_path
        self.r = Runner(str(tmp_path))
        self.r.wait(100)
        rd, self.wr = os.pipe()
        self.out = io.BytesIO()
        self.inp = os.fdopen(rd, "rb", buffering=0)
        self.ch = self.r.app.channel = Channel(self.r.app, self.inp, self.out)
        self.seq = 0
        self.read_at = 0

    def send(self, raw):
        os.write(self.wr, raw)

    def ask(self, verb, *args, passes=400):
        """(kind, words, pieces) of the answer to one request, stepping the app."""
        self.seq += 1
        self.send(request_line(self.seq, verb, args))
        return self.wait(self.seq, passes)

    def wait(self, seq, passes=400):
        pieces = []
        for _ in range(passes):
            self.r.wait(10)
            for raw in self.lines():
                got = answer(raw)
                assert got is not None, raw  # every answer line checks
                if got[0] != seq:
                    continue
                if got[1] == "-":
                    pieces.append(got[2])
                else:
                    return got[1], got[2], pieces
        raise AssertionError("no answer to %d: %r" % (seq, self.out.getvalue()[-300:]))

    def lines(self):
        data = self.out.getvalue()[self.read_at:]
        end = data.rfind(b"\n") + 1
        self.read_at += end
        return [ln.rstrip(b"\r") for ln in data[:end].split(b"\n") if ln.startswith(b"SB! ")]


def test_hello_says_who_the_box_is_and_what_it_shows(tmp_path):
    d = Desk(tmp_path)
    kind, words, _ = d.ask("hello")
    info = dict(zip(words[0::2], words[1::2]))
    assert kind == "ok" and info["sb"] == "1" and info["box"] == d.r.app.journal.board_id
    assert info["state"] == "start" and info["current"] == "-"
    assert int(info["free"]) > 0 and info["fw"] == __import__("scoreboard").__version__
    d.r.press("ok", 80)  # the queued match starts
    d.r.wait(500)
    info = dict(zip(*[iter(d.ask("hello")[1])] * 2))
    assert info["state"] == "match" and info["current"] == d.r.app.journal.stem


def test_bad_requests_are_refused_with_a_reason_or_not_answered(tmp_path):
    d = Desk(tmp_path)
    d.send(b"#SB? 7 hello *00000000\n")  # a checksum that fails
    assert d.wait(7)[:2] == ("err", ["checksum"])
    assert d.ask("launch")[:2] == ("err", ["unknown", "request", "launch"])
    assert d.ask("ls", "etc")[0] == "err"
    # not ours (a person typing, no `#`, no number, a runaway line): no answer
    d.send(b"print('hi')\n#SB? x hello *1\nSB? 8 hello *1\n" + b"x" * 1000 + b"\n")
    d.r.wait(200)
    assert d.lines() == []
    d.send(b"#SB? 9 hel\x03")  # a Ctrl-C mid-line drops it; the next line stands
    assert d.ask("hello")[0] == "ok"


@pytest.mark.parametrize("path", ["../x", "matches/../settings.txt", "/etc/passwd",
                                  "queue/.hidden", "matches", "boot.py", "matches/a/b"])
def test_nothing_outside_the_boxs_own_files_is_reached(tmp_path, path):
    d = Desk(tmp_path)
    (tmp_path / "boot.py").write_text("secret")
    for verb, args in (("read", (path, 1)), ("sha", (path,))):
        kind, words, pieces = d.ask(verb, *args)
        assert kind == "err" and pieces == [], (verb, path, words)


def _journal_bytes(d):
    stem = d.r.app.journal.stem
    return (d.flash / "matches" / (stem + ".sbn")).read_bytes(), stem


def test_a_journal_read_from_line_n_one_piece_a_pass_while_keys_are_taken(tmp_path):
    d = Desk(tmp_path, header=[ln.replace("reds=6", "reds=15") for ln in HEADER])
    d.r.press("ok", 80)
    for k in ["red", "black"] * 3:
        d.r.press(k, 80)
    data, stem = _journal_bytes(d)
    whole = data.split(b"\n")
    kind, words, pieces = d.ask("read", "matches/%s.sbn" % stem, 5)
    sent = b"".join(base64.b64decode(p[0]) for p in pieces)
    assert kind == "ok" and sent == b"\n".join(whole[4:])
    assert words == [str(len(sent)), hashlib.sha256(sent).hexdigest()]
    # A long read (a journal many pieces long) while the referee plays on: at most one
    # answer line a pass, and the presses made meanwhile are all journaled.
    for k in ["red", "black"] * 7:
        d.r.press(k, 80)
    data, stem = _journal_bytes(d)
    assert len(data) > PIECE  # two pieces at least
    d.ch.budget_ms = 0  # the least a pass answers: one piece (the bench times the budget)
    d.seq += 1
    d.send(request_line(d.seq, "read", ["matches/%s.sbn" % stem, 1]))
    per_pass, got = [], []
    while not got or got[-1][1] != "ok":
        d.r.wait(10)  # one pass
        new = [answer(ln) for ln in d.lines()]
        per_pass.append(len(new))
        got += new
        assert len(per_pass) < 50
    assert max(per_pass) == 1 and len(got) == -(-len(data) // PIECE) + 1
    assert b"".join(base64.b64decode(g[2][0]) for g in got[:-1]) == data
    # presses while a read is served: all journaled, the read whole
    d.seq += 1
    d.send(request_line(d.seq, "read", ["matches/%s.sbn" % stem, 1]))
    for k in ["red", "green", "red", "brown"]:
        d.r.press(k, 30)
    assert device.events(d.flash / "matches" / (stem + ".sbn"))[-4:] == [
        "pot red", "pot green", "pot red", "pot brown"]


def test_a_match_queued_through_the_channel_is_listed_at_once(tmp_path):
    d = Desk(tmp_path, queued=False)
    assert d.r.app.menu.total == 0
    data = ("\n".join(HEADER[:1] + ["id DESK-1"] + HEADER[1:]) + "\n").encode()
    for i in range(0, len(data), 40):
        kind, words, _ = d.ask("put", "d1", i, base64.b64encode(data[i:i + 40]).decode())
        assert kind == "ok" and words == [str(min(len(data), i + 40))]
    assert d.ask("queue", "d1", hashlib.sha256(data).hexdigest())[0] == "ok"
    assert (tmp_path / "queue" / "d1.sbn").read_bytes() == data
    assert not (tmp_path / "queue" / "d1.part").exists()
    assert d.r.app.menu.total == 1 and d.r.app.screen.kind == "start"


def test_a_match_the_box_would_refuse_is_not_queued(tmp_path):
    d = Desk(tmp_path, queued=False)
    events = ("\n".join(HEADER + ["frame A"]) + "\n").encode()
    d.ask("put", "e1", 0, base64.b64encode(events).decode())
    kind, words, _ = d.ask("queue", "e1", hashlib.sha256(events).hexdigest())
    assert kind == "err" and "only header lines" in " ".join(words)
    good = ("\n".join(HEADER) + "\n").encode()
    d.ask("put", "g1", 0, base64.b64encode(good).decode())
    kind, words, _ = d.ask("queue", "g1", "0" * 64)  # arrived damaged
    assert kind == "err" and "damaged" in " ".join(words)
    assert d.ask("put", "g1", 99, "AAAA")[0] == "err"  # a piece at the wrong place
    assert list((tmp_path / "queue").glob("*.sbn")) == []
    assert d.r.app.menu.total == 0


def test_a_mark_only_for_the_journal_the_host_read(tmp_path):
    d = Desk(tmp_path)
    d.r.press("ok", 80)
    d.r.press("red", 80)
    data, stem = _journal_bytes(d)
    mid = d.r.app.journal.id
    kind, words, _ = d.ask("mark", mid, hashlib.sha256(b"other").hexdigest(), "T")
    assert kind == "err" and not (tmp_path / "matches" / (mid + ".pulled")).exists()
    digest = hashlib.sha256(data).hexdigest()
    assert d.ask("mark", mid, digest, "2026-12-01T10:00:00Z")[0] == "ok"
    assert (tmp_path / "matches" / (mid + ".pulled")).read_text() == (
        "pulled 2026-12-01T10:00:00Z sha256 %s\n" % digest)
    kind, words, _ = d.ask("sha", "matches/%s.sbn" % stem)
    assert words == [digest]
    assert d.ask("mark", "NOPE-1", digest, "T")[0] == "err"


def test_listing_settings_and_a_new_request_ends_the_last(tmp_path):
    d = Desk(tmp_path)
    kind, words, pieces = d.ask("ls", "queue")
    assert kind == "ok" and words == ["1"]
    assert [bytes.fromhex(p[0]).decode() for p in pieces] == ["m1.sbn"]
    kind, _, pieces = d.ask("settings")
    assert kind == "ok" and ["volume", "60"] in pieces
    # a read abandoned by its host: the next request is answered, the old one no more
    d.r.press("ok", 80)
    for k in ["red", "black"] * 20:
        d.r.press(k, 80)
    _, stem = _journal_bytes(d)
    d.send(request_line(500, "read", ["matches/%s.sbn" % stem, 1]))
    d.r.wait(20)
    assert d.ask("hello")[0] == "ok"
    d.r.wait(500)
    assert [ln for ln in d.lines() if answer(ln)[0] == 500] == []


def test_another_programs_ctrl_a_and_ctrl_c_leave_the_app_playing(tmp_path):
    """Issue 37 (round 5 N7): a terminal's or an IDE's Ctrl-C and Ctrl-A reach the
    channel as bytes (main.py turns the keyboard interrupt off): the line they cut is
    dropped, the app plays on and answers; only the `stop` request stops it."""
    d = Desk(tmp_path)
    d.send(b"\r\x03\r\x01")
    d.r.wait(10)
    assert d.ask("hello")[0] == "ok"
    d.send(b"#SB? 7 hel\x03" + request_line(8, "hello", []))  # a line cut by Ctrl-C
    d.r.wait(20)
    assert [answer(ln)[1] for ln in d.lines() if answer(ln) and answer(ln)[0] in (7, 8)
            ] == ["ok"]
    assert not d.r.app.stopped
    d.send(request_line(9, "stop", []))
    with pytest.raises(KeyboardInterrupt):
        d.r.wait(10)
    assert [answer(ln)[2] for ln in d.lines() if answer(ln) and answer(ln)[0] == 9] == [
        ["stopping"]]


# -- issue 27 item 1: the desk's call (`called ID`) -------------------------------------
CALLED = ["sbn 1", "id Cup-W1-01", "game snooker reds=6", "match best-of 3", 'side A "Ann"',
          'side B "Cy"', "rules late=1"]


def _lines(d, stem=None):
    """The journal's lines after its header: stamps kept, checksums stripped."""
    path = d.flash / "matches" / ((stem or d.r.app.journal.stem) + ".sbn")
    lines = [ln.rsplit(" *", 1)[0] for ln in path.read_text().splitlines()]
    return [ln for ln in lines if ln.startswith("@")]


def _called_box(tmp_path, name):
    folder = tmp_path / name
    folder.mkdir()
    device.queue(folder, "Cup-W1-01", CALLED)
    return Desk(folder, queued=False)


def test_the_desks_call_starts_the_queued_match_as_the_referees_called_does(tmp_path):
    """`called ID` of a queued match on the start screen: the match starts with its
    `called` line, the journal, the screen and the e-ink picture as after the referee's
    `menu`, `ok` (called) from the start screen; the late start (`rules late=1`) runs
    from that moment: due after one minute of the box's time, not before."""
    desk = _called_box(tmp_path, "desk")
    ref = _called_box(tmp_path, "referee")
    assert desk.ask("called", "Cup-W1-02")[:2] == ("err", "no match Cup-W1-02 on the box"
                                                   .split())
    assert desk.r.app.state() == "start"
    kind, words, _ = desk.ask("called", "Cup-W1-01")
    assert (kind, words) == ("ok", ["started", desk.r.app.journal.stem, "late", "1"])
    for k in ("menu", "ok"):  # the referee's called, on the other box
        ref.r.press(k, 80)
    for d in (desk, ref):
        d.r.wait(3000)  # the e-ink's refresh, whatever its policy's wait
    assert _lines(desk) == _lines(ref) == ["@0 called"]
    assert desk.r.app.journal.id == "Cup-W1-01" and desk.r.app.state() == "match"
    assert not (desk.flash / "queue" / "Cup-W1-01.sbn").exists()
    a, b = desk.r.app.screen, ref.r.app.screen
    assert (a.kind, a.entry, a.hint) == (b.kind, b.entry, b.hint) == (
        "score", "ok:A breaks off end:swap menu:more", b.hint)
    assert desk.r.board.eink_buf == ref.r.board.eink_buf
    # Called once: again is refused, and the journal keeps its one line.
    assert desk.ask("called", "Cup-W1-01")[:2] == (
        "err", "match Cup-W1-01 was called already".split())
    late = desk.r.app.match.time.late
    assert late.active and late.limit_ms == 60000
    now = desk.r.app.match_ms(desk.r.board.now)
    assert not late.due(now) and late.remaining_ms(now) == 60000 - now
    desk.r.wait(60000 - now)
    assert late.due(desk.r.app.match_ms(desk.r.board.now))
    # The referee forfeits the side not at the table: late, the replay says, counted
    # from the desk's call.
    for k in ("menu", "menu", "menu", "ok", "menu", "ok", "ok", "ok"):
        desk.r.press(k, 80)
    lines = _lines(desk)
    assert lines[0] == "@0 called" and lines[-1].endswith(" forfeit B late"), lines
    assert len(lines) == 2 and int(lines[1].split()[0][1:]) >= 60000
    from scoreboard.core.replay import replay

    path = desk.flash / "matches" / (desk.r.app.journal.stem + ".sbn")
    m = replay(path.read_text().splitlines(), journal=True)
    assert m.timing().late_start_due is True and m.finished()


def test_the_desks_call_of_the_match_in_progress_and_the_keys_meanwhile(tmp_path):
    """The match the referee started before its first frame (a shot clock chosen from
    the start screen's menu) takes the desk's `called` in the pass it arrives in; the
    referee's presses in the same passes all go in after it, in order."""
    d = _called_box(tmp_path, "box")
    device.queue(d.flash, "Cup-W1-02", [ln.replace("W1-01", "W1-02") for ln in CALLED])
    d.r.app.menu.refresh()
    for k in ("menu", "menu", "ok", "ok"):  # the words before the first frame: a clock
        d.r.press(k, 80)
    assert _lines(d)[0].startswith("@0 clock on ") and d.r.app.journal.id == "Cup-W1-01"
    assert d.ask("called", "Cup-W1-02")[:2] == (
        "err", "match Cup-W1-01 is in progress on the box".split())
    d.seq += 1
    d.send(request_line(d.seq, "called", ["Cup-W1-01"]))
    for k in ("end", "ok", "red", "black", "red"):  # B to break, the frame, pots
        d.r.press(k, 30)
    kind, words, _ = d.wait(d.seq)
    assert (kind, words) == ("ok", ["called", d.r.app.journal.stem, "late", "1"])
    lines = [ln.split(" ", 1)[1] for ln in _lines(d)]
    assert lines[1:] == ["called", "frame B", "pot red", "pot black", "pot red"], lines
    assert d.ask("called", "Cup-W1-01")[:2] == (
        "err", "match Cup-W1-01 is past its first frame".split())
    assert [ln.split(" ", 1)[1] for ln in _lines(d)].count("called") == 1


def test_the_desks_call_is_refused_with_its_reason(tmp_path):
    d = _called_box(tmp_path, "box")
    assert d.ask("called")[:2] == ("err", ["called", "ID"])
    assert d.ask("called", "../x")[0] == "err"
    d.r.press("menu", 80)  # the referee in the words of the queued match: left alone
    assert d.ask("called", "Cup-W1-01")[:2] == ("err", (
        "the referee has the box's menus open: call again once it shows its start screen"
    ).split())
    assert d.r.app.menu.pre is not None and not list(d.flash.glob("matches/*.sbn"))
    d.r.press("undo", 80)
    d.r.press("menu", 80)
    for k in ("menu", "menu", "ok", "ok", "ok", "ok"):  # forfeit A late: it is over
        d.r.press(k, 80)
    assert d.r.app.state() == "over"
    assert d.ask("called", "Cup-W1-01")[:2] == (
        "err", "match Cup-W1-01 is over on the box".split())
    device.queue(d.flash, "Cup-W1-02", [ln.replace("W1-01", "W1-02") for ln in CALLED])
    assert d.ask("called", "Cup-W1-02")[:2] == ("err", (
        "match Cup-W1-01 has ended on the box and waits for the referee's ok").split())
    d.r.press("ok", 80)  # the start screen again
    assert d.ask("called", "Cup-W1-01")[:2] == (
        "err", "match Cup-W1-01 was played on the box already".split())
    assert [ln.split(" ", 1)[1] for ln in _lines(d, "Cup-W1-01")] == ["forfeit A late"]
    assert d.ask("called", "Cup-W1-02")[1][0] == "started"


class _Pipe:
    """The host's pipe (device/channel.py's SerialPipe's two calls) to the stepped app:
    `drop` answer lines ending the answer to a `called` are lost on the way, as on a
    noisy cable."""

    def __init__(self, d, drop=0):
        self.d = d
        self.drop = drop
        self.ready = []

    def send(self, data):
        self.d.send(data)

    def line(self, timeout):
        for _ in range(int(timeout * 100)):
            if self.ready:
                return self.ready.pop(0)
            self.d.r.wait(10)
            for raw in self.d.lines():
                if self.drop and b" ok started " in raw:
                    self.drop -= 1
                    continue
                self.ready.append(raw)
        return None


def test_the_hosts_call_is_not_done_twice_when_its_answer_is_lost(tmp_path):
    """ChannelBox.called asks once; an answer lost on the way is asked for again, and
    the box's `called already` then says the first went in: one `called` line."""
    from host_tools.device.box import Refused
    from host_tools.device.channel import Channel as HostChannel, ChannelBox

    d = _called_box(tmp_path, "box")
    box = ChannelBox(HostChannel(_Pipe(d, drop=1)), "PORT", hello={})
    assert box.called("Cup-W1-01") == "has Cup-W1-01 called"
    assert [ln.split(" ", 1)[1] for ln in _lines(d)] == ["called"]
    d.r.press("ok", 80)
    with pytest.raises(Refused) as e:
        box.called("Cup-W1-01")
    assert str(e.value) == "the box refused: match Cup-W1-01 is past its first frame"
