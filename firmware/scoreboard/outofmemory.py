"""Out of memory, said on both panels in the club's language, with what to do.

The app's handler (App.fail: the heap ran out while the box ran) and main.py (it ran out
before the app could run) both say it this way: the e-ink's error screen gives what
happened and what to do (`a.oom`, `a.oom_start`), the LED one short word for the room
(`a.oom_led`, in the small face). The journal is whole either way: every line was
flushed when written, and the next start recovers the match.

This runs when the heap has just run out: after App.fail has let its reserve go, or
after what a failed start built has been collected. It is imported only then, and
allocates little: the board (at the start), one small canvas wrapper, the texts.
"""


# The console's lines (a box on a desk's USB cable says why it stopped).
MID_MATCH_LINE = ("scoreboard: out of memory (%s; %d bytes free after a collection): the "
                  "match is kept on the flash and recovered at the next start")
START_LINE = ("scoreboard: out of memory while starting (%s): the matches are kept on "
              "the flash")


def mid_match(board, e):
    """The app ran out of memory (`e`) while it ran (App.fail, its reserve let go and
    collected; its error screen says `a.oom`): MID_MATCH_LINE on the console, the LED's
    word."""
    import gc

    free = getattr(gc, "mem_free", None)  # MicroPython's (CPython has none)
    print(MID_MATCH_LINE % (e, free() if free is not None else -1))
    led(board)


class _Whole:
    """The LED's framebuf as the text drawing takes a canvas: every row of it on it."""

    top = 0

    def __init__(self, canvas, rows):
        self.rows = rows
        self.hline = canvas.hline


def led(board):
    """The LED's word, centred on a dark panel, pushed to it."""
    from scoreboard import lang
    from scoreboard.ui import draw

    canvas = board.led
    canvas.fill(0)
    draw.text_at(_Whole(canvas, 16), lang.t("a.oom_led"), 0, 2, 32, draw.CENTRE)
    board.led_show()


# What the error screen needs of the modules a failed start imported (the rest is let go).
_KEEP = ("scoreboard.lang", "scoreboard.ui", "scoreboard.core", "scoreboard.files",
         "scoreboard.settings", "scoreboard.echo", __name__)


def at_start(board, board_name, e):
    """The start ran out of memory (`e`) before the app could run (main.py): the app's
    modules let go (and the board's, to build it again), then START_LINE on the console
    and the start's words on both panels in the box's language (settings.txt), on the
    `board` the start built (main.py builds it before the app), else on one built here
    (the board module `board_name()` names: it reads a file, so only then).
    True when the panels say it; False when that did not fit (the console line does)."""
    import gc
    import sys

    own = ("scoreboard",) if board is not None else ("scoreboard", "boards", "drivers")
    for name in [n for n in sys.modules if n.split(".")[0] in own and "." in n
                 and not n.startswith(_KEEP)]:
        del sys.modules[name]
        parent, _, child = name.rpartition(".")
        if parent in sys.modules and hasattr(sys.modules[parent], child):
            delattr(sys.modules[parent], child)  # the package's name for it goes too
    gc.collect()
    print(START_LINE % e)
    try:
        if board is None:
            board = __import__("boards." + board_name(), None, None, ("build",)).build()
        _box_language(board)
        led(board)
        from scoreboard.ui import eink
        from scoreboard.ui.model import Screen

        screen = Screen()
        screen.kind = "error"
        from scoreboard import lang

        screen.error = lang.t("a.oom_start")
        import asyncio

        asyncio.run(board.eink_show(True, lambda canvas: eink.draw(canvas, screen)))
        return True
    except MemoryError:
        return False


def _box_language(board):
    """Speak the box's language (settings.txt); English when it cannot be read."""
    from scoreboard import lang
    from scoreboard.files import Files
    from scoreboard.settings import lang_of, load_settings

    try:
        lang.use(lang_of(load_settings(Files(board.flash, board.errno))))
    except OSError:
        lang.use("en")

