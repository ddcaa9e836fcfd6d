"""Put the repo's firmware/, host_tools/mp/ (the replay JSON, the key runner) and, on
CPython, the compat modules on sys.path.

Shared by the scripts in this folder, which run under both MicroPython and CPython.
MicroPython has no os.path: the repo root is found with string operations on the
script's own path (absolute or relative), three levels up from tests/micropython/x.py.
"""

import sys


def repo_root(script):
    parts = script.replace("\\", "/").split("/")
    keep = len(parts) - 3
    if keep < 0:
        return "/".join([".."] * -keep)
    if keep == 0:
        return "."
    if keep == 1 and parts[0] == "":
        return "/"
    return "/".join(parts[:keep])


def setup(script):
    root = repo_root(script)
    sys.path.insert(0, root + "/host_tools/mp")  # the host's modules that run here too
    sys.path.insert(0, root + "/firmware")
    try:
        import micropython  # noqa: F401  (built in on MicroPython)
    except ImportError:
        sys.path.insert(0, root + "/host_tools/compat")
    return root
