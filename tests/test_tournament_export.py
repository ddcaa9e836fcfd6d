"""Issue 38 item 5: `scoreboard export --rows matches` gives one row per match, the
tournaments' with their stage and round (a box's result with its date, box match id and
box; a walkover with how it ended), then the matches of no tournament; `--rows
placings` the final places; `--tournament` one tournament's; in the club's language
(the header row and the words) with `--lang`, as the frames' CSV is made (BOM, quoted,
`;`). The database is real SQLite; the boxes' matches are stored through the results
database's hook as sync stores them."""

import csv
import io
import json

import pytest

from host_tools.results.db import open_db
from host_tools.results.report_lang import TEXTS
from host_tools.results.sync import load, record
from host_tools.tournament import advance, boxresults, players, store
from host_tools.tournament.export import MATCH_COLUMNS, PLACING_COLUMNS
from host_tools.tournament.header import header_lines
from host_tools.results.db import Origin
from scoreboard.core.words import with_checksum
from support.vdev import match_lines, scoreboard

NAMES = ("Ewa Łuczak", "Иван Петров", "Ann Lee", "Bob Kray")


def _put(db, lines, box="BOX1", table=None):
    """The journal as `scoreboard sync` stores it from box `box` claiming `table`."""
    match = load(lines)
    rec, frames = record(match.header.id, lines, match, None, in_play=False)
    rec["box"] = box
    return db.store(rec, frames, device=box, origin=Origin(box, table))


@pytest.fixture
def url(tmp_path):
    """A single elimination of 4 (race to 2): W1-01 played on a box, W1-02 a walkover
    entered by hand, the final not played; and a match of no tournament."""
    path = str(tmp_path / "results.sqlite")
    db = open_db(path, bracket=boxresults)
    try:
        entries = players.entries("name,club\n" + "\n".join(
            "%s,%s" % (n, "KS Bila" if i == 0 else "") for i, n in enumerate(NAMES)) + "\n")
        t = store.make("Turniej sobotni 12.12", "single", entries, "eightball",
                       {s: {"match": "race-to 2"} for s in ("winners", "final")}, 5)
        store.create(db, t, "test")
        t = store.load(db, t.name)
        head = header_lines(t, "W1-01")
        t = store.assign(db, t.name, "W1-01", 1, "test", box="BOX1")  # table 1's box
        lines = [with_checksum(x) for x in head + ["frame A", "rack A", "frame", "rack A"]]
        assert _put(db, lines, table=1) == "new"
        st = t.states["W1-02"]
        store.result(db, t.name, "W1-02", st.b, None, "walkover", via="test")
        loose = [with_checksum(x) for x in match_lines("PICO-3F2A-0001", seed=3,
                                                        names=("Zoë", "Ola"))]
        _put(db, loose, "PICO-3F2A")
    finally:
        db.close()
    return path


def _csv(url, *more):
    rc, out, err = scoreboard("export", "--db", url, "--format", "csv", *more)
    assert rc == 0, err
    assert out.startswith("\ufeff")
    return list(csv.reader(io.StringIO(out[1:]), delimiter=";" if "pl" in more else ","))


def test_one_row_per_match_with_its_tournament_stage_and_round(url):
    rows = _csv(url, "--rows", "matches")
    assert tuple(rows[0]) == MATCH_COLUMNS
    got = [dict(zip(MATCH_COLUMNS, r, strict=True)) for r in rows[1:]]
    assert [(r["tournament"], r["stage"], r["round"], r["match_id"]) for r in got] == [
        ("Turniej sobotni 12.12", "winners", "1", "W1-01"),
        ("Turniej sobotni 12.12", "winners", "1", "W1-02"),
        ("Turniej sobotni 12.12", "final", "2", "F1"),
        ("", "", "", "PICO-3F2A-0001")]
    w1, w2, f1, loose = got
    assert (w1["score_a"], w1["score_b"], w1["how"], w1["status"]) == ("2", "0", "played", "done")
    assert w1["winner_name"] == w1["side_a"]
    assert (w1["box_match"], w1["box"]) == ("Turniej-sobotni-12.12-W1-01", "BOX1")
    assert w1["date"]
    assert (w2["score_a"], w2["score_b"], w2["how"], w2["status"]) == ("", "", "walkover",
                                                                      "walkover")
    assert w2["winner_name"] == w2["side_b"] and w2["box"] == ""
    assert (f1["side_a"], f1["side_b"], f1["status"]) == (w1["side_a"], w2["side_b"], "ready")
    assert (loose["side_a"], loose["side_b"], loose["box"]) == ("Zoë", "Ola", "PICO-3F2A")


def test_the_match_rows_in_polish(url):
    rows = _csv(url, "--rows", "matches", "--lang", "pl")
    t = TEXTS["pl"]
    assert rows[0] == [t["csv." + c] for c in MATCH_COLUMNS]
    assert rows[0][:3] == ["turniej", "etap", "runda"]
    w1, w2, f1, loose = rows[1:]
    assert (w1[1], w1[5], w1[11], w1[13]) == ("drabinka zwycięzców", "ósemka", "rozegrany",
                                              "zakończony")
    assert (w2[11], w2[13]) == ("walkower", "walkower")
    assert (f1[1], f1[13]) == ("finał", "gotowy")
    assert loose[13] == t["st.finished"]


def test_the_placings_and_one_tournament(url):
    rows = _csv(url, "--rows", "placings")
    assert tuple(rows[0]) == PLACING_COLUMNS
    # the final is to play: the semi-finals' losers share 3-4, the rest is to come
    assert [r[1] for r in rows[1:]] == ["3-4", "3-4"]
    db = open_db(url, bracket=boxresults)
    try:
        t = store.load(db, "Turniej-sobotni-12.12")
        st = t.states["F1"]
        store.result(db, t.name, "F1", st.a, (2, 1), via="test")
        t = store.load(db, t.name)
    finally:
        db.close()
    rows = _csv(url, "--rows", "placings", "--tournament", "Turniej-sobotni-12.12")
    assert [r[1] for r in rows[1:]] == ["1", "2", "3-4", "3-4"]
    assert rows[1][2] == advance.name_of(t, t.champion)
    assert {r[0] for r in rows[1:]} == {"Turniej sobotni 12.12"}
    assert ["Ewa Łuczak", "KS Bila"] in [r[2:] for r in rows[1:]]
    rows = _csv(url, "--rows", "placings", "--lang", "pl")
    assert rows[0] == ["turniej", "miejsce", "zawodnik", "klub"]
    rc, out, err = scoreboard("export", "--db", url, "--format", "json", "--rows", "matches",
                              "--tournament", "Turniej sobotni 12.12")
    assert rc == 0, err
    data = json.loads(out)
    assert [m["match_id"] for m in data] == ["W1-01", "W1-02", "F1"]
    assert data[0]["round"] == 1 and data[0]["score_a"] == 2


def test_bad_export_options_are_one_line(url):
    for args, message in [
            (("--rows", "placings", "--tournament", "Nope"),
             "export: no tournament Nope in the database (it holds Turniej sobotni 12.12)"),
            (("--tournament", "Nope"), "export: --tournament is for --rows matches or placings")]:
        rc, out, err = scoreboard("export", "--db", url, "--format", "csv", *args)
        assert rc == 2 and out == "" and err.strip() == message
    rc, _, err = scoreboard("export", "--db", url, "--format", "csv", "--rows", "placings",
                            "--tournament", "Nope", "--lang", "bg")
    assert rc == 2 and err.strip() == ("export: в базата няма турнир Nope (има: Turniej "
                                       "sobotni 12.12)")
