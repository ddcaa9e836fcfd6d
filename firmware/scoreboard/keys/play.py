"""What the keys read of a match in play: who is at the table, whether a foul is on time.

Shared by the grammar and the game families' keys (they read the Match, never change
it), so a family need not ask the grammar.
"""

from scoreboard.core.vocab import SIDES


def striker_side(match):
    """The striker: 0 (A) or 1 (B); 0 while nobody is at the table (a respot waits, no
    frame is in play)."""
    if match.current() is None:
        return 0
    return match.view().striker or 0


def striker(match):
    """The striker's letter (A while the board waits for `respot`)."""
    return SIDES[striker_side(match)]


def time_flag(match, long):
    """A time foul: asked for (a long press), or the shot clock has run out."""
    clock = match.clock
    if long or (clock.enabled and clock.active and clock.expired):
        return True
    return "time" in (match.view().prompts or ())


def claim_refusal(match):
    """Why a claim of the frame would be refused now (the rules' reason, in English), or
    None: asked before the question, never after its `ok`."""
    f = match.current()
    check = getattr(f, "claim_refusal", None)
    return None if check is None else check()
