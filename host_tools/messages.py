"""What the host commands print: one way to put text that came from a box, a file or the
database in front of the user.

Names, ids, file names and the reasons built from them can hold anything a damaged or
hostile file holds, so every line goes through `shown()` (the core's `escaped`: C0 and
C1 controls, ESC and DEL as `\\xNN`, Unicode's line separators and bidi controls such as
U+2028 and U+202E as `\\uNNNN`) before it reaches a terminal, and is encoded for the
stream with `?` where its encoding lacks a character. `say()` prints one line, `fail()`
one error line on stderr; `write_out()` writes a command's output to standard output,
quietly ending at a closed pipe and saying in one line when the device is full.
"""

import os
import sys

import host_tools  # noqa: F401  (puts the firmware on the path)
from scoreboard.core.words import escaped


def shown(text):
    """`text` (anything: it is made a str) safe for a terminal, on one line."""
    return escaped(str(text))


def one_of(words):
    """`en, pl or bg`: the choices an option takes, for a message."""
    return ", ".join(words[:-1]) + " or " + words[-1] if len(words) > 1 else words[0]


def encoded(text, stream):
    """`text` as `stream` can write it: `?` for what its encoding cannot show."""
    encoding = getattr(stream, "encoding", None) or "utf-8"
    return text.encode(encoding, "replace").decode(encoding)


def say(text, stream=None):
    """Print one line of `text`, escaped."""
    stream = stream or sys.stdout
    stream.write(encoded(shown(text), stream) + "\n")


def fail(prog, text):
    """The one line on stderr of a command that cannot go on: `prog: text`."""
    say("%s: %s" % (prog, text), sys.stderr)


def write_out(prog, text, exact=False):
    """Write `text` (already safe) to standard output. Returns an exit code: 0, also
    when the reader went away (`| head`); 2 with one line when the write failed.

    `exact`: a file's bytes (an export), as UTF-8 and its own line ends: on Windows a
    redirected standard output otherwise takes the ANSI code page, dropping letters, and
    turns each \n into \r\n, doubling a CSV's \r."""
    try:
        buffer = getattr(sys.stdout, "buffer", None) if exact else None
        if buffer is not None:
            sys.stdout.flush()
            buffer.write(text.encode("utf-8"))
            buffer.flush()
        else:
            sys.stdout.write(encoded(text, sys.stdout))
            sys.stdout.flush()
    except BrokenPipeError:
        _quiet_stdout()
        return 0
    except OSError as e:
        _quiet_stdout()
        fail(prog, "cannot write to standard output: %s" % (e.strerror or e))
        return 2
    return 0


def _quiet_stdout():
    """Point stdout at /dev/null, so the interpreter's flush at exit has nothing to say
    about the stream that failed."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
