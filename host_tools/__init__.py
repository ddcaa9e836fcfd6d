"""Host tools for the table-side scoreboard: the `scoreboard` command (replay, setup, sync,
flash, export, report, live) and the developers' tools around the firmware.

The firmware's pure core is imported from the firmware folder as is (`paths.py` finds
it: the checkout's `firmware/`, or the same files inside the installed wheel), so the
host and the device run the very same rules code; `compat/` gives CPython the few
MicroPython built-ins that the firmware imports (`micropython.const`, `framebuf`).

When the process is the command itself (`python -m host_tools`, the `scoreboard`
script), the first thing done here is to make a Ctrl-C that no handler takes end with
one line, `scoreboard: interrupted`, and exit status 130: cli.main() handles Ctrl-C once
it runs, but the modules imported before it (this package, argparse, the script's own
`re`) take a moment too, and a Ctrl-C then was a traceback. A test, or a tool importing
the package, keeps its own hook.
"""

import os
import sys


def _is_the_command():
    """Whether this process is `python -m host_tools` (sys.argv[0] is "-m" while the
    package is being found and imported) or the `scoreboard` console script."""
    argv = sys.argv[0] if sys.argv else ""
    if argv == "-m":
        interpreter = list(getattr(sys, "orig_argv", ()))  # Python 3.10+
        at = interpreter.index("-m") if "-m" in interpreter else -1
        return at > 0 and interpreter[at + 1:at + 2] == ["host_tools"]
    name = os.path.basename(argv)
    for end in ("-script.pyw", "-script.py", ".exe"):  # the launchers on Windows
        if name.endswith(end):
            name = name[:-len(end)]
    return name == "scoreboard"


def _interrupted(kind, value, tb, default=sys.excepthook):
    """sys.excepthook of the command: a KeyboardInterrupt that reached the top (it came
    before cli.main's own handler, or after it) is one line and exit status 130."""
    if not issubclass(kind, KeyboardInterrupt):
        default(kind, value, tb)
        return
    try:
        sys.stdout.flush()
    except (OSError, ValueError, AttributeError):
        pass
    try:
        sys.stderr.write("scoreboard: interrupted\n")
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        pass
    # Left to itself the interpreter ends on a KeyboardInterrupt by killing itself with
    # SIGINT (status -2 to a parent, no exit status): 130 is what the command promises.
    os._exit(130)


if _is_the_command():
    sys.excepthook = _interrupted

from host_tools.paths import compat_dir, firmware_dir  # noqa: E402  (after the hook)

__version__ = "0.1.0"  # the host tools' (the wheel's) version; the firmware has its own

for _path in (str(compat_dir()), str(firmware_dir())):
    if _path not in sys.path:
        sys.path.insert(0, _path)
