"""`scoreboard sync` against the virtual device with the real mpremote, into SQLite and a
real PostgreSQL server: what is pulled and marked, what stays, twice in a row, damaged
files, cut transfers, bad input. Expectations follow issue 10 and docs/design.md's flash layout.
"""

import json
import sqlite3

import pytest

from support.hostfixtures import *  # noqa: F403  (fixtures: flash, device, db_url, pg_server)
from support.hostfixtures import fill_box
from support.vdev import (VirtualDevice, journal_match, journal_text, match_lines,
                          scoreboard, sync)
from host_tools.results.db import open_db
from host_tools.results.db.migrations import LATEST
from scoreboard.core.replay import replay
from host_tools.mp.replay_json import to_json


def rows(url):
    db = open_db(url)
    try:
        return db.counts(), {m["id"]: m for m in db.matches()}
    finally:
        db.close()


def expected_frames(flash, ids):
    total = 0
    for match_id in ids:
        with open(flash / "matches" / ("%s.sbn" % match_id), encoding="utf-8") as f:
            total += len(list(replay(f, journal=True).frames()))
    return total


def test_pulls_marks_and_second_sync_adds_nothing(flash, device, db_url):
    ids = fill_box(flash, 3, unfinished=1)
    rc, out, err = sync(device.port, db_url)
    assert rc == 0, err
    assert out.strip().splitlines()[-1] == (
        "sync: pulled 3, skipped 0, refused 0; 1 in progress copied as unfinished")
    (n_matches, n_frames), stored = rows(db_url)
    assert n_matches == 4 and n_frames == expected_frames(flash, ids)
    for match_id in ids[:3]:
        assert (flash / "matches" / ("%s.pulled" % match_id)).exists()
        assert stored[match_id]["status"] == "finished"
        with open(flash / "matches" / ("%s.sbn" % match_id), encoding="utf-8") as f:
            assert json.loads(stored[match_id]["report"]) == json.loads(
                to_json(replay(f, journal=True)))
    assert not (flash / "matches" / ("%s.pulled" % ids[3])).exists()
    assert stored[ids[3]]["status"] == "unfinished"
    assert stored[ids[0]]["date"] == "2026-11-29T18:03"
    assert stored[ids[0]]["side_a"] == "Ann" and stored[ids[0]]["side_b"] == "Bob"

    rc, out, err = sync(device.port, db_url)
    assert rc == 0, err
    assert out.strip().splitlines()[-1] == (
        "sync: pulled 0, skipped 3, refused 0; 1 in progress copied as unfinished")
    assert rows(db_url)[0] == (n_matches, n_frames)
    if db_url.endswith(".sqlite"):  # --all: into a new database, the marked ones again
        fresh = db_url.replace(".sqlite", "-new.sqlite")
        rc, out, err = sync(device.port, fresh, "--all")
        assert rc == 0, err
        assert out.strip().splitlines()[-1].startswith("sync: pulled 3, skipped 0,")
        assert rows(fresh)[0] == (n_matches, n_frames)
        rc, out, err = sync(device.port, fresh, "--all")
        assert out.strip().splitlines()[-1].startswith("sync: pulled 0, skipped 3,")


def test_copy_in_progress_is_replaced_then_finished(flash, device, tmp_path):
    url = str(tmp_path / "r.sqlite")
    lines = match_lines("PICO-3F2A-0042", seed=5)
    journal_match(flash, "PICO-3F2A-0042", lines[:12])
    (flash / "current").write_text("PICO-3F2A-0042\n")
    assert sync(device.port, url)[0] == 0
    first = rows(url)[1]["PICO-3F2A-0042"]
    assert first["status"] == "unfinished"
    journal_match(flash, "PICO-3F2A-0042", lines[:len(lines) - 3])
    assert sync(device.port, url)[0] == 0
    second = rows(url)[1]["PICO-3F2A-0042"]
    assert second["status"] == "unfinished" and second["sbn"] != first["sbn"]
    journal_match(flash, "PICO-3F2A-0042", lines)
    rc, out, _ = sync(device.port, url)
    assert rc == 0 and "pulled 1," in out
    (n_matches, _), stored = rows(url)
    assert n_matches == 1 and stored["PICO-3F2A-0042"]["status"] == "finished"
    assert stored["PICO-3F2A-0042"]["sbn"] == journal_text(lines)
    assert (flash / "matches" / "PICO-3F2A-0042.pulled").exists()


def test_left_unfinished_is_abandoned_and_continuation_wins(flash, device, tmp_path):
    url = str(tmp_path / "r.sqlite")
    left = match_lines("PICO-3F2A-0003", seed=3)
    journal_match(flash, "PICO-3F2A-0003", left[:14])  # not `current`: the box left it
    full = match_lines("PICO-3F2A-0004", seed=4)
    journal_match(flash, "PICO-3F2A-0004", full[:9])  # damaged original, kept by the box
    journal_match(flash, "PICO-3F2A-0004.2", full[:9] + [
        "# continued from PICO-3F2A-0004.sbn: line 10 torn, dropped"] + full[9:])
    rc, out, err = sync(device.port, url)
    assert rc == 0, err
    assert out.strip().splitlines()[-1] == "sync: pulled 2, skipped 0, refused 0"
    stored = rows(url)[1]
    assert stored["PICO-3F2A-0003"]["status"] == "abandoned"
    assert stored["PICO-3F2A-0004"]["status"] == "finished"
    assert "# continued from" in stored["PICO-3F2A-0004"]["sbn"]
    assert (flash / "matches" / "PICO-3F2A-0003.pulled").exists()
    assert (flash / "matches" / "PICO-3F2A-0004.pulled").exists()
    assert not (flash / "matches" / "PICO-3F2A-0004.2.pulled").exists()


def test_damaged_file_is_refused_and_stays(flash, device, tmp_path):
    url = str(tmp_path / "r.sqlite")
    fill_box(flash, 2)
    bad = match_lines("PICO-3F2A-0099", seed=9)
    text = journal_text(bad).split("\n")
    text[8] = text[8].replace("pot", "pat", 1) if "pot" in text[8] else text[8] + "x"
    path = flash / "matches" / "PICO-3F2A-0099.sbn"
    path.write_text("\n".join(text), encoding="utf-8")
    before = path.read_bytes()
    rc, out, err = sync(device.port, url)
    assert rc == 1
    assert "refused matches/PICO-3F2A-0099.sbn: line 9: bad checksum" in err
    assert "Traceback" not in out + err
    assert out.strip().splitlines()[-1] == "sync: pulled 2, skipped 0, refused 1"
    assert path.read_bytes() == before
    assert not (flash / "matches" / "PICO-3F2A-0099.pulled").exists()
    assert "PICO-3F2A-0099" not in rows(url)[1]


def test_rules_refusal_and_torn_last_line(flash, device, tmp_path):
    url = str(tmp_path / "r.sqlite")
    lines = match_lines("PICO-3F2A-0007", seed=7)
    journal_match(flash, "PICO-3F2A-0007", lines[:10] + ["frame B"])  # a frame in a frame
    torn = match_lines("PICO-3F2A-0008", seed=8)
    (flash / "matches").mkdir(exist_ok=True)
    (flash / "matches" / "PICO-3F2A-0008.sbn").write_text(
        journal_text(torn[:15]) + "pot re", encoding="utf-8")
    rc, _, err = sync(device.port, url)
    assert rc == 1
    assert "refused matches/PICO-3F2A-0007.sbn: line 11:" in err
    assert "PICO-3F2A-0008.sbn: a torn last line (no line end) was dropped" in err
    stored = rows(url)[1]
    assert "PICO-3F2A-0007" not in stored
    assert stored["PICO-3F2A-0008"]["sbn"] == journal_text(torn[:15])


def test_pulled_files_replay(flash, device, tmp_path):
    fill_box(flash, 2, stamps=True)
    files = tmp_path / "pulled"
    assert sync(device.port, str(tmp_path / "r.sqlite"), "--files", files)[0] == 0
    for name in ("PICO-3F2A-0001.sbn", "PICO-3F2A-0002.sbn"):
        rc, out, err = scoreboard("replay", files / name, "--json")
        assert rc == 0, err
        assert json.loads(out)["status"] == "finished"


def test_progress_bar_for_long_transfers(flash, device, tmp_path):
    fill_box(flash, 4, target=5, reds=15)
    rc, out, err = sync(device.port, str(tmp_path / "r.sqlite"), "--progress")
    assert rc == 0
    bars = [part for part in err.split("\r") if part.startswith("sync [")]
    assert len(bars) >= 3 and bars[-1].startswith("sync [" + "#" * 30 + "]")
    assert out.strip().splitlines()[-1].startswith("sync: pulled 4,")


def cut_sync(flash, url, cut_after):
    """A sync whose cable is pulled after `cut_after` bytes, then a full one."""
    dev = VirtualDevice(flash, cut_after=cut_after)
    rc, out, err = sync(dev.port, url)
    dev.stop()
    assert "Traceback" not in out + err
    if rc != 0:
        lines = (out + err).strip().splitlines()
        assert lines[-1].startswith("sync: "), out + err
    with VirtualDevice(flash) as dev:
        rc2, _, err2 = sync(dev.port, url)
    assert rc2 == 0, err2
    return rc


def measure_host_bytes(flash, url):
    dev = VirtualDevice(flash)
    assert sync(dev.port, url)[0] == 0
    return dev.stop()


def check_box_and_db(flash, url, ids, finished):
    (n_matches, n_frames), stored = rows(url)
    assert n_matches == len(ids), "rows %d, matches on the box %d" % (n_matches, len(ids))
    assert sorted(stored) == sorted(ids)
    assert n_frames == expected_frames(flash, ids)
    for match_id in ids:
        marked = (flash / "matches" / ("%s.pulled" % match_id)).exists()
        assert marked == (match_id in finished)


def _cut_sweep(flash, tmp_path, url, fractions):
    ids = fill_box(flash, 4, unfinished=1)
    scratch = str(tmp_path / "measure.sqlite")
    total = measure_host_bytes(flash, scratch)
    for p in (flash / "matches").glob("*.pulled"):
        p.unlink()
    cuts = 0
    for f in fractions:
        cuts += cut_sync(flash, url, max(1, int(total * f))) != 0
        check_box_and_db(flash, url, ids, ids[:4])
        for p in (flash / "matches").glob("*.pulled"):
            p.unlink()  # the next cut starts from an unmarked box again
    assert cuts >= len(fractions) - 1


def test_cut_transfers_lose_nothing_double_nothing(flash, tmp_path, db_url):
    _cut_sweep(flash, tmp_path, db_url, (0.03, 0.3, 0.6, 0.9))


@pytest.mark.slow
def test_cut_transfers_full_sweep(flash, tmp_path):
    _cut_sweep(flash, tmp_path, str(tmp_path / "r.sqlite"), [i / 25 for i in range(1, 25)])


def test_bad_input_one_line(tmp_path, device):
    cases = [
        ("--port", str(tmp_path / "ttyACM9"), "--db", str(tmp_path / "r.sqlite")),
        ("--port", "/dev/null", "--db", str(tmp_path / "r.sqlite")),
        ("--port", device.port, "--db", "mysql://u:hunter2@db/x"),
        ("--port", device.port, "--db", str(tmp_path / "no" / "such" / "r.sqlite")),
    ]
    for args in cases:
        rc, out, err = scoreboard("sync", *args)
        assert rc != 0
        text = (out + err).strip()
        assert len(text.splitlines()) == 1 and text.startswith("sync: "), text
        assert "hunter2" not in text
        assert not (tmp_path / "r.sqlite").exists(), "a sync that reached no box made a file"
    # A database that was there before is kept as it was, the box not reached.
    db = open_db(str(tmp_path / "kept.sqlite"))
    db.close()
    rc, out, err = scoreboard("sync", "--port", str(tmp_path / "ttyACM9"), "--db",
                              str(tmp_path / "kept.sqlite"))
    assert rc == 1 and open_db(str(tmp_path / "kept.sqlite")).counts() == (0, 0)


def test_schema_migrates_from_an_older_version(tmp_path):
    path = tmp_path / "old.sqlite"
    db = open_db(str(path))
    db.close()
    conn = sqlite3.connect(path)
    assert [r[0] for r in conn.execute("SELECT version FROM schema_version ORDER BY 1")] == [
        1, 2, 3, 4, 5, 6, 7]
    conn.close()
    from host_tools.results.db import connect
    path2 = tmp_path / "v1.sqlite"
    db = connect(str(path2))
    db.migrate(upto=1)
    assert db.version() == 1
    db.close()
    db = open_db(str(path2))
    assert db.version() == LATEST == 7
    assert db.counts() == (0, 0)
    db.close()
