"""The journal's figures on every interpreter: a stamped random best-of-35 (matchgen.py)
measured by host_tools/mp/journal_bench.py here (CPython), under .venv/bin/micropython and,
when `make deps` has built it, the 32-bit unix port (build/mp32/).

    python -m host_tools.measure.journal_figures [--seed N]

The measuring script runs on MicroPython as well, so it imports nothing of the host tools;
this module writes the match it measures.
"""

import os
import subprocess
import sys
import tempfile

from host_tools.measure.matchgen import generate, header

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "host_tools", "mp", "journal_bench.py")


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    sys.path.insert(0, os.path.join(ROOT, "tests", "micropython"))
    import journal_play as jp

    seed = int(argv[argv.index("--seed") + 1]) if "--seed" in argv else 35
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "best-of-35.sbn")
        with open(path, "w") as f:
            f.write("\n".join(jp.stamped(generate(header("snooker", 35), seed=seed))) + "\n")
        for name, exe in (("cpython", sys.executable),
                          ("micropython", os.path.join(ROOT, ".venv", "bin", "micropython")),
                          ("mp32", os.path.join(ROOT, "build", "mp32", "micropython"))):
            if not os.path.exists(exe):  # the 32-bit build: only once `make deps` made it
                continue
            args = [exe, SCRIPT, "--match", path, "--dir", os.path.join(tmp, name)]
            if name != "cpython":
                sys.stdout.flush()
                print("--", exe[len(ROOT) + 1:])
                sys.stdout.flush()
                args[1:1] = ["-X", "heapsize=24M"]
            subprocess.run(args, check=True)


if __name__ == "__main__":
    main()
