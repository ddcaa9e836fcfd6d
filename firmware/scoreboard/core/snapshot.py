"""Snapshots of the match's state inside a segment, so that `undo` folds again only the
few events since the nearest snapshot, not the whole frame.

Every object that holds segment state (the match, its frame, the timekeeper and its
timers) names its state in a `_STATE` tuple of attribute names. `save(obj)` copies
those values (lists copied, nested objects with a `_STATE` saved in turn, everything
else, ints, strings, tuples of ints, shared as it is); `load(saved)` puts them back
into the very objects they came from, and re-points the attributes at those objects,
so a snapshot taken before a `restart` (a new frame object) still restores exactly.

`Snapshots` keeps them for one segment: a coarse one every `every` events (32 at first;
when more than `_MOST` pile up in a long frame, every other is dropped and the spacing
doubles, so their number stays bounded), and, while `undo` walks back through a stretch,
fine ones every `_FINE` events inside it, dropped when the next coarse one is taken.
An undo then folds again at most `_FINE` events in a row of undos, and at most `every`
for the first of them.
"""

from micropython import const

_FIRST_EVERY = const(32)
_MOST = const(16)
_FINE = const(8)


class _Saved:
    def __init__(self, obj, values):
        self.obj = obj
        self.values = values


def _copy(v):
    if isinstance(v, list):
        return [_copy(x) for x in v]
    if isinstance(v, tuple):
        for x in v:
            if isinstance(x, list):
                return tuple(_copy(y) for y in v)
        return v
    if hasattr(v, "_STATE"):
        return save(v)
    return v


def _back(v):
    if isinstance(v, list):
        return [_back(x) for x in v]
    if isinstance(v, tuple):
        for x in v:
            if isinstance(x, list):
                return tuple(_back(y) for y in v)
        return v
    if isinstance(v, _Saved):
        return load(v)
    return v


def save(obj):
    """The state of obj (its `_STATE` attributes), copied."""
    return _Saved(obj, tuple(_copy(getattr(obj, name)) for name in obj._STATE))


def load(saved):
    """Put a saved state back into its object; returns the object."""
    obj = saved.obj
    names = obj._STATE
    values = saved.values
    for i in range(len(names)):
        setattr(obj, names[i], _back(values[i]))
    return obj


class Snapshots:
    """The snapshots of one segment: (events, byte offset in the segment, saved)."""

    def __init__(self):
        self.items = []
        self.every = _FIRST_EVERY

    def clear(self):
        self.items = []
        self.every = _FIRST_EVERY

    def appended(self, obj, count, offset):
        """After the segment's `count`-th event: a coarse snapshot when it is due."""
        every = self.every
        if count % every:
            return
        items = [s for s in self.items if s[0] % every == 0]
        items.append((count, offset, save(obj)))
        if len(items) > _MOST:
            every *= 2
            self.every = every
            items = [s for s in items if s[0] % every == 0]
        self.items = items

    def nearest(self, count):
        """The latest snapshot at or before `count` events (later ones are dropped, their
        events are gone), or None."""
        items = self.items
        while items and items[-1][0] > count:
            items.pop()
        return items[-1] if items else None

    def fine(self, obj, count, offset, upto):
        """While folding again after an undo: a fine snapshot at `count` when it falls on
        the fine spacing and before `upto` (the events that remain)."""
        if count % _FINE == 0 and count < upto and count % self.every:
            self.items.append((count, offset, save(obj)))
