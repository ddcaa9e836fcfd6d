"""A tournament as the other modules see it: its players, the matches of its bracket
(what fills each side of each: a player, the winner or the loser of another match, a
group's place, or nothing: a bye), the results entered, and what `advance` derived from
them (who plays whom, the status, the champion).

A side's source is a string: `p:ID` a player, `w:MATCH` / `l:MATCH` the winner / the loser
of a match, `g:GROUP:PLACE` a group's place (`g:A:1`, the winner of group A) once the
group is played out, `r:MATCH:a` / `r:MATCH:b` that match's side again when its side B
won it (the grand final's reset), and None: nobody (a bye).
"""

from dataclasses import dataclass, field

FORMATS = ("single", "double", "groups")
STATUSES = ("waiting", "ready", "assigned", "called", "playing", "done", "bye", "walkover")
HOWS = ("played", "walkover", "retired", "abandoned")  # a result's kind (seed 004 1.13-1.14)
STAGE_KEYS = ("group", "winners", "losers", "final")  # the stages conditions are given for


@dataclass
class Player:
    id: int          # 1.. in the CSV's order
    name: str
    seed: int | None  # the CSV's seed, or None
    club: str | None
    rank: int        # 1..: the seeds in order, then the others as drawn


@dataclass
class Spec:
    """One match of the bracket as built: where its sides come from."""
    id: str
    stage: str       # winners | losers | final | group A ...
    round: int
    a_from: str | None
    b_from: str | None


@dataclass
class Result:
    winner: int
    score: tuple | None  # (a, b), None for a result without a score
    how: str = "played"
    at: str | None = None
    by: str | None = None


@dataclass
class State:
    """What the results make of a match."""
    a: int | None = None
    b: int | None = None
    winner: int | None = None
    status: str = "waiting"
    decided: bool = False  # its winner (or nobody, a bye of two empty sides) is known
    a_empty: bool = False  # no player ever comes to that side
    b_empty: bool = False


@dataclass
class Tournament:
    name: str
    format: str
    game: str
    conditions: dict      # {stage key: {"match": "race-to 5", ...}}
    draw_seed: int
    groups: int | None = None
    advance: int | None = None
    players: list = field(default_factory=list)   # [Player]
    specs: list = field(default_factory=list)     # [Spec], each after those it needs
    results: dict = field(default_factory=dict)   # {match id: Result}
    tables: dict = field(default_factory=dict)    # {match id: table number} (assign)
    active: dict = field(default_factory=dict)    # {match id: assigned|called|playing}
    states: dict = field(default_factory=dict)    # {match id: State}, by advance.resolve
    champion: int | None = None

    def spec(self, match_id):
        for s in self.specs:
            if s.id == match_id:
                return s
        return None

    def player(self, pid):
        for p in self.players:
            if p.id == pid:
                return p
        return None


def stage_key(stage):
    """The conditions' key of a stage: `group A` -> `group`."""
    return "group" if stage.startswith("group") else stage
