"""Issue 26 item 10, the desk's files in the club's language: `scoreboard export --format
csv --lang pl|bg` splits its cells by `;` (the list separator of a Polish or Bulgarian
Excel, which opens a double-clicked file in one column otherwise) under a header row in
that language, `--delimiter` overrides it, English stays `,`; and a result in words
names the winner first, with the score from the winner's side (`Иван Петров wins 2-0`,
never `... wins 0-2`), in the report in every language.

The database is real SQLite, filled by sync's own `record` and the store's `store` from
legal random matches (the core the judge), without a box."""

import csv
import io
import re

import pytest

from host_tools.results import report_lang
from host_tools.results.db import open_db
from host_tools.results.sync import load, record
from scoreboard.core.words import with_checksum
from support.vdev import match_lines, scoreboard

NAMES = ("Łukasz Żółć", "Иван Петров")


def _stored(db, match_id, seed):
    lines = [with_checksum(t) for t in match_lines(match_id, seed=seed, names=NAMES)]
    match = load(lines)
    rec, frames = record(match_id, lines, match, in_play=False)
    rec["box"] = "PICO-3F2A"
    db.store(rec, frames)
    return match


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    """A database with a match A won and one B won: (its path, {winner: match id})."""
    path = tmp_path_factory.mktemp("export") / "results.sqlite"
    db = open_db(str(path))
    ids = {}
    try:
        for seed in range(1, 60):
            mid = "PICO-3F2A-%04d" % seed
            lines = [with_checksum(t) for t in match_lines(mid, seed=seed, names=NAMES)]
            winner = load(lines).outcome()[1]
            if winner is None or "AB"[winner] in ids:
                continue
            _stored(db, mid, seed)
            ids["AB"[winner]] = mid
            if len(ids) == 2:
                break
    finally:
        db.close()
    assert set(ids) == {"A", "B"}
    return str(path), ids


def _export(url, *more):
    rc, out, err = scoreboard("export", "--db", url, "--format", "csv", *more)
    assert rc == 0, err
    assert out.startswith("\ufeff")
    return out[1:]


@pytest.mark.parametrize("code", ["pl", "bg"])
def test_polish_and_bulgarian_csv_is_split_by_semicolons(results, code):
    url, _ = results
    text = _export(url, "--lang", code)
    t = report_lang.TEXTS[code]
    head = text.splitlines()[0]
    assert head == ";".join('"%s"' % t["csv." + c] for c in (
        "match_id", "date", "game", "frame", "side_a", "side_b", "score_a", "score_b",
        "winner", "winner_name", "how", "breaks_a", "breaks_b", "stored", "box"))
    assert "match_id" not in head and "," not in head
    rows = list(csv.reader(io.StringIO(text), delimiter=";"))
    assert len(rows) > 2 and all(len(r) == 15 for r in rows)
    assert {(r[4], r[5]) for r in rows[1:]} == {NAMES}
    # the same cells as the English file, split otherwise, but the words in the language
    # (issue 38): the game, how a frame ended, how the match was stored
    english = list(csv.reader(io.StringIO(_export(url))))
    words = {2: "g.", 10: "how.", 13: "st."}
    for row, en in zip(rows[1:], english[1:], strict=True):
        for i, (cell, was) in enumerate(zip(row, en, strict=True)):
            assert cell == (t[words[i] + was] if i in words and was else was), (i, cell, was)
    assert {r[13] for r in rows[1:]} == {t["st.finished"]}


def test_english_stays_comma_separated(results):
    url, _ = results
    text = _export(url)
    assert text.startswith('"match_id","date","game","frame"')
    assert text == _export(url, "--lang", "en")


@pytest.mark.parametrize("given, split", [(",", ","), ("|", "|"), ("tab", "\t"), ("\\t", "\t")])
def test_the_delimiter_overrides_the_language(results, given, split):
    url, _ = results
    text = _export(url, "--lang", "pl", "--delimiter", given)
    rows = list(csv.reader(io.StringIO(text), delimiter=split))
    assert rows[0][0] == report_lang.TEXTS["pl"]["csv.match_id"]
    assert all(len(r) == 15 for r in rows)
    assert text.splitlines()[0].count(split) == 14


@pytest.mark.parametrize("args, message", [
    (("--lang", "de"), "export: --lang de: the CSV speaks en, pl or bg"),
    (("--delimiter", ";;"), "export: --delimiter ;;: one character such as , ; | or tab"),
    (("--delimiter", '"'), "export: --delimiter \": one character such as , ; | or tab"),
    (("--delimiter", "x"), "export: --delimiter x: one character such as , ; | or tab"),
])
def test_bad_options_are_one_line(results, args, message):
    url, _ = results
    rc, out, err = scoreboard("export", "--db", url, "--format", "csv", *args)
    assert rc == 2 and out == "" and err.strip() == message


def test_json_takes_no_language_or_delimiter(results):
    url, _ = results
    for more in (("--lang", "pl"), ("--delimiter", ";")):
        rc, out, err = scoreboard("export", "--db", url, "--format", "json", *more)
        assert rc == 2 and out == "" and "for --format csv" in err


@pytest.mark.parametrize("code", report_lang.LANGS)
def test_the_report_names_the_winner_first(results, code, tmp_path):
    url, ids = results
    t = report_lang.TEXTS[code]
    pattern = re.escape(t["wins"]).replace("%s", "(.+?)").replace("%d", "([0-9]+)")
    for side, mid in ids.items():
        page = tmp_path / ("%s-%s.html" % (code, side))
        rc, _, err = scoreboard("report", mid, "--db", url, "--lang", code, "-o", page)
        assert rc == 0, err
        found = re.search("<p>" + pattern + " &middot;", page.read_text(encoding="utf-8"))
        assert found, (code, side)
        name, won, lost = found.group(1), int(found.group(2)), int(found.group(3))
        assert name == NAMES["AB".index(side)]
        assert won > lost
