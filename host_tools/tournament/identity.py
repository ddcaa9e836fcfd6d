"""Which box is which table, and whose result counts: the desk's identity model, the same
whichever way a box is reached (a USB port today, the club's network next).

- A box is its id (`box` in its `hello`: PICO-3F2A9C01, from the chip's unique id) and
  claims the table its settings hold (`table`, set once by the desk with `scoreboard
  setup --table N`, kept on the box's flash, said in its `hello`). Never a port's order,
  never the words of a match header.
- `TableMap` holds the boxes heard now (`Claim`: box, table, where it is reached): which
  box is at which table. Two boxes claiming one table are a conflict: neither is that
  table's box (no match is queued or called there) until one of them is set to another
  table.
- The desk's assignment of a match is the truth: a tournament match is assigned to a
  table and, when a box claims that table at the time, to that box
  (`tournament_matches.box_id`).
- `judge`: whether a journal of a tournament match delivered by `Origin` (the box that
  gave it and the table it claims) is the assigned box's. Anything else is held for the
  desk (store.hold), never applied in silence and never dropped.
"""

from dataclasses import dataclass

from host_tools.tournament.says import Said


@dataclass(frozen=True)
class Claim:
    """A box heard now: its id, the table its settings claim (None: not set), and where
    it is reached (a serial port; a network box's client id)."""
    box: str
    table: int | None
    where: str


class TableMap:
    """The boxes heard now, by the table they claim."""

    def __init__(self, claims=()):
        self.claims = list(claims)

    def claiming(self, table):
        return [c for c in self.claims if c.table == table]

    def box_at(self, table):
        """The Claim of the one box at `table`, or None (no box claims it, or two do)."""
        found = self.claiming(table)
        return found[0] if len(found) == 1 else None

    def conflicts(self):
        """{table: [Claim, ...]} of the tables two or more boxes claim."""
        out = {}
        for c in self.claims:
            if c.table is not None:
                out.setdefault(c.table, []).append(c)
        return {t: cs for t, cs in sorted(out.items()) if len(cs) > 1}

    def table_of(self, box):
        """The table `box` claims when it is the only one there, else None."""
        for c in self.claims:
            if c.box == box:
                return c.table if c.table is not None and self.box_at(c.table) == c else None
        return None

    def rows(self):
        """[(table or None, Claim, conflict: bool)], by table then box: what `scoreboard
        list --boxes` and the desk page show."""
        clash = self.conflicts()
        return [(c.table, c, c.table in clash) for c in sorted(
            self.claims, key=lambda c: (c.table is None, c.table or 0, c.box))]


def conflict_text(table, claims):
    """One line: the boxes that claim one table."""
    boxes = ", ".join("%s on %s" % (c.box, c.where) for c in claims)
    return Said("table %d is claimed by %d boxes (%s): neither gets its matches until one "
                "is set to another table (scoreboard setup --table N --port PORT)",
                table, len(claims), boxes)


def judge(match_id, table, box, origin):
    """None when a journal of `match_id` from `origin` is the assigned box's, else why it
    is held. `table`: the table the match is assigned to (None: never assigned); `box`:
    the box that claimed it then (None: none was heard: the first box that claims the
    table when it delivers is taken, and bound)."""
    who = origin.box if origin is not None else None
    if table is None:
        return Said("%s was never assigned to a table by the desk", match_id)
    if box is not None:
        if who == box:
            return None
        return Said("%s is assigned to table %s's box %s, not to box %s",
                    match_id, table, box, who or "?")
    if origin is not None and origin.table == table:
        return None
    return Said("%s is assigned to table %s, and box %s claims %s", match_id, table,
                who or "?", Said("no table") if origin is None or origin.table is None
                else Said("table %d", origin.table))
