"""The tournaments out, for `scoreboard export --rows matches|placings` (the frames' rows
are host_tools/results/export.py's, whose cells' rules these share: every cell quoted,
a cell that starts like a formula with a leading `'`, the BOM, `;` in Polish and
Bulgarian, the words in the language).

- matches: one row per match: every match of every tournament (or of `--tournament`)
  that has its two players (no bye), with its tournament, stage, round, table, result
  (the score, the winner, how it ended) and status, and when a box played it its date,
  its box match id and the box; then every match of the database that is no
  tournament's, without a stage.
- placings: one row per player whose final place is known (placings.py): the
  tournament, the place (`1`, `3-4`), the player, the club.

JSON: the same rows as objects with the CSV's English headers as keys, numbers as
numbers.
"""

from host_tools.results.export import cell, json_text, said, writer
from host_tools.tournament import placings, store
from host_tools.tournament.advance import name_of
from host_tools.tournament.says import text, word
from host_tools.tournament.view import stage_name

MATCH_COLUMNS = ("tournament", "stage", "round", "match_id", "date", "game", "side_a",
                 "side_b", "score_a", "score_b", "winner_name", "how", "table", "status",
                 "box_match", "box")
PLACING_COLUMNS = ("tournament", "place", "player", "club")
ROWS = ("frames", "matches", "placings")


def _tournaments(db, only=None):
    names = [store.load(db, only).name] if only else store.names(db)
    return [store.load(db, n) for n in names]


def match_rows(db, lang="en", only=None):
    """[{column: value}] of MATCH_COLUMNS (see the module), words in `lang`."""
    boxes = {m["id"]: m for m in db.matches()}
    out, taken = [], set()
    for t in _tournaments(db, only):
        for s in t.specs:
            st = t.states[s.id]
            if st.a is None or st.b is None:
                continue
            r = t.results.get(s.id)
            box_id = store.box_match(t.name, s.id)
            m = boxes.get(box_id)
            taken.add(box_id)
            out.append({
                "tournament": t.name, "stage": text(stage_name(s.stage), lang),
                "round": s.round, "match_id": s.id, "date": m["date"] if m else None,
                "game": said(lang, "g", t.game), "side_a": name_of(t, st.a),
                "side_b": name_of(t, st.b),
                "score_a": r.score[0] if r and r.score else None,
                "score_b": r.score[1] if r and r.score else None,
                "winner_name": name_of(t, st.winner) if st.winner is not None else None,
                "how": text(word("how", r.how), lang) if r else None,
                "table": t.tables.get(s.id), "status": text(word("status", st.status), lang),
                "box_match": box_id if m else None, "box": m["box"] if m else None})
    if only is None:
        for m in boxes.values():
            if m["id"] in taken:
                continue
            won = {"A": m["side_a"], "B": m["side_b"]}.get(m["winner"])
            out.append({
                "tournament": None, "stage": None, "round": None, "match_id": m["id"],
                "date": m["date"], "game": said(lang, "g", m["game"]), "side_a": m["side_a"],
                "side_b": m["side_b"], "score_a": m["frames_a"], "score_b": m["frames_b"],
                "winner_name": won, "how": None, "table": None,
                "status": said(lang, "st", m["status"]), "box_match": m["id"], "box": m["box"]})
    return out


def placing_rows(db, only=None):
    """[{column: value}] of PLACING_COLUMNS, best first in each tournament."""
    out = []
    for t in _tournaments(db, only):
        for first, last, pid in placings.placings(t):
            p = t.player(pid)
            out.append({"tournament": t.name, "place": placings.text(first, last),
                        "player": p.name, "club": p.club})
    return out


def as_csv(db, rows, lang="en", delimiter=None, only=None):
    """The CSV of `rows` (`matches`, `placings`)."""
    columns = MATCH_COLUMNS if rows == "matches" else PLACING_COLUMNS
    got = match_rows(db, lang, only) if rows == "matches" else placing_rows(db, only)
    buf, w = writer(lang, delimiter, columns)
    for row in got:
        w.writerow([cell(row[c]) for c in columns])
    return buf.getvalue()


def as_json(db, rows, only=None):
    return json_text(match_rows(db, "en", only) if rows == "matches"
                     else placing_rows(db, only))
