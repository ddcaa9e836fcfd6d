"""What the scripts in this folder share: their options, and where the firmware is.

These scripts run under MicroPython (and CPython), which has no argparse and no os.path:
`option()` reads `--name VALUE` from sys.argv; `firmware_dir()` is the repository's
firmware/, found from this file's own path (host_tools/mp/ is two levels below the
root). A script puts it on sys.path itself: in front, or behind the frozen modules.
"""

import sys


def option(name, default=None):
    """The value after `name` on the command line, or `default`."""
    if name in sys.argv:
        return sys.argv[sys.argv.index(name) + 1]
    return default


def firmware_dir():
    parts = __file__.replace("\\", "/").split("/")[:-3]  # drop host_tools/mp/mp_args.py
    return "/".join(parts + ["firmware"]) if parts else "firmware"
