"""Which number each table has on `scoreboard live`'s pages: the box's own, else the port's.

A box keeps the table it stands at in its settings (set once by the desk: `scoreboard
setup --table N`) and says it in its `hello` (tournament/identity.py). That box is table
N on the pages (`/table/N/overlay`), whatever USB port it is on and whatever its match
header says. A box that claims no table keeps a number of its own: the lowest that no
other table holds, in the order the ports were found. When a box claims a number that
a table without such a claim holds, that table moves to the lowest free number; two
boxes that claim the same table keep their numbers, both are marked as a conflict (the
desk sends neither that table's matches: desk.py's box map), and the log says so once.

`Numbering.first()` is the number for a port just found; `claim(table, wanted, others)`
says whether the table may take `wanted` now and which table must move first.
"""


class Numbering:
    def __init__(self):
        self.told = set()  # (number, port) conflicts said in the log already

    @staticmethod
    def free(tables):
        """The lowest number no table in `tables` holds."""
        used = {t.number for t in tables}
        n = 1
        while n in used:
            n += 1
        return n

    def first(self, tables):
        return self.free(tables)

    def claim(self, table, wanted, tables):
        """(ok, holder): whether `table` may be numbered `wanted`, and the table that
        holds it now and must first move (None when free). A holder that claims it
        too keeps it: (False, holder)."""
        if wanted is None or wanted == table.number:
            return False, None
        holder = next((t for t in tables if t is not table and t.number == wanted), None)
        if holder is None:
            return True, None
        if _wanted(holder) == wanted:
            return False, holder
        return True, holder

    def conflict_once(self, wanted, port):
        key = (wanted, port)
        if key in self.told:
            return False
        self.told.add(key)
        return True


def wanted(table):
    """The table number the box claims (its settings, said in its `hello`), or None."""
    return _wanted(table)


def _wanted(table):
    return table.claim
