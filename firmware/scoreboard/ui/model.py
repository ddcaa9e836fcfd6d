"""What the screens show: the `Screen` the app fills, and the words and figures read from
a core Match for them.

The app keeps one `Screen`, sets its fields and calls `ui.eink.draw(canvas, screen)`.
Everything the screens read from the core goes through the functions here, so a change
in the core's API is one edit in this file (`figures` reads `Match.view()`).
"""

from micropython import const

from scoreboard.core.vocab import SIDES
from scoreboard.lang import t, tn, word

from . import draw

KINDS = ("start", "setup", "score", "menu", "frame_end", "match_end", "error")
_SHOWN_BREAKS = const(3)
# The most queued matches a start screen shows at once (the OLED's 6 rows; the e-ink
# panel's 4 fit in them): the start menu reads this many files around the cursor.
QUEUE_ROWS = const(6)


class Screen:
    """The state of the e-ink (or OLED) panel, filled by the app. Fields:

    kind         one of KINDS.
    match        the core Match (None on the start, set-up and some error screens).
    entry        the key entry in progress as text (the grammar's `entry()`), or None.
    message      a refusal's reason (shown inverted), or None.
    menu_title, menu_items (list of str), menu_cursor (int): the menu screen; on the
                 start screen `menu_cursor` marks the queued match that `ok` starts,
                 on the set-up screen the field being changed.
    queue        [(name, summary), ...]: the prepared matches, for the start screen;
                 all of them, or a window of them (`queue_first`, `queue_total`).
    queue_first  the place in the whole queue of `queue[0]` (0).
    queue_total  how many are queued (None: `len(queue)`, the queue is all there).
    clock_s      seconds left on the shot clock as the app last saw them, or None (the
                 e-ink panel is never refreshed per second: this is a still).
    late_min     a called match before its first frame: the whole minutes left of its
                 late start (seed 004 1.7), 0 once it is due; None otherwise. The app
                 sets it when the minute changes, never more often (`late_minutes`).
    error        the error text (the error screen; str or None), lines split at "\\n".
    Also:
    setup        [(label, value), ...]: the set-up screen's fields (game, reds, format,
                 clock...), `menu_cursor` on the one being changed.
    breaker      0 or 1: who breaks off (start and set-up screens), or None.
    title        a heading for the start screen (for example the box id), or None.
    hint         what the keys do now, for the hint line at the bottom of the start,
                 set-up, menu and end screens: set by the owner of the keys (the start
                 menu, the key grammar) for its state; None: no hint.
    notice       something the box reports that is not a refusal (a damaged journal
                 found at start-up, a flash nearly full), shown where a refusal would
                 be, or None.
    """

    def __init__(self, kind="start", match=None):
        # The `# type:` comments are for pyright; MicroPython does not read them.
        self.kind = kind  # type: str
        self.match = match
        self.entry = None  # type: str | None
        self.message = None  # type: str | None
        self.menu_title = ""  # type: str | None
        self.menu_items = []  # type: list
        self.menu_cursor = 0  # type: int
        self.queue = []  # type: list
        self.queue_first = 0  # type: int
        self.queue_total = None  # type: int | None
        self.clock_s = None  # type: int | None
        self.late_min = None  # type: int | None
        self.error = None  # type: str | None
        self.setup = []  # type: list
        self.breaker = None  # type: int | None
        self.title = None  # type: str | None
        self.hint = None  # type: str | None
        self.notice = None  # type: str | None


def late_minutes(match, now_ms):
    """The whole minutes left of a called match's late start at `now_ms` (match ms),
    rounded up (14:01 left is 15), 0 once due; None when no late start runs (not
    called, or a frame has begun). What `Screen.late_min` holds."""
    if match is None or match.frame is not None or not match.time.late.active:
        return None
    return (match.time.late.remaining_ms(now_ms) + 59999) // 60000


def late_words(screen):
    """The late start for the score screen's prompt bar: the minutes to the forfeit, or
    at the due time the question (menu: the late side's forfeit); None without one."""
    m = screen.late_min
    if m is None or screen.match is None or screen.match.frame is not None:
        return None
    return t("s.late_due") if m <= 0 else t("s.late") % m


def banner(screen):
    """The boxed line under the score: a refusal (`NO: why`), else a notice, else None."""
    if screen.message:
        return t("m.no") % screen.message
    return screen.notice


def figures(match):
    """The frame in play's figures, or None between frames and after the match: the
    core's View (core/views.py: striker, score, brk, ball_on, reds, remaining,
    snookers_required, free_ball, respotted_black, fouls, misses, prompts), which the
    match refills on each call. THE one place the screens read `Match.view()`."""
    if match is None or match.current() is None:
        return None
    return match.view()


def balls_left(match):
    """Pool: the numbers of the object balls still on the table, or None."""
    f = match.current()
    get = getattr(f, "balls_left", None)
    return None if get is None else get()


def name(match, side):
    """The side's name; doubles as `First & Second`."""
    names = match.header.sides[side]
    return " & ".join(names) if names else SIDES[side]


def player(match, side):
    """The name of the player of `side` at the table now (doubles alternate)."""
    names = match.header.sides[side]
    f = match.current()
    if len(names) < 2 or f is None or f.striker != side:
        return None
    return names[f.player()]


def short_name(match, side, chars):
    """The name of the player at the table (or the side) in at most `chars` characters:
    the whole name if it fits, else its last word (a surname), cut if need be."""
    label = player(match, side) or name(match, side)
    if len(label) > chars:
        label = label.split(" ")[-1]
    return label


def last_record(match):
    """The record of the frame played last (in progress or just ended), or None."""
    f = match.frame
    return None if f is None else f.record()


def breaks(match, side, n=_SHOWN_BREAKS):
    """The last `n` listed breaks (10 or more; runs in straight pool) of `side` in the
    frame played last, oldest first."""
    r = last_record(match)
    if r is None:
        return ()
    listed = r[5 + side]
    return listed[-n:]


def match_format(header):
    """The format in words: `BEST OF 7`, `3 FRAMES`, `RACE TO 5`, `100 POINTS`."""
    kind, n = header.kind, header.target
    return format_words(kind, n, header.by_points)


def format_words(kind, n, by_points=False):
    """A match format (`best-of`, `frames`, `race-to`, `points` and N) in words."""
    if kind == "best-of":
        return tn("m.best_of", n) % n
    if kind == "frames":
        return tn("m.frames_points" if by_points else "m.frames", n) % n
    if kind == "race-to":
        return tn("m.race_to", n) % n
    return tn("m.points", n) % n


def clock_words(match, clock_s=None, short=False):
    """The shot clock in words for the footer: `CLOCK 0:32` (the seconds the app last
    saw, `clock_s`) or the settings `CLOCK 45s/10` (limit / warning), its state (`on`: a
    shot is on the clock; `paused`: play suspended; `TIME`: the shot ran out, the next
    foul is a time foul; `stopped`: no shot on it), then the extensions left per side
    (`ext A1 B0`); `NO CLOCK` when it is off. `short`: without the warning and the
    extensions, for a footer with little room."""
    c = match.clock
    if not c.enabled:
        return t("m.no_clock")
    s = c.settings
    if clock_s is not None:
        text = t("m.clock_left") % (clock_s // 60, clock_s % 60)
    else:
        text = t("m.clock_set") % s.shot + ("/%d" % s.warn if s.warn and not short else "")
    if c.active and (c.expired or match.time.time_is_up()):
        text += t("m.clock_time")
    elif c.suspended:
        text += t("m.clock_paused")
    else:
        text += t("m.clock_on") if c.active else t("m.clock_stopped")
    if s.ext_count and not short:
        text += t("m.clock_ext") % (c.extensions_left(0), c.extensions_left(1))
    return text


def elapsed(match):
    """The match time as `H:MM` from the `@MS` stamps, or None without stamps."""
    t = match.timing()
    if t is None:
        return None
    minutes = t.match_ms // 60000
    return "%d:%02d" % (minutes // 60, minutes % 60)


def prompt_words(code, fig, match):
    """A prompt code of the core (docs/notation.md) in words for the referee."""
    if code == "snookers":
        return t("m.p.snookers")
    if code == "tie-only":  # the side behind: its most is a tie (and a re-spotted black)
        score = fig.score
        behind = 0 if score[0] < score[1] else 1
        return t("m.p.tie_only") % short_name(match, behind, 14)
    if code == "warn-miss":
        n = fig.misses[fig.striker] if fig.misses and fig.striker is not None else 0
        return tn("m.p.warn_miss", n) % n
    if code == "warn-fouls":
        n = fig.fouls[fig.striker] if fig.striker is not None else 2
        return tn("m.p.warn_fouls", n) % n
    if code in ("frame-ball", "respot", "time"):
        return t("m.p." + code.replace("-", "_"))
    return code.upper()


def with_name(template, who, chars=0, short=None):
    """`template % who` in at most `chars` characters (0: any): the name gives way (its
    last word, cut with an ellipsis if need be), never the words around it; except that
    with `short` (a template of fewer words: `%s wins`), where `template` would leave
    less than the surname or 8 of its letters, that form is taken first (the OLED's:
    `Brzęczyszczy… wygrywa`, not `Br… wygrywa (rywal poddał frejm)`)."""
    text = template % who
    if chars and len(text) > chars:  # the surname, cut if need be
        surname = who.split(" ")[-1]
        room = chars - len(template) + 2
        if short is not None and room < min(len(surname), 8):
            template = short
            room = chars - len(template) + 2
        text = template % draw.fit(surname, max(1, room))
    return text


def winner_words(match, winner, chars=0):
    """Who won the match (`m.wins`), or that nobody did, in at most `chars` characters
    (0: any; the name gives way)."""
    if winner is None:
        return t("m.no_winner")
    return with_name(t("m.wins"), name(match, winner), chars)


def how_words(result):
    """How a match ended when it was not played out, for the match's end screen (a
    Match.result()): `conceded`, `walkower (niesportowe zachowanie)`, a late start
    as the rule book has it (`без игра (закъснение на съперника)`); "" when played."""
    if result is None or result[0] == "played":
        return ""
    how, why = result[0], result[1]
    if how == "forfeited" and why == "late":
        return t("e.forfeit_late")
    if not why or why == how:
        return word(how)
    return t("e.how") % (word(how), word(why))


def frame_result(match, winner, how, chars=0):
    """How a frame (rack) ended, in words for the end-of-frame screen, in at most `chars`
    characters (0: any; the winner's name gives way)."""
    if how in ("restarted", "abandoned", "forfeited") or winner is None:
        return t("m.r." + how, how) if how else ""
    wins = t("m.wins")
    return with_name(t("m.r." + how, wins), name(match, winner), chars, wins)
