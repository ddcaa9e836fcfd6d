"""A new tournament's playing conditions, stage by stage, as `scoreboard tournament
create` and the desk's create form give them: `conditions(fmt, game, race, best_of,
stages, clock, breaks, rules)` is {stage key: {"match": words, ...}} for the format's
stages, each checked as the box checks a match's header (snooker is played as best-of,
pool as race-to), and `check_groups` the groups' options against the format.
"""

from host_tools.results.draw import SetupError, check_header
from host_tools.tournament import TournamentError
from host_tools.tournament.model import STAGE_KEYS
from host_tools.tournament.says import core, word

STAGES = {"single": ("winners", "final"), "double": ("winners", "losers", "final"),
          "groups": ("group", "winners", "final")}
POOL_DEFAULT, SNOOKER_DEFAULT = "race-to 5", "best-of 5"


def game_of(game, best_of):
    """The game a header names: the one given, else snooker with a best-of, else
    eight-ball."""
    return game or ("snooker" if best_of else "eightball")


def conditions(fmt, game, race=None, best_of=None, stages=None, clock=None, breaks=None,
               rules=None):
    """(game, {stage key: {"match": words, ...}}): `race` or `best_of` for every stage,
    `stages` {stage key: (race, best_of)} a stage's own; the playing conditions every
    stage's header carries besides (`clock` words, the `breaks` policy, `rules`
    {late, misses, threefoul, pushout}: the header's `rules` keys, threefoul and pushout 0
    or 1); TournamentError with the reason."""
    stages = stages or {}
    extra = {}
    if clock:
        extra["clock"] = " ".join(clock.split())
    if breaks:
        extra["breaks"] = breaks
    if rules:
        extra["rules"] = dict(rules)
    game = game_of(game, best_of)
    if race:
        base = "race-to %d" % race
    elif best_of:
        base = "best-of %d" % best_of
    else:
        base = SNOOKER_DEFAULT if game.split()[0] == "snooker" else POOL_DEFAULT
    out = {}
    for stage in STAGES[fmt]:
        s_race, s_best = stages.get(stage, (None, None))
        words = "race-to %d" % s_race if s_race else "best-of %d" % s_best if s_best else base
        lines = ["sbn 1", "game " + game, "match " + words, 'side A "a"',
                 'side B "b"'] + header_words(extra)
        where = "the %s stage" % stage
        try:
            check_header(lines, where)
        except SetupError as e:  # the header line named by its words, not its number
            why = str(e)[len(where) + 1:]
            for n in range(2, len(lines) + 1):
                tag = " line %d:" % n
                said = lines[n - 1].split()[0] + " "  # a reason that names the line's word
                why = why.replace(tag, "" if why.find(tag + " " + said) >= 0
                                  else " %s:" % lines[n - 1])
            raise TournamentError("the %s stage: %s", word("stage", stage),
                                  core(why.strip())) from None
        if words.startswith("frames") or words.startswith("points"):
            raise TournamentError("the %s stage: a knockout needs a winner: race-to or "
                                  "best-of", word("stage", stage))
        out[stage] = dict(extra, match=words)
    given = [s for s in STAGE_KEYS if s not in STAGES[fmt] and any(stages.get(s, ()))]
    if given:
        raise TournamentError("--format %s has no %s stage", word("format", fmt),
                              word("stage", given[0]))
    return game, out


def header_words(cond):
    """A stage's conditions (`conditions`' {"match", "clock", "breaks", "rules"}) besides
    its `match` words, as the header lines the box reads, those it gives: `breaks ...`,
    `clock ...`, `rules key=N ...` (a header's lines are written in the core's order)."""
    out = ["breaks " + cond["breaks"]] if cond.get("breaks") else []
    if cond.get("clock"):
        out.append("clock " + cond["clock"])
    if cond.get("rules"):
        out.append("rules " + " ".join("%s=%d" % kv for kv in sorted(cond["rules"].items())))
    return out


SWITCHES = {"on": 1, "off": 0}


def switch(value, what):
    """A rule switched `on` (1) or `off` (0), as the header's `rules threefoul=` and
    `pushout=` take it; None for none given (the game's own rule); TournamentError for
    anything else."""
    if value is None or value == "":
        return None
    if value not in SWITCHES:
        raise TournamentError("%s %s: on or off", what, value)
    return SWITCHES[value]


def check_groups(fmt, groups, advance):
    """TournamentError unless groups and advance are given for groups, and only there."""
    if fmt == "groups" and not (groups and advance):
        raise TournamentError("--format groups needs --groups G and --advance K")
    if fmt != "groups" and (groups or advance):
        raise TournamentError("--groups and --advance are for --format groups")
