"""`scoreboard tournament create|show|result` end to end (issue 27, item 1), through the
real `scoreboard` entry point, on SQLite and on a PostgreSQL server (the db_url
fixture): the JSON's shape, an 8-player double elimination played out by `result`, a
walkover, corrections made and refused, the audit row of every change, and bad input
refused in one line on stderr with exit status 1; a call whose box is not reached is
recorded, with exit status 3.
"""

import json
import os
import subprocess

import pytest

from support import mpy
from support.hostfixtures import *  # noqa: F403  (fixtures: db_url, pg_server)
from host_tools.results.db import open_db
from host_tools.tournament import store, view

STATUSES = {"waiting", "ready", "assigned", "called", "playing", "done", "bye", "walkover"}
NAMES = ["Ann", "Bob", "Cy", "Dana", "Łucja", "Ёж", "Eve", "Fay"]


def scoreboard(*args):
    env = dict(os.environ, PYTHONPATH=str(mpy.REPO))
    proc = subprocess.run([str(mpy.BIN / "scoreboard"), *map(str, args)], cwd=str(mpy.REPO),
                          stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=120, env=env, check=False)
    return proc.returncode, proc.stdout, proc.stderr


def ok(*args):
    rc, out, err = scoreboard(*args)
    assert rc == 0, err
    return out


def refused(*args):
    """The one line a refusal prints; nothing on stdout, exit status 1."""
    rc, out, err = scoreboard(*args)
    assert (rc, out) == (1, ""), (rc, out, err)
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    assert err.startswith("tournament: ")
    return err.strip()


def players_csv(tmp_path, names=NAMES, seeds=(1, 2), name="players.csv", encoding="utf-8",
                sep=","):
    rows = ["name%sseed%sclub" % (sep, sep)]
    for i, n in enumerate(names):
        rows.append(sep.join((n, str(seeds[i]) if i < len(seeds) else "", "Club %d" % (i % 2))))
    path = tmp_path / name
    path.write_bytes(("\n".join(rows) + "\n").encode(encoding))
    return path


def shown(url, name="Cup"):
    return json.loads(ok("tournament", "show", name, "--json", "--db", url))


def test_create_and_show_give_the_json_of_the_issue(tmp_path, db_url):
    out = ok("tournament", "create", "Cup", "--format", "double", "--players",
             players_csv(tmp_path), "--race", "3", "--final-race", "4", "--seed", "7",
             "--db", db_url)
    assert "Cup: double elimination, 8 players" in out and "draw seed 7" in out
    data = shown(db_url)
    assert sorted(data) == ["champion", "format", "held", "id", "matches", "name",
                            "placings", "players"]
    assert data["held"] == []  # nothing held for the desk (issue 37)
    assert (data["name"], data["format"], data["champion"]) == ("Cup", "double", None)
    assert (data["id"], data["placings"]) == ("Cup", [])
    assert [p["name"] for p in data["players"]] == NAMES
    assert [p["id"] for p in data["players"]] == list(range(1, 9))
    assert [p["seed"] for p in data["players"]] == [1, 2] + [None] * 6
    assert all(sorted(p) == ["id", "name", "seed"] for p in data["players"])
    for m in data["matches"]:
        assert sorted(m) == ["a", "b", "id", "round", "score", "stage", "status", "table",
                             "winner"]
        assert m["status"] in STATUSES and m["stage"] in ("winners", "losers", "final")
        assert isinstance(m["id"], str) and isinstance(m["round"], int)
    first = [m for m in data["matches"] if m["stage"] == "winners" and m["round"] == 1]
    assert len(first) == 4 and all(m["status"] == "ready" for m in first)
    assert len(data["matches"]) == 15  # 7 + 6 + the final and its reset
    text = ok("tournament", "show", "Cup", "--db", db_url)
    assert "Łucja" in text and "Ёж" in text and "table board: matches to play: 4" in text
    assert "final (race-to 4)" in text and "winners (race-to 3)" in text


def stored(url, name="Cup"):
    db = open_db(url)
    try:
        data = view.as_dict(store.load(db, name))
        data["held"] = store.held(db, name)  # show --json's dict: the bracket and what's held
        return data
    finally:
        db.close()


def play_out(url, name="Cup", race=3, final_race=None, prefer=None):
    """Every ready match by `result`, side A winning (or `prefer`'s id when it plays)."""
    entered = 0
    while True:
        data = stored(url, name)  # `show --json`'s dict, read here: half the processes
        if data["champion"] is not None:
            return data, entered
        ready = [m for m in data["matches"] if m["status"] == "ready"]
        assert ready
        m = ready[0]
        a_wins = m["b"] != prefer
        n = final_race if final_race and m["stage"] == "final" else race
        ok("tournament", "result", name, m["id"], m["a"] if a_wins else m["b"],
           n if a_wins else 1, 1 if a_wins else n, "--db", url)
        entered += 1


def test_an_8_player_double_elimination_is_played_out_by_result(tmp_path, db_url):
    ok("tournament", "create", "Cup", "--format", "double", "--players",
       players_csv(tmp_path), "--race", "3", "--seed", "1", "--db", db_url)
    data, entered = play_out(db_url)
    losses = {p["id"]: 0 for p in data["players"]}
    for m in data["matches"]:
        if m["status"] == "done":
            losses[m["b"] if m["winner"] == m["a"] else m["a"]] += 1
    assert losses[data["champion"]] <= 1
    assert all(n == 2 for p, n in losses.items() if p != data["champion"])
    assert entered in (14, 15)
    assert "champion: " in ok("tournament", "show", "Cup", "--db", db_url)
    db = open_db(db_url)
    try:
        rows = db.rows("SELECT seq, what, source, detail FROM tournament_audit WHERE "
                       "tournament = ? ORDER BY seq", ("Cup",))
    finally:
        db.close()
    assert [r[0] for r in rows] == list(range(1, entered + 2))
    assert [r[1] for r in rows] == ["create"] + ["result"] * entered
    assert all(r[2].startswith("cli ") and "@" in r[2] for r in rows)
    assert json.loads(rows[1][3])["score"] == [3, 1]


def test_refusals_are_one_line_and_change_nothing(tmp_path, db_url):
    csv = players_csv(tmp_path, NAMES[:4])
    ok("tournament", "create", "Cup", "--format", "single", "--players", csv, "--race", "3",
       "--seed", "3", "--db", db_url)
    assert "no tournament Nope" in refused("tournament", "show", "Nope", "--db", db_url)
    assert "no tournament Nope" in refused("tournament", "result", "Nope", "W1-01", "1", "3",
                                           "0", "--db", db_url)
    assert "there is a tournament Cup already" in refused(
        "tournament", "create", "Cup", "--format", "single", "--players", csv, "--db", db_url)
    data = shown(db_url)
    m = data["matches"][0]
    assert "no match W9-09 in Cup" in refused("tournament", "result", "Cup", "W9-09", m["a"],
                                              "3", "0", "--db", db_url)
    assert "race-to 3" in refused("tournament", "result", "Cup", m["id"], m["a"], "2", "0",
                                  "--db", db_url)
    assert "race-to 3" in refused("tournament", "result", "Cup", m["id"], m["a"], "0", "3",
                                  "--db", db_url)
    assert "no score" in refused("tournament", "result", "Cup", m["id"], m["a"], "3", "0",
                                 "--walkover", "--db", db_url)
    assert "waits for its players" in refused("tournament", "result", "Cup", "F1", "1", "3",
                                              "0", "--db", db_url)
    assert shown(db_url) == data  # nothing changed
    ok("tournament", "result", "Cup", m["id"], m["a"], "3", "0", "--db", db_url)
    err = refused("tournament", "result", "Cup", m["id"], m["a"], "3", "0", "--db", db_url)
    assert "has its result already" in err and "--correct" in err
    db = open_db(db_url)
    try:
        assert db.rows("SELECT changes FROM tournaments WHERE name = 'Cup'") == [(2,)]
        assert db.rows("SELECT COUNT(*) FROM tournament_audit") == [(2,)]
    finally:
        db.close()


def test_a_wrong_winner_is_named(tmp_path, db_url):
    ok("tournament", "create", "Cup", "--format", "single", "--players",
       players_csv(tmp_path, NAMES[:4]), "--race", "3", "--db", db_url)
    m = shown(db_url)["matches"][0]
    err = refused("tournament", "result", "Cup", m["id"], "Zed", "3", "0", "--db", db_url)
    assert "not Zed" in err and "the winner of %s" % m["id"] in err


def test_bad_players_csv_rows_are_refused_in_one_line(tmp_path):
    url = str(tmp_path / "r.sqlite")
    bad = tmp_path / "bad.csv"
    for text, reason in [("name,seed\nAnn,1\nBob,1\nCy,\n", "row 3: seed 1 is row 2's"),
                         ("name\nAnn\nann\nCy\n", 'bad.csv row 3: "ann" is row 2\'s name'),
                         ("name,seed\nAnn,x\nBob,\nCy,\n", 'bad.csv row 2: seed "x"'),
                         ("who\nAnn\nBob\nCy\n", "bad.csv row 1: no name column"),
                         ("name\nAnn\nBob\n", "bad.csv: 2 players; a tournament takes 3"),
                         ('name\n"Ann\nBob\nCy\n', "never closed"),
                         ("name\n中文\nBob\nCy\n", "bad.csv row 2: side A name")]:
        bad.write_text(text, encoding="utf-8")
        err = refused("tournament", "create", "Cup", "--format", "single", "--players", bad,
                      "--db", url)
        assert reason in err, err
    bad.write_bytes("name\nŁucja\nBob\nCy\n".encode("cp1250"))
    assert "not UTF-8" in refused("tournament", "create", "Cup", "--format", "single",
                                  "--players", bad, "--db", url)
    assert "cannot read" in refused("tournament", "create", "Cup", "--format", "single",
                                    "--players", tmp_path / "none.csv", "--db", url)
    assert "does not show" in refused("tournament", "create", "Bad\u202eName", "--format",
                                      "single", "--players", bad, "--db", url)
    assert "no letter or digit" in refused("tournament", "create", "!!!", "--format",
                                           "single", "--players", bad, "--db", url)
    assert not (tmp_path / "r.sqlite").exists() or "no tournament" in refused(
        "tournament", "show", "Cup", "--db", url)


def test_setups_encodings_and_separators_are_read(tmp_path):
    url = str(tmp_path / "r.sqlite")
    csv = players_csv(tmp_path, encoding="utf-16", sep=";")
    ok("tournament", "create", "Cup", "--format", "single", "--players", csv, "--db", url)
    assert [p["name"] for p in shown(url)["players"]] == NAMES


def test_the_same_seed_gives_the_same_draw(tmp_path):
    csv = players_csv(tmp_path, NAMES + ["G%d" % i for i in range(9)], seeds=(1,))
    draws = []
    for n, seed in enumerate(("11", "11", "12")):
        url = str(tmp_path / ("r%d.sqlite" % n))
        ok("tournament", "create", "Cup", "--format", "single", "--players", csv, "--seed",
           seed, "--db", url)
        draws.append([(m["a"], m["b"]) for m in shown(url)["matches"]])
    assert draws[0] == draws[1] and draws[0] != draws[2]
    first = shown(url)["matches"][:16]
    assert sum(m["status"] == "bye" for m in first) == 15  # 17 players: 15 byes
    assert first[0]["a"] == 1 and first[0]["status"] == "bye"  # seed 1: the first bye


def test_a_walkover_and_a_correction_before_and_after_the_next_match(tmp_path, db_url):
    ok("tournament", "create", "Cup", "--format", "single", "--players",
       players_csv(tmp_path, NAMES[:4], seeds=(1, 2, 3, 4)), "--race", "3", "--db", db_url)
    w1, w2 = shown(db_url)["matches"][:2]
    ok("tournament", "result", "Cup", w1["id"], w1["b"], "-", "-", "--walkover", "--db",
       db_url)
    m = shown(db_url)["matches"][0]
    assert (m["status"], m["winner"], m["score"]) == ("walkover", w1["b"], None)
    out = ok("tournament", "result", "Cup", w1["id"], w1["a"], "3", "2", "--correct", "--db",
             db_url)
    assert "corrected" in out
    final = shown(db_url)["matches"][2]
    assert final["a"] == w1["a"]  # re-routed
    ok("tournament", "result", "Cup", w2["id"], w2["a"], "3", "0", "--db", db_url)
    ok("tournament", "result", "Cup", "F1", w1["a"], "3", "1", "--db", db_url)
    err = refused("tournament", "result", "Cup", w1["id"], w1["b"], "1", "3", "--correct",
                  "--db", db_url)
    assert "cannot be corrected" in err and "F1" in err and "its result" in err
    # the score alone (the same winner) re-routes nothing: taken
    ok("tournament", "result", "Cup", w1["id"], w1["a"], "3", "1", "--correct", "--db", db_url)
    data = shown(db_url)
    assert data["champion"] == w1["a"] and data["matches"][0]["score"] == [3, 1]


def test_groups_then_a_knockout(tmp_path, db_url):
    names = ["P%02d" % i for i in range(1, 7)]
    ok("tournament", "create", "Cup", "--format", "groups", "--groups", "2", "--advance",
       "2", "--players", players_csv(tmp_path, names, seeds=(1, 2)), "--race", "2",
       "--final-race", "3", "--db", db_url)
    data = shown(db_url)
    assert data == stored(db_url)
    text = ok("tournament", "show", "Cup", "--db", db_url)
    assert "(group A's winner) v (group B's runner-up)" in text
    assert "  table (won-lost, frames for-against)" in text and "1. P01 (1)  0-0  0-0" in text
    stages = {m["stage"] for m in data["matches"]}
    assert stages == {"group A", "group B", "winners", "final"}
    assert sum(m["stage"].startswith("group") for m in data["matches"]) == 6  # 2 x 3
    data, entered = play_out(db_url, race=2, final_race=3)
    assert data["champion"] is not None and entered == 6 + 3
    semis = [m for m in data["matches"] if m["stage"] == "winners"]
    winners = {m["a"] for m in semis}  # the group winners, apart: each a semi's side A
    assert len(winners) == 2
    final = data["matches"][-1]
    assert final["id"] == "F1" and final["score"] == [3, 1]


def test_groups_need_their_options(tmp_path):
    url = str(tmp_path / "r.sqlite")
    csv = players_csv(tmp_path)
    assert "--groups G and --advance K" in refused("tournament", "create", "Cup", "--format",
                                                   "groups", "--players", csv, "--db", url)
    assert "for --format groups" in refused("tournament", "create", "Cup", "--format",
                                            "single", "--groups", "2", "--players", csv,
                                            "--db", url)
    assert "no losers stage" in refused("tournament", "create", "Cup", "--format", "single",
                                        "--losers-race", "2", "--players", csv, "--db", url)
    assert "played as race-to" in refused("tournament", "create", "Cup", "--format",
                                          "single", "--best-of", "5", "--game", "nineball",
                                          "--players", csv, "--db", url)


@pytest.mark.parametrize("fmt", ["single", "double"])
def test_snooker_best_of(tmp_path, fmt):
    url = str(tmp_path / "r.sqlite")
    ok("tournament", "create", "Cup", "--format", fmt, "--players", players_csv(tmp_path),
       "--best-of", "5", "--final-best-of", "7", "--db", url)
    text = ok("tournament", "show", "Cup", "--db", url)
    assert "snooker" in text and "final (best-of 7)" in text
    m = shown(url)["matches"][0]
    assert "best-of 5" in refused("tournament", "result", "Cup", m["id"], m["a"], "2", "0",
                                  "--db", url)
    ok("tournament", "result", "Cup", m["id"], m["a"], "3", "2", "--db", url)


def test_the_clubs_rules_reach_each_matchs_header(tmp_path):
    """Issue 27 item 3: `--three-foul` and `--push-out` (next to `--late` and `--misses`)
    become the header's `rules threefoul=` and `pushout=` in every stage's matches,
    checked as the box checks a header; the box's core plays the match by them."""
    from host_tools.tournament.header import header_lines
    from scoreboard.core.match import Match
    from scoreboard.files import parse_header

    url = str(tmp_path / "r.sqlite")
    ok("tournament", "create", "Cup", "--format", "single", "--players",
       players_csv(tmp_path, NAMES[:4]), "--game", "nineball", "--race", "3", "--final-race",
       "5", "--three-foul", "off", "--push-out", "off", "--late", "10", "--db", url)
    db = open_db(url)
    try:
        t = store.load(db, "Cup")
    finally:
        db.close()
    for stage in ("winners", "final"):
        assert t.conditions[stage]["rules"] == {"late": 10, "pushout": 0, "threefoul": 0}
    head = header_lines(t, "W1-01")
    assert head[-1] == "rules late=10 pushout=0 threefoul=0", head
    shown = ok("tournament", "show", "Cup", "--db", url).splitlines()  # each stage's
    assert "winners (race-to 3; rules late=10 pushout=0 threefoul=0)" in shown, shown
    assert "final (race-to 5; rules late=10 pushout=0 threefoul=0)" in shown, shown
    match = Match(parse_header([line + "\n" for line in head]))
    match.apply((None, "frame", ("A",)))
    assert (match.frame.three_fouls, match.frame.push_out) == (False, False)

    # A club's eight-ball with the three-foul rule; the default of each game unsaid.
    ok("tournament", "create", "Eight", "--format", "single", "--players",
       players_csv(tmp_path, NAMES[:4]), "--three-foul", "on", "--db", url)
    ok("tournament", "create", "Nine", "--format", "single", "--players",
       players_csv(tmp_path, NAMES[:4]), "--game", "nineball", "--db", url)
    db = open_db(url)
    try:
        assert store.load(db, "Eight").conditions["winners"]["rules"] == {"threefoul": 1}
        assert "rules" not in store.load(db, "Nine").conditions["winners"]
    finally:
        db.close()

    # Refused as the box refuses such a header, the rules line named by its words.
    for args, why in (
            (("--push-out", "off"), ("the winners stage: rules pushout=0: 'pushout' is a "
                                     "nine-ball and ten-ball setting")),
            (("--game", "eightball", "--three-foul", "off", "--push-out", "on"),
             ("the winners stage: rules pushout=1 threefoul=0: 'pushout' is a nine-ball and "
              "ten-ball setting")),
            (("--best-of", "3", "--three-foul", "off"),
             "the winners stage: rules threefoul=0: 'threefoul' is a pool setting")):
        assert refused("tournament", "create", "Bad", "--format", "single", "--players",
                       players_csv(tmp_path, NAMES[:4]), *args, "--db", url) == (
            "tournament: " + why)
    rc, _, err = scoreboard("tournament", "create", "Bad", "--format", "single", "--players",
                           players_csv(tmp_path, NAMES[:4]), "--three-foul", "no")
    assert rc == 2 and "--three-foul: invalid choice: 'no'" in err


def test_the_desks_create_form_takes_the_clubs_rules():
    """The desk's form (POST /api/tournament) gives the same as `tournament create`."""
    from host_tools.live.desk_body import new_tournament
    from host_tools.tournament import TournamentError

    body = {"name": "Cup", "format": "single", "players": "name\nAnn\nBob\nCy\nDana\n",
            "game": "tenball", "race": 3, "threefoul": "off", "pushout": "off", "late": "",
            "misses": None}
    t = new_tournament(body)
    assert t.conditions["winners"]["rules"] == {"pushout": 0, "threefoul": 0}
    t = new_tournament(dict(body, threefoul="", pushout="on"))
    assert t.conditions["winners"]["rules"] == {"pushout": 1}
    t = new_tournament(dict(body, threefoul=None, pushout=None))
    assert "rules" not in t.conditions["winners"]
    with pytest.raises(TournamentError, match=r"^threefoul maybe: on or off$"):
        new_tournament(dict(body, threefoul="maybe"))
    with pytest.raises(TournamentError, match=r"'pushout' is a nine-ball and ten-ball setting"):
        new_tournament(dict(body, game="eightball"))


def test_two_desks_entering_one_result_at_once_take_turns(tmp_path, db_url):
    ok("tournament", "create", "Cup", "--format", "single", "--players",
       players_csv(tmp_path, NAMES[:4]), "--race", "3", "--db", db_url)
    m = stored(db_url)["matches"][0]
    env = dict(os.environ, PYTHONPATH=str(mpy.REPO))
    procs = [subprocess.Popen([str(mpy.BIN / "scoreboard"), "tournament", "result", "Cup",
                               m["id"], str(winner), "3", "0", "--db", db_url],
                              cwd=str(mpy.REPO), stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, env=env)
             for winner in (m["a"], m["a"])]
    outcomes = sorted((p.wait(timeout=60), p.communicate()[1]) for p in procs)
    assert [rc for rc, _ in outcomes] == [0, 1], outcomes
    assert "has its result already" in outcomes[1][1]
    db = open_db(db_url)
    try:
        assert db.rows("SELECT what FROM tournament_audit ORDER BY seq") == [("create",),
                                                                            ("result",)]
    finally:
        db.close()


def test_the_figures_script_plays_a_tournament_out():
    env = dict(os.environ, PYTHONPATH=str(mpy.REPO))
    proc = subprocess.run([str(mpy.BIN / "python"), "-m", "host_tools.measure.tournament_bench",
                           "--players", "6", "--sample", "1"], cwd=str(mpy.REPO),
                          capture_output=True, text=True, env=env, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    assert "6-player double elimination, SQLite, in process: create " in proc.stdout
    assert " 10 results in " in proc.stdout or " 11 results in " in proc.stdout


def test_a_box_header_id_finds_its_tournament_match(tmp_path, db_url):
    ok("tournament", "create", "Cup26", "--format", "double", "--players",
       players_csv(tmp_path), "--db", db_url)
    db = open_db(db_url)
    try:
        assert store.find_box_match(db, "Cup26-L2-01") == ("Cup26", "L2-01")
        assert store.find_box_match(db, "Cup26-Z9-99") is None
        assert store.find_box_match(db, "DESK-2612011800-3-01") is None
        assert [r[2] for r in store.audit(db, "Cup26")] == ["create"]
    finally:
        db.close()


def test_a_call_whose_box_is_not_reached_is_recorded_and_says_why(tmp_path, db_url):
    """`call --port` with no box there: the call is recorded (the announcement was made),
    the recorded line on stdout, why the box did not take it one line on stderr, exit
    status 3. A call the tournament refuses never goes to the box: exit status 1."""
    ok("tournament", "create", "Cup", "--format", "single", "--players",
       players_csv(tmp_path, NAMES[:4]), "--race", "3", "--seed", "3", "--db", db_url)
    port = tmp_path / "ttyACM9"
    assert refused("tournament", "call", "Cup", "W1-01", "--port", port, "--db", db_url) == (
        "tournament: W1-01 has no table yet: assign it first")
    ok("tournament", "assign", "Cup", "W1-01", "--table", "2", "--db", db_url)
    rc, out, err = scoreboard("tournament", "call", "Cup", "W1-01", "--port", port,
                              "--db", db_url)
    db = open_db(db_url)
    try:
        at = store.called_at(db, "Cup", "W1-01")
    finally:
        db.close()
    assert rc == 3 and at is not None, (rc, out, err)
    assert len(out.splitlines()) == 1 and out.startswith("Cup: W1-01 (") and out.endswith(
        ") called to table 2 at %s\n" % at), out
    assert len(err.splitlines()) == 1 and err.startswith(
        "tournament: the call is recorded; table 2's box did not take it: ") and str(
        port) in err, err
    assert next(m for m in shown(db_url)["matches"] if m["id"] == "W1-01")["status"] == (
        "called")
