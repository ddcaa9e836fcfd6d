"""What `scoreboard tournament show` prints (and the desk's pages read): the JSON
(`as_json`, the shape issue 27 gives: name, format, champion, players, matches) and a
text view of the bracket and the table board (`as_text`), stage by stage and round by
round. Names come from the desk's CSV: the text goes through messages.shown, the JSON is
ASCII (ensure_ascii), so neither puts a control character on a terminal.
"""

import json

from host_tools.messages import shown
from host_tools.tournament.advance import (condition_words, match_format, name_of,
                                          source_text, table)

FORMAT_NAMES = {"single": "single elimination", "double": "double elimination",
                "groups": "groups, then a knockout"}


def as_dict(t):
    matches = []
    for s in t.specs:
        st = t.states[s.id]
        r = t.results.get(s.id)
        matches.append({"id": s.id, "stage": s.stage, "round": s.round, "a": st.a, "b": st.b,
                        "winner": st.winner, "score": list(r.score) if r and r.score else None,
                        "status": st.status, "table": t.tables.get(s.id)})
    return {"name": t.name, "format": t.format, "champion": t.champion,
            "players": [{"id": p.id, "name": p.name, "seed": p.seed} for p in t.players],
            "matches": matches}


def as_json(t):
    return json.dumps(as_dict(t), indent=1) + "\n"


def _who(t, pid, empty, source=None):
    if pid is None:
        return "bye" if empty else "(%s)" % source_text(t, source, None) if source else "?"
    p = t.player(pid)
    return p.name + (" (%d)" % p.seed if p.seed is not None else "")


def _line(t, spec):
    st = t.states[spec.id]
    r = t.results.get(spec.id)
    a = _who(t, st.a, st.a_empty, spec.a_from)
    b = _who(t, st.b, st.b_empty, spec.b_from)
    if r is not None and r.score is not None:
        middle = "%d-%d" % r.score
    else:
        middle = "v"
    text = "%-6s %s %s %s" % (spec.id, a, middle, b)
    tail = [st.status]
    if r is not None and r.how != "played":
        tail.append("%s, %s" % (r.how, name_of(t, r.winner)))
    elif st.winner is not None and st.status == "bye":
        tail = ["bye: %s goes on" % name_of(t, st.winner)]
    if spec.id in t.tables:
        tail.append("table %d" % t.tables[spec.id])
    return "%s  [%s]" % (text, "; ".join(tail))


def _group_table(t, stage):
    """The group's table so far: place, player, won-lost, frames for-against."""
    out = ["  table (won-lost, frames for-against)"]
    rows = table(t, [s for s in t.specs if s.stage == stage])
    for place, (pid, won, lost, ff, fa) in enumerate(rows, 1):
        out.append("    %d. %s  %d-%d  %d-%d" % (place, _who(t, pid, False), won, lost, ff,
                                                 fa))
    return out


def as_text(t):
    done = sum(1 for st in t.states.values() if st.decided)
    lines = ["%s: %s, %s, %d players, draw seed %d" % (
        t.name, FORMAT_NAMES[t.format], t.game, len(t.players), t.draw_seed)]
    if t.champion is not None:
        lines.append("champion: %s" % name_of(t, t.champion))
    lines.append("%d of %d matches decided" % (done, len(t.specs)))
    stage = rnd = None
    for s in t.specs:
        if s.stage != stage:
            if stage is not None and stage.startswith("group "):
                lines += _group_table(t, stage)
            stage, rnd = s.stage, None
            lines.append("")
            lines.append("%s (%s)" % (stage, "; ".join([match_format(t, s)]
                                                        + condition_words(t, s))))
        if s.round != rnd:
            rnd = s.round
            lines.append("  round %d" % rnd)
        lines.append("    " + _line(t, s))
    board = [s for s in t.specs if t.states[s.id].status in ("ready", "assigned", "called",
                                                             "playing")]
    lines.append("")
    lines.append("table board: %d match%s to play" % (len(board), "" if len(board) == 1
                                                      else "es"))
    for s in board:
        lines.append("    " + _line(t, s))
    return "".join(shown(line) + "\n" for line in lines)
