# ruff: noqa: RUF001  (Cyrillic letters look like Latin ones: they are the language)
"""The host side speaks it too (issue 18 item 3): `scoreboard report --lang pl|bg|en`
(the page's fixed texts and dates from host_tools/results/report_lang.py, one table per
language, a table with a key missing fails), and the CSV export in UTF-8 with a
byte-order mark, so a spreadsheet opens Polish and Cyrillic names right."""

import csv
import re
import shutil
import subprocess

import pytest

from support.hostfixtures import *  # noqa: F403  (fixtures: flash, device)
from support.hostfixtures import fill_box
from support.vdev import REPO, scoreboard
from host_tools.results import report_lang

NAMES = ("Łukasz Wiśniewski", "Иван Петров")
EVIL = "<b>Zoë</b>"


@pytest.fixture
def pulled(flash, device, tmp_path):
    """A results database with 2 finished matches (times stamped) and 1 in progress,
    between a Polish and a Bulgarian player, and one with a name to escape."""
    ids = fill_box(flash, 2, unfinished=1, stamps=True, names=NAMES)
    ids += fill_box(flash, 1, prefix="PICO-EVIL", names=(EVIL, "Bob"))
    url = str(tmp_path / "results.sqlite")
    rc, _, err = scoreboard("sync", "--port", device.port, "--db", url)
    assert rc == 0, err
    return url, ids


# -- the CSV: UTF-8 with its mark ----------------------------------------------------
def test_csv_names_round_trip_with_the_byte_order_mark(pulled, tmp_path):
    url, ids = pulled
    out_file = tmp_path / "results.csv"
    rc, out, err = scoreboard("export", "--db", url, "--format", "csv", "-o", out_file)
    assert rc == 0 and out == "", err
    data = out_file.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf\"match_id\"")  # one mark, then the header row
    assert data.count(b"\xef\xbb\xbf") == 1
    with open(out_file, encoding="utf-8-sig", newline="") as f:
        rows = list(csv.DictReader(f))
    assert next(iter(rows[0])) == "match_id"
    mine = [r for r in rows if r["match_id"] in ids[:3]]
    assert mine and all((r["side_a"], r["side_b"]) == NAMES for r in mine)
    assert {r["winner_name"] for r in mine if r["winner"]} <= set(NAMES)
    # standard output gives the very bytes of the file (`> results.csv`)
    proc = subprocess.run([str(REPO / ".venv" / "bin" / "python"), "-m", "host_tools", "export",
                           "--db", url, "--format", "csv"], cwd=str(REPO), capture_output=True,
                          check=False)
    assert proc.returncode == 0 and proc.stdout == data


def test_json_has_no_byte_order_mark(pulled):
    url, _ = pulled
    rc, out, err = scoreboard("export", "--db", url, "--format", "json")
    assert rc == 0 and out.startswith("[") and NAMES[0] in out, err


# -- the tables ----------------------------------------------------------------------
def _conversions(text):
    return re.findall(r"%[-0-9.]*[sdf%]", text)


def check_table(table, reference):
    """What is wrong with `table` against the reference table: [] when nothing."""
    problems = ["missing key %s" % k for k in sorted(set(reference) - set(table))]
    problems += ["unknown key %s" % k for k in sorted(set(table) - set(reference))]
    for k in sorted(set(reference) & set(table)):
        if _conversions(table[k]) != _conversions(reference[k]):
            problems.append("%s: conversions %s, not %s" % (
                k, _conversions(table[k]), _conversions(reference[k])))
        if not table[k].strip():
            problems.append("%s: empty" % k)
    return problems


@pytest.mark.parametrize("code", ["en", "pl", "bg"])
def test_every_table_has_every_key(code):
    assert report_lang.LANGS == ("en", "pl", "bg")
    assert check_table(report_lang.TEXTS[code], report_lang.TEXTS["en"]) == []


def test_a_table_with_a_key_missing_fails():
    broken = dict(report_lang.TEXTS["pl"])
    del broken["h.shots"]
    broken["wins"] = "%s wygrywa"
    assert check_table(broken, report_lang.TEXTS["en"]) == [
        "missing key h.shots", "wins: conversions ['%s'], not ['%s', '%d', '%d']"]


def test_the_seeds_terms():
    pl, bg = report_lang.TEXTS["pl"], report_lang.TEXTS["bg"]
    assert "frejm" in pl["frame"] and "brejk" in pl["th.breaks"].lower()
    assert pl["how.fouled"] == "faul"
    assert "фрейм" in bg["frame"] and "гейм" in bg["rack"] and "серии" in bg["th.breaks"]
    assert bg["how.fouled"] == "фаул"


@pytest.mark.parametrize("code, text, want", [
    ("en", "2026-11-29T18:03", "29 November 2026, 18:03"),
    ("pl", "2026-11-29T18:03", "29 listopada 2026, 18:03"),
    ("bg", "2026-11-29T18:03", "29 ноември 2026 г., 18:03"),
    ("pl", "2026-03-01T07:05:09Z", "1 marca 2026, 07:05 UTC"),
    ("bg", "2026-05-02", "2 май 2026 г."),
    ("pl", "2026-02-30T10:00", "2026-02-30T10:00"),  # no such day: as it was written
    ("en", "Saturday night", "Saturday night"),
])
def test_dates_in_each_language(code, text, want):
    assert report_lang.date(text, report_lang.TEXTS[code]) == want


# -- the report in each language -----------------------------------------------------
def _report(url, match_id, tmp_path, *lang):
    page = tmp_path / ("%s-%s.html" % (match_id, "-".join(lang) or "default"))
    rc, _, err = scoreboard("report", match_id, "--db", url, "-o", page, *lang)
    assert rc == 0, err
    return page, page.read_text(encoding="utf-8")


def test_the_report_in_polish_and_bulgarian(pulled, tmp_path):
    url, ids = pulled
    _, default = _report(url, ids[0], tmp_path)
    _, english = _report(url, ids[0], tmp_path, "--lang", "en")
    assert default == english and '<html lang="en">' in english
    assert "<h2>Score progression</h2>" in english and "29 November 2026, 18:03" in english
    _, polish = _report(url, ids[0], tmp_path, "--lang", "pl")
    assert '<html lang="pl">' in polish
    for text in ("<h2>Przebieg wyniku</h2>", "<h2>Frejmy i brejki</h2>", "<h2>Czasy uderzeń</h2>",
                 "29 listopada 2026, 18:03", "<th>frejm</th>", "Czas meczu "):
        assert text in polish, text
    _, bulgarian = _report(url, ids[0], tmp_path, "--lang", "bg")
    assert '<html lang="bg">' in bulgarian
    for text in ("<h2>Развитие на резултата</h2>", "<h2>Фреймове и серии</h2>",
                 "29 ноември 2026 г., 18:03", "<th>фрейм</th>", "Време на мача "):
        assert text in bulgarian, text
    for page in (english, polish, bulgarian):
        assert NAMES[0] in page and NAMES[1] in page
        assert page.count("<svg") == english.count("<svg")  # the same charts
    assert "Score progression" not in polish + bulgarian
    # no English word of the page's own is left in the other languages
    for word in ("Frames and breaks", "Shot times", "stored as", "High break", "From the journal",
                 "wins", "events"):
        assert word not in polish and word not in bulgarian, word


def test_the_fixed_texts_of_an_unfinished_untimed_match(flash, device, tmp_path):
    ids = fill_box(flash, 1, unfinished=1, names=NAMES)
    url = str(tmp_path / "r.sqlite")
    assert scoreboard("sync", "--port", device.port, "--db", url)[0] == 0
    for code in report_lang.LANGS:
        _, html = _report(url, ids[1], tmp_path, "--lang", code)
        t = report_lang.TEXTS[code]
        assert t["in_progress"] in html and t["no_times"] % "<code>@MS</code>" in html
        assert t["in_play"] in html and t["st.unfinished"] in html


def test_names_already_escaped_stay_so(pulled, tmp_path):
    url, ids = pulled
    for code in report_lang.LANGS:
        _, html = _report(url, ids[3], tmp_path, "--lang", code)
        assert "&lt;b&gt;Zoë&lt;/b&gt;" in html and "<b>" not in html


def test_an_unknown_lang_is_one_line(pulled, tmp_path):
    url, ids = pulled
    for bad in ("de", "PL", ""):
        rc, out, err = scoreboard("report", ids[0], "--db", url, "-o", tmp_path / "x.html",
                                  "--lang", bad)
        text = (out + err).strip()
        assert rc != 0 and len(text.splitlines()) == 1, text
        assert text == "report: --lang %s: the page speaks en, pl or bg" % bad
        assert not (tmp_path / "x.html").exists()


def test_the_reports_in_headless_chromium(pulled, tmp_path):
    """Each language's page opened by Chromium and saved as a screenshot (test-output/),
    for a person to look at; the browser shows the names and the texts."""
    url, ids = pulled
    chromium = shutil.which("chromium")
    assert chromium, "chromium is missing: run `make deps`"
    shots = REPO / "test-output"
    shots.mkdir(exist_ok=True)
    for code in ("pl", "bg"):
        page, _ = _report(url, ids[0], tmp_path, "--lang", code)
        png = shots / ("host-report-%s.png" % code)
        if png.exists():
            png.unlink()
        base = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                "--user-data-dir=%s" % (tmp_path / ("chrome-" + code))]
        proc = subprocess.run(base + ["--window-size=1000,1400", "--screenshot=%s" % png,
                                      page.as_uri()], capture_output=True, timeout=90,
                              check=False)
        assert png.exists() and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", proc.stderr[-800:]
        dom = subprocess.run(base + ["--dump-dom", page.as_uri()], capture_output=True,
                             timeout=90, check=False).stdout.decode()
        assert report_lang.TEXTS[code]["h.progression"] in dom and NAMES[1] in dom
