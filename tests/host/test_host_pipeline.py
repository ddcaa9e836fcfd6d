"""The whole way with the real firmware: the desk queues a match (`scoreboard setup` over
the virtual device), the referee plays it on the box (`scoreboard device --keys`, the real
app and journal), the host pulls it mid-match and at the end (`scoreboard sync`), then
exports and reports it. Expected scores are worked out by hand: six reds each followed by
the black, then the colours, is 6 x 8 + 27 = 75 in one break.
"""

import json

from support.vdev import VirtualDevice, scoreboard
from host_tools.results.db import open_db

DRAW = "table,a,b,game,format,clock\n5,Ann <b>,Bob,snooker reds=6,best-of 1,\n"
FIRST = ["ok", "red", "black", "red", "black"]  # 16 points, the frame goes on
REST = ["red", "black"] * 4 + ["yellow", "green", "brown", "blue", "pink", "black"]


def play(flash, tmp_path, keys, name):
    script = tmp_path / name
    script.write_text("\n".join(keys) + "\n", encoding="utf-8")
    rc, out, err = scoreboard("device", "--flash", flash, "--keys", script)
    assert rc == 0, out + err


def sync(flash, url):
    with VirtualDevice(flash) as dev:
        rc, out, err = scoreboard("sync", "--port", dev.port, "--db", url)
    assert rc == 0, err
    return out.strip().splitlines()[-1]


def test_queue_play_pull_report(tmp_path):
    flash = tmp_path / "box"
    url = str(tmp_path / "results.sqlite")
    draw = tmp_path / "draw.csv"
    draw.write_text(DRAW, encoding="utf-8")
    with VirtualDevice(flash) as dev:
        rc, out, err = scoreboard("setup", "--port", dev.port, draw, "--date",
                                  "2026-12-01T10:00")
        assert rc == 0, err
    mid = "DESK-2612011000-5-01"

    play(flash, tmp_path, FIRST, "first.txt")
    assert sync(flash, url) == (
        "sync: pulled 0, skipped 0, refused 0; 1 in progress copied as unfinished")
    db = open_db(url)
    copy = db.match(mid)
    db.close()
    assert copy["status"] == "unfinished" and copy["date"] == "2026-12-01T10:00"
    assert json.loads(copy["report"])["current"]["score"] == {"A": 16, "B": 0}
    assert not (flash / "matches" / ("%s.pulled" % mid)).exists()

    play(flash, tmp_path, REST, "rest.txt")  # the box recovers the match and goes on
    assert sync(flash, url) == "sync: pulled 1, skipped 0, refused 0"
    assert (flash / "matches" / ("%s.pulled" % mid)).exists()
    db = open_db(url)
    final = db.match(mid)
    assert db.counts() == (1, 1)
    db.close()
    report = json.loads(final["report"])
    assert final["status"] == "finished" and report["winner"] == "A"
    assert report["frames"][0]["score"] == {"A": 75, "B": 0}
    assert report["frames"][0]["breaks"]["A"] == [75]
    assert final["side_a"] == "Ann <b>"
    assert sync(flash, url) == "sync: pulled 0, skipped 1, refused 0"

    rc, out, err = scoreboard("export", "--db", url, "--format", "csv")
    assert rc == 0 and ('"%s","2026-12-01T10:00","snooker","1","Ann <b>","Bob","75","0","A",'
                        % mid) in out
    page = tmp_path / "m.html"
    assert scoreboard("report", mid, "--db", url, "-o", page)[0] == 0
    html = page.read_text(encoding="utf-8")
    assert "Ann &lt;b&gt;" in html and "<b>" not in html and html.count("<svg") == 1
