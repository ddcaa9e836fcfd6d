"""A seeded mutation fuzzer for the notation: mutated match files replayed on CPython
and on MicroPython, the outcomes compared.

    python -m host_tools.measure.fuzz [--count N] [--seed S] [--keep DIR]

Seeds are the scenario files (tests/scenarios/) and legal random matches
(host_tools.measure.matchgen) of every game, with stamps and a clock on some. Each mutant gets
one to four mutations at the byte level (bit flips, inserted or deleted bytes, bytes that
are not UTF-8, control characters, a lone `\\r`, `\\r\\n`, a byte-order mark) or at the line
level (lines dropped, doubled, swapped, spliced from another file; words swapped for
other words of the notation; numbers made long, negative, or of other scripts' digits;
stamps moved back or past the clocks' range; `undo` runs). CPython replays each in
process; MicroPython replays the whole batch in one process (host_tools/mp/fuzz_batch.py).

An outcome is the replay JSON (compared by CRC-32 and length), the `line N: why` of a
NotationError, or a crash (any other exception). The run prints how many files were
replayed, how many ended in each outcome, the crashes on each interpreter and the
disagreements between them; `--keep DIR` writes the files of those cases there.
`make test` runs a small sample (tests/core/test_core_fuzz.py); `make bench` the full run.
"""

import binascii
import os
import random
import subprocess
import sys
import tempfile

import host_tools  # noqa: F401  (puts the firmware on the path)
from host_tools.measure.matchgen import generate, header
from scoreboard.core import vocab
from scoreboard.core.notation import NotationError
from scoreboard.core.replay import replay
from host_tools.mp.replay_json import to_json

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MICROPYTHON = os.path.join(ROOT, ".venv", "bin", "micropython")
BATCH = os.path.join(ROOT, "host_tools", "mp", "fuzz_batch.py")
# The MicroPython side runs every mutant in one process under this heap: a file that
# blew up memory would end in MemoryError, counted as a crash.
HEAP = "2M"
SCENARIOS = os.path.join(ROOT, "tests", "scenarios")

_WORDS = [row[0] for row in vocab.TABLE] + list(vocab.COLOURS) + [
    "red", "A", "B", "free", "miss", "time", "break", "run", "golden", "on", "off",
    "shot=45", "ext=1x25", "sbn", "game", "match", "side", '"Zoë"', "#", "@", "=", '"']
_BYTES = [b"\r", b"\r\n", b"\x00", b"\t", b"\x1b[2J", b"\x7f", b"\xff", b"\xc0\xaf",
          b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xe2\x82", b"\x80", b"\xef\xbb\xbf",
          "\u0663".encode(), "\u00e9".encode(), b"\\", b'"', b" ", b"\n"]


def seeds(rng, generated=12):
    """The seed files: every scenario, and legal random matches of every game."""
    out = []
    for name in sorted(os.listdir(SCENARIOS)):
        if name.endswith(".sbn"):
            with open(os.path.join(SCENARIOS, name), "rb") as f:
                out.append(f.read())
    kinds = ("snooker", "snooker-points", "eightball", "nineball", "tenball", "straight")
    for i in range(generated):
        kind = kinds[i % len(kinds)]
        head = header(kind, {"snooker": 3, "snooker-points": 2, "straight": 40}.get(kind, 3))
        if i % 2:
            head.append("clock shot=35 warn=10 ext=1x25 first=60")
        lines = generate(head, seed=rng.randrange(1 << 30), max_events=300)
        if i % 2:
            at = 0
            for k in range(len(head), len(lines)):
                at += rng.randrange(500, 40000)
                lines[k] = "@%d %s" % (at, lines[k])
        out.append(("\n".join(lines) + "\n").encode())
    return out


def _lines(data):
    return data.split(b"\n")


def mutate(data, rng, others):
    """One mutation of data (bytes)."""
    n = len(data)
    op = rng.randrange(16)
    if n == 0:
        return rng.choice(_BYTES)
    at = rng.randrange(n)
    if op == 0:  # flip a bit
        b = bytearray(data)
        b[at] ^= 1 << rng.randrange(8)
        return bytes(b)
    if op == 1:  # insert hostile bytes
        return data[:at] + rng.choice(_BYTES) + data[at:]
    if op == 2:  # delete a run of bytes
        return data[:at] + data[at + rng.randrange(1, 8):]
    if op == 3:  # cut the file short
        return data[:at]
    lines = _lines(data)
    k = rng.randrange(len(lines))
    if op == 4:  # drop a line
        del lines[k]
    elif op == 5:  # double a line
        lines.insert(k, lines[k])
    elif op == 6:  # swap two lines
        j = rng.randrange(len(lines))
        lines[k], lines[j] = lines[j], lines[k]
    elif op == 7:  # splice a line from another file
        other = _lines(rng.choice(others))
        lines.insert(k, rng.choice(other))
    elif op == 8:  # a word swapped for another word of the notation
        words = lines[k].split(b" ")
        words[rng.randrange(len(words))] = rng.choice(_WORDS).encode()
        lines[k] = b" ".join(words)
    elif op == 9:  # a word added
        lines[k] = lines[k] + b" " + rng.choice(_WORDS).encode()
    elif op == 10:  # a number made strange
        words = lines[k].split(b" ")
        i = rng.randrange(len(words))
        words[i] = rng.choice([b"9" * rng.randrange(5, 5000), b"-1", b"0", b"007",
                               "1\u0663".encode(), b"4294967296", b"1e3", b"+4"])
        lines[k] = b" ".join(words)
    elif op == 11:  # a stamp moved back, or past the clocks' range
        ms = rng.choice([0, 1, 536870911, 536870912, 1 << 40, rng.randrange(1 << 31)])
        lines[k] = b"@%d " % ms + lines[k]
    elif op == 12:  # a run of undos
        lines[k:k] = [b"undo"] * rng.randrange(1, 80)
    elif op == 13:  # line ends
        return data.replace(b"\n", rng.choice([b"\r\n", b"\r", b"\n\n"]))
    elif op == 14:  # a byte-order mark, maybe in the wrong place
        lines[k] = b"\xef\xbb\xbf" + lines[k]
    else:  # a checksum field, right or wrong
        crc = binascii.crc32(lines[k]) & 0xFFFFFFFF
        lines[k] = lines[k] + b" *%08x" % (crc ^ rng.choice([0, 0, 1]))
    return b"\n".join(lines)


def mutants(count, seed):
    rng = random.Random(seed)
    base = seeds(rng)
    out = []
    for _ in range(count):
        data = rng.choice(base)
        for _ in range(rng.randrange(1, 5)):
            data = mutate(data, rng, base)
        out.append(data)
    return out


def split_lines(data):
    """Lines as a binary file yields them: split after each `\\n`."""
    parts = data.split(b"\n")
    lines = [p + b"\n" for p in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


def cpython_outcome(data):
    try:
        text = to_json(replay(split_lines(data)))
    except NotationError as e:
        return "error " + str(e)
    except Exception as e:  # every other exception is a crash, to count
        return "crash " + type(e).__name__
    b = text.encode()
    return "ok %08x %d" % (binascii.crc32(b) & 0xFFFFFFFF, len(b))


def micropython_outcomes(paths, mpy_path=None):
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("\n".join(paths) + "\n")
        listing = f.name
    try:
        cmd = [MICROPYTHON, "-X", "heapsize=%s" % HEAP, BATCH, listing]
        cmd += ["--path", mpy_path] if mpy_path else []
        p = subprocess.run(cmd, capture_output=True, check=False, timeout=3600)
    finally:
        os.remove(listing)
    out = p.stdout.decode("utf-8", "replace").split("\n")
    if p.returncode != 0 or len(out) < len(paths) + 1:
        raise RuntimeError("the MicroPython batch failed (rc %d): %s" % (
            p.returncode, "\n".join(out[-5:])))
    _, slowest, most = out[len(paths)].split()
    return out[:len(paths)], int(slowest), int(most)


def run(count, seed, keep=None, mpy_path=None):
    """Fuzz `count` mutants; returns a dict of counts and the cases found."""
    files = mutants(count, seed)
    result = {"files": len(files), "ok": 0, "error": 0, "crash_cpython": 0,
              "crash_micropython": 0, "disagree": 0, "cases": []}
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for i, data in enumerate(files):
            path = os.path.join(tmp, "m%05d.sbn" % i)
            with open(path, "wb") as f:
                f.write(data)
            paths.append(path)
        mp, result["slowest_ms"], result["most_heap"] = micropython_outcomes(paths, mpy_path)
        for i, data in enumerate(files):
            cp = cpython_outcome(data)
            kind = cp.split(" ", 1)[0]
            if kind in ("ok", "error"):
                result[kind] += 1
            bad = []
            if kind == "crash":
                result["crash_cpython"] += 1
                bad.append("cpython " + cp)
            if mp[i].startswith("crash"):
                result["crash_micropython"] += 1
                bad.append("micropython " + mp[i])
            if mp[i] != cp:
                result["disagree"] += 1
                bad.append("cpython %r, micropython %r" % (cp, mp[i]))
            if bad:
                result["cases"].append((i, bad))
                if keep:
                    os.makedirs(keep, exist_ok=True)
                    with open(os.path.join(keep, "case%05d.sbn" % i), "wb") as f:
                        f.write(data)
    return result


def main(argv=None):
    import argparse
    p = argparse.ArgumentParser(description="Fuzz the notation on CPython and MicroPython.")
    p.add_argument("--count", type=int, default=2000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--keep", help="write the files of crashes and disagreements here")
    a = p.parse_args(argv)
    r = run(a.count, a.seed, a.keep)
    print("files %(files)d  ok %(ok)d  error %(error)d  crashes: CPython %(crash_cpython)d, "
          "MicroPython %(crash_micropython)d  disagreements %(disagree)d" % r)
    for i, bad in r["cases"][:20]:
        print("  mutant %d: %s" % (i, "; ".join(bad)))
    return 1 if r["cases"] else 0


if __name__ == "__main__":
    sys.exit(main())
