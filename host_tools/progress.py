"""A progress bar on one line of the terminal, for the commands' long transfers (sync's
match files; the link to the box only moves the bytes, the command draws the bar)."""

import sys


def progress_bar(label, total, stream=None, width=30):
    """A callable(done) drawing `label [#####.....] 12.3/45.6 KB` on one line."""
    stream = stream or sys.stderr
    state = {"last": -1}

    def show(done, final=False):
        done = min(done, total)
        filled = width * done // total if total else width
        if filled == state["last"] and not final:
            return
        state["last"] = filled
        stream.write("\r%s [%s%s] %.1f/%.1f KB" % (label, "#" * filled, "." * (width - filled),
                                                 done / 1024, total / 1024))
        if final:
            stream.write("\n")
        stream.flush()

    return show
