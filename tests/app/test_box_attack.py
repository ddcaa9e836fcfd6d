"""Issue 14, the box's side: what attacking the box found, each checked on CPython and on
the real MicroPython unix port (the same commands, the same output), and the heap
figures on the 32-bit build with the firmware frozen in.

The box is the real app on the host board (tests/micropython/box_attack.py wraps the
runner behind `scoreboard device`); the flash is a folder. What must hold:
- a pulled match is deleted for room only when its journal's SHA-256 is the mark's;
- the header names the box that made the match (`box ID`), and there is one box id;
- a queued file is normalised on the way in (BOM, `\\r\\n`, comments before `sbn 1`);
- a queued id that fails check_id is refused on the start screen, never a file name;
- the start screen reads the queue one file at a time: 2,000 queued matches boot in
  the heap one does;
- the start screen shows a refusal, not only a beep;
- after 6.2 days of match time `abandon`, `forfeit` and `suspend` still go in;
- a flash that fills in a match is announced, and a failed write leaves no torn line
  and keeps the match playable.
"""


import pytest
from host_tools.measure.app_bench import frame_keys
from host_tools.mp.device import Runner
from scoreboard.core.replay import replay
from host_tools.mp.replay_json import to_json
from scoreboard.core.timekeeper import MAX_MS
from support import device, mpy, powercut
from support.boxattack import HEADER, HOST_BOX, OVERTIME, both, finished, jp, pulled_mark, tagged


def shown(out):
    """(kind, message, notice) of each `text` command's line."""
    return [tuple(None if x == "None" else x for x in line.split("|")) for line in
            tagged(out, "N")]


def presses(keys):
    return ["press " + k for k in keys]


def queue(lines, name="m1"):
    return lambda flash: device.queue(flash, name, lines)


# -- 1. a corrected result is never deleted ----------------------------------------------
def test_a_pulled_match_is_deleted_only_when_its_hash_is_the_marks(tmp_path):
    from scoreboard.journal import Journal

    head = [*HEADER[:2], "match best-of 1", *HEADER[3:]]

    def prepare(flash):
        m = flash / "matches"
        j = Journal(str(flash), HOST_BOX)
        same, _ = finished(j, head)
        (m / (same + ".pulled")).write_text(pulled_mark(m / (same + ".sbn")))
        corrected, stale = finished(j, head, corrected=True)
        (m / (corrected + ".pulled")).write_text(stale)
        bare, _ = finished(j, head)
        (m / (bare + ".pulled")).write_text("")  # a mark without a hash proves nothing
        # A match that went on in a continuation: the host took (and hashed) the last.
        j.start(head)
        jp.play(j, ["frame A", "pot red"])
        cont = j.id
        with open(m / (cont + ".sbn"), "ab") as f:
            f.write(b"@5 pot bl")  # a torn last line: recovery continues in ID.2.sbn
        j = Journal(str(flash), HOST_BOX)
        j.recover()
        jp.play(j, ["concede"])
        j.finish()
        (m / (cont + ".pulled")).write_text(pulled_mark(m / (cont + ".2.sbn")))
        # The match in play, marked as the host marks one synced the moment it ended.
        j.start(head)
        jp.play(j, ["frame A", "pot red"])
        (m / (j.id + ".pulled")).write_text(pulled_mark(m / (j.id + ".sbn")))
        j.close()

    flashes, out = both(tmp_path, prepare, ["prune"])
    left = tagged(out, "P")[0].split(" ")[1].split(",")
    ids = ["%s-%04d" % (HOST_BOX, n) for n in range(1, 6)]
    assert not any(n.startswith(ids[0] + ".") for n in left), "its hash is the mark's"
    assert not any(n.startswith(ids[3] + ".") for n in left), "the continuation's hash"
    for mid in (ids[1], ids[2], ids[4]):  # corrected, unproven, in play: all kept
        assert {mid + ".sbn", mid + ".ckpt", mid + ".pulled"} <= set(left), (mid, left)
    corrected = flashes["micropython"] / "matches" / (ids[1] + ".sbn")
    assert b"pot black" in corrected.read_bytes(), "the correction is still on the box"


# -- 2. the header names the box; one box id ---------------------------------------------
def test_the_box_word_is_a_header_word_checked_like_an_id():
    from scoreboard.core.notation import NotationError, Reader

    def header(lines):
        r = Reader()
        for text in lines:
            r.feed(text)
        r.finish()
        return r.header

    h = header([HEADER[0], "id CLUB-7", "box PICO-3F2A9C01", *HEADER[1:]])
    assert h.box == "PICO-3F2A9C01"
    assert h.lines()[:3] == ["sbn 1", "id CLUB-7", "box PICO-3F2A9C01"]
    assert header(HEADER).box is None and "box" not in " ".join(header(HEADER).lines())
    for lines, why in (
            ([*HEADER, "box A", "box B"], "line 7: 'box' given twice"),
            ([*HEADER, "box ../etc"], "line 6: box '../etc': '.' is not allowed"),
            ([*HEADER, "box " + "X" * 41], "line 6: box is 41 characters (at most 40)"),
            ([*HEADER, "box"], "line 6: 'box' needs more words"),
            ([*HEADER, "frame A", "box PICO-1"],
             "line 7: header line 'box' after the first event")):
        with pytest.raises(NotationError) as e:
            header(lines)
        assert str(e.value).startswith(why), (str(e.value), why)


def test_one_box_id_and_the_app_uses_it(tmp_path):
    import scoreboard.app as app_module
    from boards.host import HostBoard
    from scoreboard.journal import Journal, box_id

    assert box_id(b"\x3f\x2a\x9c\x01", "pico") == "PICO-3F2A9C01"
    assert box_id(b"\xe6\x61\x41\x04\x03\x2f\x9c\x01", "pico") == "PICO-032F9C01"
    assert box_id(b"\x3f\x2a\x00\x01", "host") == HOST_BOX
    assert Journal(str(tmp_path / "j"), b"\x3f\x2a\x9c\x01").board_id == "PICO-3F2A9C01"
    assert getattr(app_module, "box_id", box_id) is box_id, "one box id function"
    board = HostBoard(str(tmp_path / "flash"), box_id=b"\x01\x02\x03\x04\x05")
    assert app_module.App(board).journal.board_id == "HOST-02030405"


@pytest.mark.parametrize("lines, want", [
    (HEADER, ["id %s-0001" % HOST_BOX, "box " + HOST_BOX]),
    ([HEADER[0], "id CLUB-7", *HEADER[1:]], ["id CLUB-7", "box " + HOST_BOX]),
    ([HEADER[0], "id CLUB-8", "box OTHER-9", *HEADER[1:]], ["id CLUB-8", "box OTHER-9"]),
], ids=["box-id", "host-id", "made-elsewhere"])
def test_the_box_writes_its_id_into_the_header(tmp_path, lines, want):
    flashes, out = both(tmp_path, queue(lines), presses(["ok"]) + ["text"])
    assert shown(out)[-1][0] == "score"
    for flash in flashes.values():
        got = device.journal_lines(device.journal_files(flash)[-1])
        assert got[0] == "sbn 1" and got[1:3] == want, got
        assert sum(line.startswith("box ") for line in got) == 1


def test_a_match_set_up_on_the_box_names_the_box_too(tmp_path):
    keys = ["menu", "ok", "ok", "ok", "ok"]  # set up: the defaults, Start
    flashes, out = both(tmp_path, lambda flash: None, presses(keys) + ["text"])
    assert shown(out)[-1][0] == "score"
    got = device.journal_lines(device.journal_files(flashes["cpython"])[-1])
    assert got[1:3] == ["id %s-0001" % HOST_BOX, "box " + HOST_BOX]


# -- 3. a queued file is normalised on the way in ------------------------------------------
def test_a_queued_file_with_bom_crlf_and_comments_starts_and_recovers(tmp_path):
    text = ("\ufeff# table 3, the final\r\n\r\n" + "\r\n".join(HEADER[:3]) +
            "   # three frames\r\n" + "\r\n".join(HEADER[3:]) + "\r\n")

    def prepare(flash):
        (flash / "queue").mkdir()
        (flash / "queue" / "final.sbn").write_bytes(text.encode())

    cmds = ["queue", "text", "press ok", "press red", "text", "reset", "text", "status"]
    flashes, out = both(tmp_path, prepare, cmds)
    assert tagged(out, "Q")[0] == "1 0 0 final"
    before, started, after = shown(out)
    assert before == ("start", None, None)
    assert started == ("score", None, None), "started, not refused"
    assert after == ("score", None, None), "a reset recovers it"
    assert tagged(out, "M")[-1] == "score 0 0 running"
    for flash in flashes.values():
        data = device.journal_files(flash)[-1].read_bytes()
        assert data.startswith(b"sbn 1 *"), data[:20]
        assert b"\r" not in data and b"\xef\xbb\xbf" not in data
        lines = device.journal_lines(device.journal_files(flash)[-1])
        assert lines[-2:] == ["frame A", "pot red"]


# -- 4. ids are checked where they arrive ---------------------------------------------------
BAD_IDS = [("a/b", "'/' is not allowed"), ("X" * 300, "is 300 characters (at most 40)"),
           (".hidden", "'.' is not allowed"), ("CLUB-7.2", "continuation"),
           ("com1", "a device name on Windows")]  # com1.sbn: no file on the desk's disk


@pytest.mark.parametrize("bad, why", BAD_IDS, ids=["slash", "300", "dot", "continuation",
                                                   "windows"])
def test_a_queued_id_that_fails_the_check_is_refused_on_the_start_screen(tmp_path, bad, why):
    def prepare(flash):
        device.queue(flash, "bad", [HEADER[0], "id " + bad, *HEADER[1:]])

    cmds = ["queue", "text", "press ok", "text", "files", "status"]
    flashes, out = both(tmp_path, prepare, cmds)
    assert tagged(out, "Q")[0].endswith(" bad"), "listed"
    _, refused = shown(out)
    assert refused[0] == "start" and why in (refused[1] or ""), refused
    assert tagged(out, "D") == [""], "no file made from it"
    assert tagged(out, "M")[-1] == "start 0 0 running", "never the error screen"
    for flash in flashes.values():
        assert (flash / "queue" / "bad.sbn").exists(), "left for the host to see"


def test_journal_start_checks_the_id(tmp_path):
    from scoreboard.journal import Journal, JournalError

    j = Journal(str(tmp_path), HOST_BOX)
    for bad, why in BAD_IDS:
        with pytest.raises(JournalError, match=why.replace("(", r"\(").replace(")", r"\)")):
            j.start([*HEADER, "id " + bad])
    assert list((tmp_path / "matches").iterdir()) == []


# -- 10. the queue is read one file at a time -----------------------------------------------
def _many(n):
    def prepare(flash):
        q = flash / "queue"
        q.mkdir()
        for i in range(n):
            (q / ("t%04d.sbn" % i)).write_text(
                "\n".join([*HEADER[:3], 'side A "A%d"' % i, 'side B "B%d"' % i]) + "\n")
    return prepare


def test_the_start_screen_pages_through_a_long_queue(tmp_path):
    cmds = ["queue"] + ["press undo", "queue"] * 9 + ["press ok", "text"]
    flashes, out = both(tmp_path, _many(12), cmds)
    rows = [line.split(" ") for line in tagged(out, "Q")]
    assert [int(r[1]) for r in rows] == list(range(10)), "undo: the next match"
    assert all(r[0] == "12" for r in rows), "the count of the whole queue"
    for total, cursor, first, names in rows:
        names = names.split(",")
        assert names[int(cursor) - int(first)] == "t%04d" % int(cursor)
        assert names == ["t%04d" % i for i in range(int(first), int(first) + len(names))]
    assert shown(out)[-1][0] == "score"
    head = device.journal_lines(device.journal_files(flashes["cpython"])[-1])
    assert 'side A "A9"' in head, "ok starts the match under the cursor"


def test_the_queue_wraps_round(tmp_path):
    _, out = both(tmp_path, _many(3), ["press undo"] * 3 + ["queue"])
    assert tagged(out, "Q") == ["3 0 0 t0000,t0001,t0002"]


@pytest.mark.parametrize("n", [200, 2000])
def test_a_long_queue_boots_in_the_heap_of_one_on_the_frozen_build(tmp_path, n):
    """A Pico-sized heap (the 32-bit build, the firmware frozen in): the box with
    `n` queued matches boots, lists them and starts one with the heap one needs."""
    figures = {}
    for count in (1, 6, n):
        flash = tmp_path / ("q%d" % count)
        flash.mkdir()
        _many(count)(flash)
        rc, out = device.run(flash, ["heap", "status", "press undo", "press ok", "status",
                                     "heap"], interpreter=device.MP32, heapsize="72K",
                             timeout=300)
        assert rc == 0, "\n".join(out[-10:])
        status = [line for line in out if line.startswith("M ")]
        assert status == ["M start 0 0 running", "M score 0 0 running"], out[-10:]
        figures[count] = [int(line.split()[1]) for line in out if line.startswith("H ")]
    grew = [b - a for a, b in zip(figures[6], figures[n])]
    assert max(grew) < 256, "the heap in use does not grow with the queue: %s" % figures
    window = [b - a for a, b in zip(figures[1], figures[n])]
    assert max(window) < 1024, "one queued or the six rows on the screen: %s" % figures


# -- 15. the start screen shows a refusal -----------------------------------------------------
def test_the_start_screen_shows_a_refusal_not_only_a_beep(tmp_path):
    cmds = ["wait 3000", "show", "press red", "wait 3000", "show", "text"]
    _, out = both(tmp_path, queue(HEADER), cmds)
    before, after = (bytes.fromhex(line.split()[3]) for line in out if line[:2] == "E ")
    assert shown(out)[-1][1] == "ok starts a match, menu sets one up"
    rows = [y for y in range(300) if before[y * 50:(y + 1) * 50] != after[y * 50:(y + 1) * 50]]
    assert rows, "the refusal is on the panel"
    assert 250 <= rows[0] and rows[-1] < 284, "in the boxed line above the hints: %s" % rows


def test_the_start_screen_shows_a_full_flash(tmp_path):
    cmds = ["wait 3000", "show", "press ok", "wait 3000", "show", "text"]
    _, out = both(tmp_path, queue(HEADER), cmds, flash_kb=100)
    kind, message, _ = shown(out)[-1]
    assert kind == "start" and message.startswith("Flash full: "), message
    before, after = (line.split()[3] for line in out if line[:2] == "E ")
    assert before != after, "the refusal is on the panel, not only in a beep"


# -- 18. after 6.2 days of match time ---------------------------------------------------------
def test_after_six_days_abandon_forfeit_and_suspend_still_go_in(tmp_path):
    cmds = (presses(["ok", "red"]) + ["jump %d" % MAX_MS, "text"] + presses(["black"]) +
            ["text", "choose suspend", "text", "choose resume", "text",
             "choose abandon no_winner", "press ok", "text", "status"])
    flashes, out = both(tmp_path, queue(HEADER), cmds)
    waited, refused, suspended, resume, abandoned = shown(out)
    assert waited == ("score", None, OVERTIME), "the panel says why before a key"
    assert refused[:2] == ("score", OVERTIME)
    assert suspended[0] == "score" and suspended[1] is None
    assert resume[1] == OVERTIME
    assert abandoned[0] == "match_end" and abandoned[1] is None
    assert tagged(out, "M")[-1] == "match_end 0 0 running", "never the error screen"
    for flash in flashes.values():
        path = device.journal_files(flash)[-1]
        assert device.events(path) == ["frame A", "pot red", "suspend", "abandon"]
        lines = path.read_text().splitlines()
        assert lines[-2].startswith("@%d suspend *" % MAX_MS), lines[-2]
        match = replay([x + "\n" for x in lines], journal=True)
        assert match.result()[0] == "abandoned"


def test_forfeit_goes_in_after_six_days_too(tmp_path):
    cmds = (presses(["ok", "red"]) + ["jump %d" % (2 * MAX_MS),
                                      "choose forfeit B_Bob retired", "press ok", "text"])
    flashes, out = both(tmp_path, queue(HEADER), cmds)
    assert shown(out)[-1][0] == "match_end"
    path = device.journal_files(flashes["cpython"])[-1]
    assert device.events(path)[-1] == "forfeit B retired"
    assert replay(path.read_text().splitlines(True), journal=True).result()[0] == "forfeited"


# -- 19. a flash that fills up in a match ------------------------------------------------------
def _frames(n):
    keys = []
    for i in range(n):
        keys += (["ok"] if i else []) + frame_keys()
    return keys


def test_the_panel_warns_how_many_frames_still_fit(tmp_path):
    head = [*HEADER[:2], "match best-of 35", *HEADER[3:]]
    cmds = ["press ok", "filler 164"]  # the match started; then the flash filled up
    for i in range(12):
        cmds += presses((["ok"] if i else []) + frame_keys()) + ["text", "free"]
    flashes, out = both(tmp_path, queue(head), cmds, flash_kb=182)
    notices = [n for _, _, n in shown(out)]
    frees = [int(x) for x in tagged(out, "F")]
    flash = flashes["cpython"] / "matches"
    per_frame = (sum(p.stat().st_size for p in flash.iterdir()) + 0.0) / 12
    assert notices[0] is None, "no warning with room for many frames"
    warned = [(i, n) for i, n in enumerate(notices) if n is not None]
    assert warned, notices
    counts = []
    for i, n in warned:
        assert n.startswith("flash: ") and n.endswith(" left"), n
        frames = 0 if n == "flash: less than a frame left" else int(n.split(" ")[2])
        assert frames <= frees[i] / per_frame, "never more than fits"
        assert frames >= frees[i] / per_frame - 7, (frames, frees[i], per_frame)
        counts.append(frames)
    assert counts == sorted(counts, reverse=True) and counts[-1] < counts[0]
    assert [i for i, _ in warned] == list(range(warned[0][0], len(notices))), \
        "once warned, warned after every frame"


class _Quota:
    """A flash folder that really fills: writes to matches/ beyond `room` bytes raise
    ENOSPC (whole: nothing of the write lands, as on littlefs; `torn`: part of it)."""

    def __init__(self, room, torn=False):
        self.room = room
        self.torn = torn
        self.on = False

    def open(self, path, mode="r", *args, **kw):
        f = open(path, mode, *args, **kw)
        if self.on and "/matches/" in str(path) and any(c in mode for c in "wa"):
            return _QuotaFile(self, f)
        return f


class _QuotaFile:
    def __init__(self, quota, f):
        self._q = quota
        self._f = f

    def write(self, data):
        q = self._q
        if len(data) > q.room:
            if q.torn and q.room:
                self._f.write(data[:q.room])
                self._f.flush()
            q.room = 0
            raise OSError(28, "No space left on device")
        q.room -= len(data)
        return self._f.write(data)

    def __getattr__(self, name):
        return getattr(self._f, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._f.close()


def _filling(tmp_path, monkeypatch, torn=False):
    device.queue(tmp_path, "m1", HEADER)
    quota = _Quota(10 ** 6, torn)
    quota.on = True
    for m in powercut.journal_modules():
        monkeypatch.setattr(m, "open", quota.open, raising=False)
    r = Runner(str(tmp_path))
    r.wait(100)
    for k in ["ok", "red", "black", "end"]:
        r.press(k, 80)
    quota.room = 30  # one more line fits (24 bytes), not two
    return r, quota


def test_a_write_that_fails_leaves_no_torn_line_and_the_match_playable(tmp_path,
                                                                        monkeypatch):
    r, quota = _filling(tmp_path, monkeypatch)
    path = device.journal_files(tmp_path)[-1]
    r.press("red", 80)  # fits
    kept = path.read_bytes()
    live = to_json(r.app.match)
    r.press("pink", 80)  # the flash is full
    app = r.app
    assert not app.stopped and app.screen.kind == "score", app.screen.error
    assert app.screen.message.startswith("Flash full: 'pot pink' was not saved"), \
        app.screen.message
    assert path.read_bytes() == kept, "nothing torn, nothing lost"
    assert to_json(app.match) == live, "the box shows what the journal holds"
    assert to_json(replay(kept.decode().splitlines(True), journal=True)) == live
    r.press("black", 80)  # every later key: refused on the flash, with the reason
    assert app.screen.message.startswith("Flash full: 'pot black'")
    assert path.read_bytes() == kept
    quota.room = 10 ** 6  # room again (pulled matches deleted, say): the match goes on
    r.press("black", 80)
    assert app.screen.message is None
    assert device.events(path)[-2:] == ["pot red", "pot black"]
    assert to_json(replay(path.read_text().splitlines(True), journal=True)) == \
        to_json(app.match)


def test_a_write_the_filesystem_tore_stops_appending_until_a_reset(tmp_path, monkeypatch):
    r, quota = _filling(tmp_path, monkeypatch, torn=True)
    quota.room = 10  # a part of the next line lands, then the flash is full
    path = device.journal_files(tmp_path)[-1]
    live = to_json(r.app.match)
    r.press("red", 80)
    torn = path.read_bytes()
    assert not torn.endswith(b"\n"), "this filesystem tore the write"
    assert r.app.screen.message.startswith("Flash full"), r.app.screen.message
    quota.room = 10 ** 6
    r.press("red", 80)  # never appended after the torn bytes: they would glue on
    assert path.read_bytes() == torn and r.app.screen.message
    assert to_json(r.app.match) == live
    monkeypatch.undo()
    r2 = Runner(str(tmp_path))  # a reset: the torn line dropped, the match goes on
    r2.wait(100)
    assert r2.app.screen.kind == "score" and to_json(r2.app.match) == live
    r2.press("red", 80)
    assert device.events(device.journal_files(tmp_path)[-1])[-1] == "pot red"


@pytest.mark.parametrize("interpreter", [None, device.MP32], ids=["unix64", "unix32-frozen"])
def test_a_really_full_littlefs_in_a_match(tmp_path, interpreter):
    script = mpy.REPO / "tests" / "micropython" / "box_flash_full.py"
    rc, out = mpy.run_micropython(script, heapsize="4M", interpreter=interpreter,
                                  timeout=300)
    assert rc == 0, out
    lines = out.splitlines()
    assert lines[-1] == "ok", out
    warn = [x for x in lines if x.startswith("warned ")]
    full = [x for x in lines if x.startswith("full ")]
    assert warn and full and lines.index(warn[0]) < lines.index(full[0]), out


# -- 10. `scoreboard device --keys` and the error screen -----------------------------------
def test_device_keys_exits_non_zero_when_the_app_reached_its_error_screen(tmp_path):
    flash = tmp_path / "box"
    device.queue(flash, "m1", HEADER)
    # a flash the journal cannot write: matches/ a link to nowhere (a file in its place
    # the box sets aside now: tests/journal/test_box_layouts.py)
    (flash / "matches").symlink_to(tmp_path / "nowhere" / "matches")
    keys = tmp_path / "keys.txt"
    keys.write_text("ok\nred\n")
    rc, out = mpy.run_tool([mpy.BIN / "scoreboard", "device", "--flash", flash,
                            "--keys", keys])
    assert rc != 0, out
    assert len(out.strip().splitlines()) == 1 and "error screen" in out, out
    assert "Traceback" not in out
    ok = tmp_path / "fine"
    device.queue(ok, "m1", HEADER)
    rc, out = mpy.run_tool([mpy.BIN / "scoreboard", "device", "--flash", ok, "--keys", keys])
    assert rc == 0 and out.startswith("played 2 keys"), out


def test_the_frame_end_screen_shows_why_too(tmp_path):
    cmds = (presses(["ok", "red"]) + ["choose concede_frame A_Ann", "press ok", "wait 3000",
                                      "show",
                                      "jump %d" % MAX_MS, "wait 3000", "show", "text",
                                      "press ok", "wait 3000", "show", "text"])
    _, out = both(tmp_path, queue(HEADER), cmds)
    over, waited, refused = (line.split()[3] for line in out if line[:2] == "E ")
    assert shown(out) == [("frame_end", None, OVERTIME), ("frame_end", OVERTIME, OVERTIME)]
    assert waited != over, "the notice is on the panel"
    assert refused != waited, "and the refusal ('NO: ...') over it"
