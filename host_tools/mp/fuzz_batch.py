"""Replay many notation files in one MicroPython process, for the fuzzer
(host_tools/measure/fuzz.py).

    micropython host_tools/mp/fuzz_batch.py LIST [--path DIR]

LIST names one file a line. For each file one line is printed:
`ok CRC LEN` (the replay JSON's CRC-32 and length), `error MESSAGE` (a NotationError,
as `scoreboard replay` prints it), or `crash TYPE` (any other exception: a bug); then a
last line `slowest MS HEAP`: the longest one file took, and the most heap in use after
a file (the fuzzer runs this under a capped heap: bounded memory, bounded time).
"""

import binascii
import gc
import sys
import time

from mp_args import firmware_dir, option

sys.path.insert(0, option("--path", firmware_dir()))

from scoreboard.core.notation import NotationError
from scoreboard.core.replay import replay
from replay_json import to_json


def outcome(path):
    try:
        with open(path, "rb") as f:
            text = to_json(replay(f))
    except NotationError as e:
        return "error " + str(e)
    except Exception as e:  # the fuzzer counts every other exception
        return "crash " + type(e).__name__
    data = text.encode()
    return "ok %08x %d" % (binascii.crc32(data) & 0xFFFFFFFF, len(data))


def main():
    slowest = most = 0
    with open(sys.argv[1]) as f:
        for line in f:
            name = line.rstrip("\n")
            if name:
                t = time.ticks_ms()
                sys.stdout.write(outcome(name) + "\n")
                slowest = max(slowest, time.ticks_diff(time.ticks_ms(), t))
                gc.collect()
                most = max(most, gc.mem_alloc())
    sys.stdout.write("slowest %d %d\n" % (slowest, most))


main()
