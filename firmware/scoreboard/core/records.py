"""Finished frames' records as one short text line each, for a store on flash.

A record is `(number, breaker, score, winner, how, breaks_a, breaks_b)` with sides 0/1,
`score` a pair or None (pool racks), breaks tuples of ints. The line is plain words so
that a person can read a store file: `1 A 75 12 A potted 52,23 12` (`-` for none).
"""

from .vocab import SIDES
from .words import digits


def _side(value):
    return "-" if value is None else SIDES[value]


def _ints(values):
    return ",".join("%d" % v for v in values) if values else "-"


def encode(record):
    number, breaker, score, winner, how, breaks_a, breaks_b = record
    return "%d %s %s %s %s %s %s" % (
        number, _side(breaker), "- -" if score is None else "%d %d" % (score[0], score[1]),
        _side(winner), how or "-", _ints(breaks_a), _ints(breaks_b))


def _unside(word):
    if word == "-":
        return None
    if word not in SIDES:
        raise ValueError("bad frame record")
    return SIDES.index(word)


def _int(word):
    body = word[1:] if word[:1] == "-" else word
    if not digits(body):
        raise ValueError("bad frame record")
    return int(word)


def _unints(word):
    return () if word == "-" else tuple(_int(w) for w in word.split(","))


def decode(line):
    """The record of a line that `encode` wrote; ValueError("bad frame record") else."""
    w = line.rstrip("\n").split(" ")
    if len(w) != 8:
        raise ValueError("bad frame record")
    score = None if w[2] == "-" else (_int(w[2]), _int(w[3]))
    return (_int(w[0]), _unside(w[1]), score, _unside(w[4]), None if w[5] == "-" else w[5],
            _unints(w[6]), _unints(w[7]))
