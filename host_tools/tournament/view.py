"""What `scoreboard tournament show` prints (and the desk's pages read): the JSON
(`as_json`, the shape issue 27 gives: name, format, champion, players, matches, and
since issue 38 the id made of the name and the placings known) and a text view of the
bracket, the table board and the placings (`as_text`), stage by stage and round by
round, in the club's language (`lang`: says.py). Names come from the desk's CSV: the
text goes through messages.shown, the JSON is ASCII (ensure_ascii), so neither puts a
control character on a terminal.
"""

import json

from host_tools.messages import shown
from host_tools.tournament import naming, placings
from host_tools.tournament.advance import (condition_words, match_format, name_of,
                                          source_text, table)
from host_tools.tournament.says import Said, game, length, text, word

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
    return {"name": t.name, "id": naming.slug(t.name), "format": t.format,
            "champion": t.champion,
            "players": [{"id": p.id, "name": p.name, "seed": p.seed} for p in t.players],
            "matches": matches,
            "placings": [{"place": placings.text(first, last), "first": first, "last": last,
                          "player": pid} for first, last, pid in placings.placings(t)]}


def as_json(t):
    return json.dumps(as_dict(t), indent=1) + "\n"


def _who(t, pid, empty, source=None):
    if pid is None:
        if empty:
            return word("status", "bye")
        return Said("(%s)", source_text(t, source, None)) if source else "?"
    p = t.player(pid)
    return p.name + (" (%d)" % p.seed if p.seed is not None else "")


def _line(t, spec):
    st = t.states[spec.id]
    r = t.results.get(spec.id)
    a = _who(t, st.a, st.a_empty, spec.a_from)
    b = _who(t, st.b, st.b_empty, spec.b_from)
    middle = "%d-%d" % r.score if r is not None and r.score is not None else Said("v")
    tail = [word("status", st.status)]
    if r is not None and r.how != "played":
        tail.append(Said("%s, %s", word("how", r.how), name_of(t, r.winner)))
    elif st.winner is not None and st.status == "bye":
        tail = [Said("bye: %s goes on", name_of(t, st.winner))]
    if spec.id in t.tables:
        tail.append(Said("table %d", t.tables[spec.id]))
    return Said("%s %s %s %s  [%s]", "%-6s" % spec.id, a, middle, b, Joined("; ", tail))


class Joined(Said):
    """Saids joined by `sep`, each in the language the whole is said in."""

    def __init__(self, sep, parts):
        super().__init__("%s")
        self.sep, self.parts = sep, parts

    def text(self, lang="en"):
        return self.sep.join(text(p, lang) for p in self.parts)


def _group_table(t, stage):
    """The group's table so far: place, player, won-lost, frames for-against."""
    out = [Said("  table (won-lost, frames for-against)")]
    rows = table(t, [s for s in t.specs if s.stage == stage])
    for place, (pid, won, lost, ff, fa) in enumerate(rows, 1):
        out.append(Said("    %d. %s  %d-%d  %d-%d", place, _who(t, pid, False), won, lost,
                        ff, fa))
    return out


def stage_name(stage):
    """A stage as words: `winners`, `group A`."""
    if stage.startswith("group "):
        return Said("group %s", stage[6:])
    return word("stage", stage)


def as_text(t, lang="en"):
    done = sum(1 for st in t.states.values() if st.decided)
    lines = [Said("%s: %s, %s, %d players, draw seed %d", t.name,
                  word("format", FORMAT_NAMES[t.format]), game(t.game),
                  len(t.players), t.draw_seed)]
    if t.champion is not None:
        lines.append(Said("champion: %s", name_of(t, t.champion)))
    lines.append(Said("%d of %d matches decided", done, len(t.specs)))
    stage = rnd = None
    for s in t.specs:
        if s.stage != stage:
            if stage is not None and stage.startswith("group "):
                lines += _group_table(t, stage)
            stage, rnd = s.stage, None
            lines.append("")
            lines.append(Said("%s (%s)", stage_name(stage), Joined("; ", [
                length(match_format(t, s))] + [conditions_words(w) for w in
                                               condition_words(t, s)])))
        if s.round != rnd:
            rnd = s.round
            lines.append(Said("  round %d", rnd))
        lines.append(Joined("", ["    ", _line(t, s)]))
    board = [s for s in t.specs if t.states[s.id].status in ("ready", "assigned", "called",
                                                             "playing")]
    lines.append("")
    lines.append(Said("table board: matches to play: %d", len(board)))
    for s in board:
        lines.append(Joined("", ["    ", _line(t, s)]))
    rows = placings.placings(t)
    if rows:
        lines.append("")
        lines.append(Said("placings:"))
        for first, last, pid in rows:
            lines.append(Said("    %s  %s", placings.text(first, last), name_of(t, pid)))
    return "".join(shown(text(line, lang)) + "\n" for line in lines)


def conditions_words(line):
    """A header's conditions line (`breaks alternate`, `clock shot=45`, `rules late=10`)
    with its words said: who breaks in words, the rest as the box reads it."""
    key, _, rest = line.partition(" ")
    if key == "breaks":
        return Said("breaks %s", word("breaks", rest))
    return line
