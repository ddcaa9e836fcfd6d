"""`scoreboard export` and `scoreboard report` on matches that sync pulled from the virtual
device (issue 10, points 6-8): JSON keys as docs/notation.md's replay JSON plus id, date and
names; one CSV row per frame; the report self-contained, names escaped, opened in
headless Chromium and saved as a screenshot.
"""

import csv
import io
import json
import re
import shutil
import subprocess

import pytest

from support.hostfixtures import *  # noqa: F403  (fixtures: flash, device)
from support.hostfixtures import fill_box
from support.vdev import REPO, scoreboard
from scoreboard.core.replay import replay
from host_tools.mp.replay_json import to_json

EVIL = "<script>alert(1)</script>"
REPLAY_KEYS = ["game", "status", "winner", "frames_won", "frames", "current", "result",
               "timing"]


@pytest.fixture
def pulled(flash, device, tmp_path):
    """A results database holding 2 finished matches (with times) and 1 in progress."""
    ids = fill_box(flash, 2, unfinished=1, stamps=True, names=(EVIL, 'Bob "B" & Co'))
    url = str(tmp_path / "results.sqlite")
    rc, _, err = scoreboard("sync", "--port", device.port, "--db", url)
    assert rc == 0, err
    return url, ids


def journal_json(flash, match_id):
    with open(flash / "matches" / ("%s.sbn" % match_id), encoding="utf-8") as f:
        return json.loads(to_json(replay(f, journal=True)))


def test_export_json(pulled, flash, tmp_path):
    url, ids = pulled
    out_file = tmp_path / "all.json"
    rc, out, err = scoreboard("export", "--db", url, "--format", "json", "-o", out_file)
    assert rc == 0 and out == "", err
    data = json.loads(out_file.read_text(encoding="utf-8"))
    assert [m["id"] for m in data] == ids
    for m in data:
        assert list(m)[:5] == ["id", "box", "date", "sides", "stored"]
        assert list(m)[5:] == REPLAY_KEYS
        assert m["sides"] == {"A": EVIL, "B": 'Bob "B" & Co'}
        assert m["date"] == "2026-11-29T18:03"
        expected = journal_json(flash, m["id"])
        assert {k: m[k] for k in REPLAY_KEYS} == expected
    assert [m["stored"] for m in data] == ["finished", "finished", "unfinished"]
    assert data[0]["timing"]["A"]["shots"] > 0


def test_export_csv_one_row_per_frame(pulled, flash):
    url, ids = pulled
    rc, out, err = scoreboard("export", "--db", url, "--format", "csv")
    assert rc == 0, err
    assert out.startswith("\ufeff")  # the byte-order mark a spreadsheet reads UTF-8 by
    rows = list(csv.DictReader(io.StringIO(out[1:])))
    expected = []
    for match_id in ids:
        for f in journal_json(flash, match_id)["frames"]:
            expected.append((match_id, str(f["number"]), str(f["score"]["A"]),
                             str(f["score"]["B"]), f["winner"] or "", f["how"] or "",
                             " ".join(map(str, f["breaks"]["A"]))))
    assert [(r["match_id"], r["frame"], r["score_a"], r["score_b"], r["winner"], r["how"],
             r["breaks_a"]) for r in rows] == expected
    assert rows[0]["side_a"] == EVIL and rows[0]["side_b"] == 'Bob "B" & Co'
    won = [r for r in rows if r["winner"] == "A"]
    assert won and all(r["winner_name"] == EVIL for r in won)


def test_report_is_self_contained_and_escaped(pulled, flash, tmp_path):
    url, ids = pulled
    page = tmp_path / "report.html"
    rc, _out, err = scoreboard("report", ids[0], "--db", url, "-o", page)
    assert rc == 0, err
    html = page.read_text(encoding="utf-8")
    assert "<script" not in html.lower()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert not re.search(r'(src|href)=["\']?(https?:|//)', html)  # nothing fetched
    frames = journal_json(flash, ids[0])["frames"]
    assert html.count("<svg") == len(frames)
    assert "<h2>Shot times</h2><table>" in html
    for f in frames:
        for b in f["breaks"]["A"] + f["breaks"]["B"]:
            assert ">%s<" % b in html or ", %s<" % b in html or ">%s," % b in html


def test_report_in_headless_chromium(pulled, tmp_path):
    url, ids = pulled
    chromium = shutil.which("chromium")
    assert chromium, "chromium is missing: run `make deps`"
    page = tmp_path / "report.html"
    assert scoreboard("report", ids[0], "--db", url, "-o", page)[0] == 0
    shots = REPO / "test-output"
    shots.mkdir(exist_ok=True)
    png = shots / "host-report.png"
    if png.exists():
        png.unlink()
    base = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
            "--user-data-dir=%s" % (tmp_path / "chrome")]
    proc = subprocess.run(base + ["--window-size=1000,1400", "--screenshot=%s" % png,
                                  page.as_uri()], capture_output=True, timeout=90, check=False)
    assert png.exists() and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", proc.stderr[-800:]
    assert png.stat().st_size > 10000
    dom = subprocess.run(base + ["--dump-dom", page.as_uri()], capture_output=True,
                         timeout=90, check=False).stdout.decode()
    assert "<script" not in dom.lower()  # the browser made no element of the name
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in dom and "<svg" in dom


def test_unfinished_and_untimed_reports(flash, device, tmp_path):
    ids = fill_box(flash, 1, unfinished=1)
    url = str(tmp_path / "r.sqlite")
    assert scoreboard("sync", "--port", device.port, "--db", url)[0] == 0
    page = tmp_path / "p.html"
    assert scoreboard("report", ids[1], "--db", url, "-o", page)[0] == 0
    html = page.read_text(encoding="utf-8")
    assert "in progress" in html and "No times in this journal" in html


def test_bad_input_one_line(pulled, tmp_path):
    url, _ = pulled
    cases = [
        (("report", "NO-SUCH-0001", "--db", url), "report: no match NO-SUCH-0001 in "),
        (("report", "X", "--db", str(tmp_path / "none.sqlite")), "report: no results database"),
        (("export", "--format", "json", "--db", "oracle://scott:tiger@db/x"),
         "export: unknown database URL oracle://scott:***@db/x"),
        (("export", "--format", "csv", "--db", str(tmp_path / "none.sqlite")),
         "export: no results database"),
        (("export", "--format", "json", "--db", url, "-o", str(tmp_path / "no" / "x.json")),
         "export: cannot write"),
    ]
    for args, start in cases:
        rc, out, err = scoreboard(*args)
        text = (out + err).strip()
        assert rc != 0 and len(text.splitlines()) == 1 and text.startswith(start), text
        assert "tiger" not in text


def test_replay_reads_pulled_files(pulled, tmp_path):
    url, _ids = pulled
    rc, out, _ = scoreboard("export", "--db", url, "--format", "json")
    data = json.loads(out)
    folder = tmp_path / "files"
    folder.mkdir()
    from host_tools.results.db import open_db
    db = open_db(url)
    for m in data:
        (folder / ("%s.sbn" % m["id"])).write_text(db.match(m["id"])["sbn"], encoding="utf-8")
    db.close()
    for m in data:
        rc, out, err = scoreboard("replay", folder / ("%s.sbn" % m["id"]), "--json")
        assert rc == 0, err
        assert json.loads(out) == {k: m[k] for k in REPLAY_KEYS}
