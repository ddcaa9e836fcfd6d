"""A club's long session on one box: the desk queues the evening's draw, matches are
played back to back by keys (the real app, in virtual time), and every hour the host
syncs over the virtual device while somebody pulls the cable at a random moment; then it
syncs again. At the end every match played is in the database exactly once, finished,
and the box's flash never came near full: it deleted pulled matches when it needed room.

Two hours here; the whole eight-hour evening is a slow test (`make bench`).
"""

import random

import pytest
from host_tools.measure.app_bench import match_keys
import sqlite3

from scoreboard.keys.keymaps import number_key
from support import device
from support.vdev import VirtualDevice, scoreboard

MATCHES_AN_HOUR = 3
FLASH_KB = 200  # a small flash: the journal needs 160 KB free to start a match
GAMES = [("snooker reds=15", "best-of 3"), ("nineball", "race-to 3"),
         ("straight", "points 25")]


def keys_for(game):
    """Keys that play one whole match of `game` from the start screen, ending on it."""
    if game.startswith("snooker"):
        return [*match_keys(3), "ok"]
    if game == "nineball":
        return ["ok", "rackA", "ok", "rackB", "ok", "rackA", "ok", "rackB", "ok", "rackA",
                "ok"]
    # straight pool to 25: A runs 14, B 1 and a foul, A 11 more
    score = number_key("straight", 14)
    eleven = number_key("straight", 11)
    return ["ok", "score", score, "end", "ball", "foul", "score", eleven, "ok"]


def draw_csv(hours):
    rows = ["table,a,b,game,format,clock"]
    for n in range(hours * MATCHES_AN_HOUR):
        game, fmt = GAMES[n % len(GAMES)]
        rows.append("7,Player %d,Player %d,%s,%s," % (2 * n + 1, 2 * n + 2, game, fmt))
    return "\n".join(rows) + "\n"


def sync_with_a_pull(flash, url, rnd):
    """One hourly sync: the cable pulled after a random number of bytes, then again."""
    with VirtualDevice(flash, cut_after=rnd.randint(100, 2000)) as dev:
        first = scoreboard("sync", "--port", dev.port, "--db", url)[0]
        cut = not dev.alive()
    assert cut == (first != 0), "a sync fails exactly when its cable was pulled"
    with VirtualDevice(flash) as dev:
        rc, _, err = scoreboard("sync", "--port", dev.port, "--db", url)
    assert rc == 0, err
    return cut


def session(tmp_path, hours, seed=1):
    rnd = random.Random(seed)
    flash = tmp_path / "box"
    url = str(tmp_path / "results.sqlite")
    (tmp_path / "draw.csv").write_text(draw_csv(hours), encoding="utf-8")
    with VirtualDevice(flash) as dev:
        rc, _, err = scoreboard("setup", "--port", dev.port, tmp_path / "draw.csv")
        assert rc == 0, err
    played = set()
    cuts = 0
    least_free = None
    for hour in range(hours):
        for n in range(MATCHES_AN_HOUR):
            game = GAMES[(hour * MATCHES_AN_HOUR + n) % len(GAMES)][0]
            rc, out = device.run(flash, [*device.commands(keys_for(game)), "free"],
                                 flash_kb=FLASH_KB)
            assert rc == 0, out[-5:]
            assert not any(line.startswith("? ") for line in out), out
            free = int(next(line for line in out if line.startswith("F ")).split()[1])
            least_free = free if least_free is None else min(least_free, free)
            played |= {p.name.split(".")[0] for p in (flash / "matches").glob("*.sbn")}
        cuts += sync_with_a_pull(flash, url, rnd)
    assert cuts >= hours // 2, "the cable was really pulled during the syncs"
    with sqlite3.connect(url) as db:
        rows = db.execute("SELECT id, status FROM matches").fetchall()
    on_box = {p.name.split(".")[0] for p in (flash / "matches").glob("*.sbn")}
    print("long session: %d hours, %d matches played, %d syncs cut, %d rows, %d still on "
          "the box, least free %d KB" % (hours, len(played), cuts, len(rows), len(on_box),
                                         least_free // 1024))
    ids = [r[0] for r in rows]
    return played, ids, rows, least_free, on_box


def check(played, ids, rows, least_free, hours):
    # Every queued match started: none was refused for want of room.
    assert len(played) == hours * MATCHES_AN_HOUR
    assert sorted(ids) == sorted(played), "every match in the database, exactly once"
    assert len(ids) == len(set(ids))
    assert all(status == "finished" for _, status in rows), rows
    assert least_free > 100 * 1024, "the flash was never near full"


def test_two_hours(tmp_path):
    played, ids, rows, least_free, _ = session(tmp_path, 2)
    check(played, ids, rows, least_free, 2)


@pytest.mark.slow
def test_an_eight_hour_evening(tmp_path):
    played, ids, rows, least_free, on_box = session(tmp_path, 8, seed=8)
    check(played, ids, rows, least_free, 8)
    assert len(on_box) < len(played), "pulled matches were deleted when room was needed"
