"""Finished frames' records in RAM: `ListStore`, the frame store a Match keeps when it is
given none, with the interface the match uses: `add(record)`, iteration in order, `len()`.

A record is `(number, breaker, score, winner, how, breaks_a, breaks_b)` (`records.py`).
On the box the records live in the checkpoint file beside the journal
(scoreboard/recovery.py's FrameLog), which has the same interface; a store file of
their own, for host tools and tests, is host_tools/mp/filestore.py.
"""


class ListStore:
    """Finished frames' records kept in RAM: for host tools, tests and the checkpoint
    tests (`records` may give the records already finished)."""

    def __init__(self, records=()):
        self.items = list(records)

    def add(self, record):
        self.items.append(record)

    def __iter__(self):
        return iter(self.items)

    def __len__(self):
        return len(self.items)
