"""The frozen app on a Cortex-M3 under QEMU, against the unix port: one scripted frame.

    python -m host_tools.measure.qemu_smoke

Runs `host_tools/mp/smoke.py` (a frame played by keys on a RAM littlefs, its journal
printed) in the MPS2-AN385 build that `make deps` makes (build/qemu/firmware.elf: the
firmware frozen in, a 192 KB heap fixed at build time, the real ARM Thumb code path),
pasted over its raw REPL, and on the 64-bit unix port; prints both journals' sizes and
whether they are byte-identical, and the heap the board had in use at the end.
"""

import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "host_tools" / "mp" / "smoke.py"
ELF = REPO / "build" / "qemu" / "firmware.elf"
MICROPYTHON = Path(sys.executable).parent / "micropython"
QEMU = ["qemu-system-arm", "-machine", "mps2-an385", "-nographic", "-monitor", "null",
        "-semihosting", "-serial", "stdio", "-kernel"]


def journal(text):
    """The journal between the script's markers, and the heap line after it."""
    text = text.replace("\r\n", "\n")
    start = text.index("journal begin\n") + len("journal begin\n")
    end = text.index("journal end\n")
    heap = text[end:].split("\n")[1]
    return text[start:end], heap


def run_qemu(timeout=60):
    """The script's output from the QEMU board (raw REPL paste, then a reset ends it)."""
    proc = subprocess.Popen([*QEMU, str(ELF)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)
    proc.stdin.write(b"\r\x01" + SCRIPT.read_bytes() + b"\x04")
    proc.stdin.flush()
    out = b""
    deadline = time.monotonic() + timeout
    import select

    while b"heap used" not in out or not out.rstrip().endswith(b">"):
        if time.monotonic() > deadline:
            proc.kill()
            raise RuntimeError("QEMU gave no journal in %d s: %r" % (timeout, out[-300:]))
        ready, _, _ = select.select([proc.stdout], [], [], 0.2)
        if ready:
            chunk = proc.stdout.read1(4096)
            if not chunk:
                break
            out += chunk
    proc.stdin.write(b"\x02import machine\r\nmachine.reset()\r\n")
    proc.stdin.flush()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
    return out.decode("utf-8", "replace")


def run_unix():
    proc = subprocess.run([str(MICROPYTHON), str(SCRIPT)], capture_output=True, text=True,
                          timeout=60, check=True)
    return proc.stdout


def main():
    if not ELF.exists():
        print("qemu_smoke: %s is missing: run `make deps`" % ELF.relative_to(REPO))
        return 1
    t = time.monotonic()
    arm, arm_heap = journal(run_qemu())
    seconds = time.monotonic() - t
    unix, _ = journal(run_unix())
    same = arm == unix
    print("QEMU Cortex-M3 (192 KB heap): %d journal bytes in %.1f s, %s" % (
        len(arm.encode()), seconds, arm_heap))
    print("unix port: %d journal bytes; byte-identical: %s" % (len(unix.encode()),
                                                               "yes" if same else "NO"))
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
