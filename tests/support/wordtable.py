"""What the tests ask of the core's word table (`scoreboard.core.vocab.TABLE`): the words
of a family, a word's kind, arguments and flags. The box reads the table directly (the
parser and the match look rows up in `vocab.WORDS`), so these questions live here, off
the device."""

from scoreboard.core.vocab import PRE_FRAME, SUSPENDED_OK, TABLE, WORDS, family_bit


def words_for(fam):
    """The event words of a family, in the table's order."""
    bit = family_bit(fam)
    return tuple(row[0] for row in TABLE if row[1] & bit)


def takes(fam, word):
    """True when games of family `fam` (snooker, pool, straight) take `word`."""
    row = WORDS.get(word)
    return row is not None and bool(row[1] & family_bit(fam))


def kind(word):
    """stroke, decision, result, ruling, match, clock, frame or undo; None if unknown."""
    row = WORDS.get(word)
    return None if row is None else row[2]


def args(word):
    """(argument kind, fewest words after it, most) of a word."""
    row = WORDS[word]
    return row[4], row[5], row[6]


def while_suspended(word):
    return bool(WORDS[word][3] & SUSPENDED_OK)


def pre_frame(word):
    return bool(WORDS[word][3] & PRE_FRAME)
