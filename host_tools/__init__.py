"""Host tools for the table-side scoreboard: the `scoreboard` command (replay, setup, sync,
flash, export, report, live) and the developers' tools around the firmware.

The firmware's pure core is imported from the firmware folder as is (`paths.py` finds
it: the checkout's `firmware/`, or the same files inside the installed wheel), so the
host and the device run the very same rules code; `compat/` gives CPython the few
MicroPython built-ins that the firmware imports (`micropython.const`, `framebuf`).
"""

import sys

from host_tools.paths import compat_dir, firmware_dir

__version__ = "0.1.0"  # the host tools' (the wheel's) version; the firmware has its own

for _path in (str(compat_dir()), str(firmware_dir())):
    if _path not in sys.path:
        sys.path.insert(0, _path)
