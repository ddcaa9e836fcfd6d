"""Issue 24 on the chip: the request channel in the landed UF2 on the emulated Pico (the rp2
port's USB CDC console, its select.poll and the PIO keypad). The referee taps a frame
while the desk syncs the box again and again and `live` catches up again and again on
the same USB serial port: every press is journaled, the app never stops, and the table
holds the journal line for line. (The 50-and-50 run is `make bench`'s: slow.)"""

import threading
import time

import pytest

from host_tools.device.channel import ChannelBox
from host_tools.device.connect import open_box
from host_tools.live.link import Link
from host_tools.live.table import Table
from host_tools.pico.emulator import UF2, Pico
from host_tools.measure.pico_keys import FRAME_KEYS, HEADER
from host_tools.results.db import open_db
from host_tools.results.sync import check_journal, pull
from support.waits import wait_for


def pots(lines):
    return [ln.rsplit(" *", 1)[0].split(" ", 1)[1] for ln in lines
            if ln.startswith("@") and " pot " in ln]


@pytest.mark.parametrize("rounds, gap", [
    pytest.param(8, 120, id="8-and-8"),
    pytest.param(50, 900, id="50-and-50", marks=pytest.mark.slow)])
def test_presses_during_syncs_and_catch_ups_on_the_emulated_pico(tmp_path, rounds, gap):
    assert UF2.is_file(), "build/pico/scoreboard-pico.uf2 is missing: run `make uf2`"
    wanted = ["pot " + k for k in FRAME_KEYS if k not in ("ok", "end")]
    with Pico(tmp_path / "box.img", names=FRAME_KEYS) as pico:
        pico.boot()
        pico.idle()
        pico.queue(HEADER)
        pico.restart()
        port = pico.attach_pty()
        pico.go()
        done = threading.Event()

        def referee():  # a press every 0.2 s (or 1 s) of the box's time, as the desk works
            for key in FRAME_KEYS:
                pico.send("press %s 80 %d" % (key, gap))
            done.set()

        threading.Thread(target=referee, daemon=True).start()
        db_url = str(tmp_path / "r.sqlite")
        syncs = catch_ups = 0
        link = None
        try:
            while syncs < rounds:  # the desk syncs it directly...
                with open_box(port) as b:
                    assert isinstance(b, ChannelBox)
                    db = open_db(db_url)
                    pull(b, db, out=lambda text: None)
                    db.close()
                syncs += 1
            link = Link(Table(1, port), lambda *a: None)  # ...then live follows it
            link.start()
            end = time.monotonic() + 120
            wait_for(lambda: link.table.signal, 120, "live to catch up")
            while catch_ups < rounds:
                before = link.catch_ups
                link.refresh()
                wait_for(lambda: link.catch_ups != before, max(0, end + 600 - time.monotonic()),
                         "a catch-up", every=0.02)
                catch_ups += 1
            assert not done.is_set(), "the desk's work overlapped the play"
            assert done.wait(600), "the referee never finished"
            with open_box(port) as b:  # through live: it owns the port
                stem = b.current()
                lines, _ = check_journal(b.read("matches/%s.sbn" % stem))
                assert b.hello["state"] in ("match", "over")
            assert pots(lines) == wanted
            wait_for(lambda: link.table.lines == lines, 60, "the table to reach the journal")
        finally:
            if link is not None:
                link.stop()
                link.join(5)
