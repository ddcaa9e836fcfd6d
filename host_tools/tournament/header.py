"""The header a tournament match is queued on a table's box with (`scoreboard tournament
assign --port`, the desk page): the notation's header words (docs/notation.md) for the
match's own id (`id NAME-MATCH`: store.box_match, what a stored match is found by), its
two players as the sides, the game and the stage's playing conditions (seed 004 1.6:
`match`, and where the stage's conditions give them the shot clock `clock`, the break
policy `breaks`, the `rules` keys the box knows: `late` minutes, snooker's `misses`,
pool's `threefoul` and nine- and ten-ball's `pushout`, and the event's language
`lang`), and its `table`. Checked as `scoreboard setup` checks a header
(host_tools/results/draw.py: the core's reader, the glyphs, the size the box reads) and
written as the core writes it.
"""

from datetime import datetime

from host_tools.results.draw import SetupError, check_header, check_size, quote
from host_tools.tournament import TournamentError
from host_tools.tournament.advance import condition_words, name_of, source_text
from host_tools.tournament.model import stage_key
from host_tools.tournament.says import core
from host_tools.tournament.store import box_match


def header_lines(t, match_id):
    """The match file's header lines for `match_id` of the Tournament `t` (its table
    from t.tables); TournamentError when the match has no two players yet or the header
    is one the box would refuse."""
    spec = t.spec(match_id)
    if spec is None:
        raise TournamentError("no match %s in %s", match_id, t.name)
    st = t.states[match_id]
    if st.a is None or st.b is None:
        raise TournamentError("%s waits for its players (%s v %s)", match_id,
                              source_text(t, spec.a_from, st.a), source_text(t, spec.b_from,
                                                                             st.b))
    cond = t.conditions[stage_key(spec.stage)]
    lines = ["sbn 1", "id " + box_match(t.name, match_id),
             "date " + datetime.now().strftime("%Y-%m-%dT%H:%M")]
    if cond.get("lang"):
        lines.append("lang " + cond["lang"])
    lines += ["game " + t.game, "match " + cond["match"],
              "side A " + quote(name_of(t, st.a)), "side B " + quote(name_of(t, st.b))]
    lines += condition_words(t, spec)  # the header is written in the core's order below
    if match_id in t.tables:
        lines.append("table %d" % t.tables[match_id])
    where = "%s %s" % (t.name, match_id)
    try:
        lines = check_header(lines, where).lines()
        check_size(lines, where)
    except SetupError as e:
        raise TournamentError(core(str(e))) from None
    return lines
