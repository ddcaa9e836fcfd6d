"""Host tools for the table-side scoreboard: replay, and later flash, pull and export.

The firmware's pure core is imported from `firmware/` as is, so the host and the device
run the very same rules code; `compat/` gives CPython the few MicroPython built-ins that
the firmware imports (`micropython.const`).
"""

import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
for _path in (os.path.join(_HERE, "compat"), os.path.join(os.path.dirname(_HERE), "firmware")):
    if _path not in sys.path:
        sys.path.insert(0, _path)
