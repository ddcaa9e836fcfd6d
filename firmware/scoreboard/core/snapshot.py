"""Snapshots of the match's state inside a segment, so that `undo` folds again only the
few events since the nearest snapshot, not the whole frame.

Every object that holds segment state (the match, its frame, the timekeeper and its
timers) names its state in a `STATE` tuple of attribute names. `save(obj)` packs those
values into a few hundred bytes (small ints, flags and list lengths a byte each; strings
and the objects themselves are kept by reference); `load(saved)` puts them back into
the very objects they came from, so a snapshot taken before a `restart` (a new frame
object) still restores exactly.

`Snapshots` keeps them for one segment: a coarse one every `every` events (256 at first;
when more than `_MOST` pile up in a long frame, every other is dropped and the spacing
doubles, so their number and RAM stay bounded); while `undo` walks back through a
stretch, fine ones every sixteenth of the spacing (at least `_FINE` events) inside it,
dropped when the next coarse one is taken. A run of undos then folds again about a
32nd of the spacing per undo, and the whole spacing once per stretch.
"""

from micropython import const

_FIRST_EVERY = const(256)
_MOST = const(8)
_FINE = const(8)


# A saved state is (bytes, refs): the values packed into bytes, and the objects and
# strings they name in a tuple. Codes: a byte 0x80 + n is the small int n (0..127);
# _INT is followed by a zigzag varint; _LIST and _TUPLE by a varint count and the items;
# _REF by a varint index into refs (a string, or an object without state, shared);
# _OBJ by a varint index into refs and then the object's `STATE` values.
_NONE = const(0)
_FALSE = const(1)
_TRUE = const(2)
_INT = const(3)
_LIST = const(4)
_TUPLE = const(5)
_REF = const(6)
_OBJ = const(7)
_SMALL = const(0x80)


# Packing and unpacking are plain functions over their lists (a class each would cost
# its type and method objects in RAM): `out` the bytes as ints, `refs` the objects,
# `at` a one-item list holding the read position.
def _varint(out, v):
    while v >= 0x80:
        out.append(0x80 | (v & 0x7F))
        v >>= 7
    out.append(v)


def _ref(out, refs, v):
    for i in range(len(refs)):
        if refs[i] is v:
            _varint(out, i)
            return
    _varint(out, len(refs))
    refs.append(v)


def _pack(out, refs, v):
    if v is None:
        out.append(_NONE)
    elif v is False:
        out.append(_FALSE)
    elif v is True:
        out.append(_TRUE)
    elif isinstance(v, int):
        if 0 <= v < 0x80:
            out.append(_SMALL | v)
        else:
            out.append(_INT)
            _varint(out, v * 2 if v >= 0 else -v * 2 - 1)
    elif isinstance(v, list) or isinstance(v, tuple):
        out.append(_LIST if isinstance(v, list) else _TUPLE)
        _varint(out, len(v))
        for x in v:
            _pack(out, refs, x)
    elif hasattr(v, "STATE"):
        out.append(_OBJ)
        _ref(out, refs, v)
        for name in v.STATE:
            x = getattr(v, name)
            if type(x) is int and 0 <= x < 0x80:  # not a bool: type(True) is bool
                out.append(_SMALL | x)
            elif x is None:
                out.append(_NONE)
            else:
                _pack(out, refs, x)
    else:
        out.append(_REF)
        _ref(out, refs, v)


def _unvarint(data, at):
    v = 0
    shift = 0
    while True:
        b = data[at[0]]
        at[0] += 1
        v |= (b & 0x7F) << shift
        if b < 0x80:
            return v
        shift += 7


def _unpack(data, refs, at):
    b = data[at[0]]
    at[0] += 1
    if b >= _SMALL:
        return b - _SMALL
    if b == _NONE:
        return None
    if b == _FALSE:
        return False
    if b == _TRUE:
        return True
    if b == _INT:
        z = _unvarint(data, at)
        return z >> 1 if not z & 1 else -((z + 1) >> 1)
    if b == _LIST or b == _TUPLE:
        items = [_unpack(data, refs, at) for _ in range(_unvarint(data, at))]
        return items if b == _LIST else tuple(items)
    obj = refs[_unvarint(data, at)]
    if b == _OBJ:
        for name in obj.STATE:
            c = data[at[0]]
            if c >= _SMALL:  # most values: a small int, or a flag, or None
                at[0] += 1
                setattr(obj, name, c - _SMALL)
            elif c <= _TRUE:
                at[0] += 1
                setattr(obj, name, None if c == _NONE else c == _TRUE)
            else:
                setattr(obj, name, _unpack(data, refs, at))
    return obj


def save(obj):
    """The state of obj (its `STATE` attributes, objects inside it included), packed."""
    out = []  # ints 0..255, made bytes at the end
    refs = []
    _pack(out, refs, obj)
    return bytes(out), tuple(refs)


def load(saved):
    """Put a saved state back into the objects it came from; returns the outer one."""
    data, refs = saved
    return _unpack(data, refs, [0])


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
        every = self.every
        fine = every // 16 if every > 16 * _FINE else _FINE
        if count % fine == 0 and count < upto and count % every:
            self.items.append((count, offset, save(obj)))
