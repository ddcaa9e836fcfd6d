"""Replay many notation files in one MicroPython process, for the fuzzer (host_tools/fuzz.py).

    micropython host_tools/mp/fuzz_batch.py LIST [--path DIR]

LIST names one file a line. For each file one line is printed:
`ok CRC LEN` (the replay JSON's CRC-32 and length), `error MESSAGE` (a NotationError,
as `scoreboard replay` prints it), or `crash TYPE` (any other exception: a bug).
"""

import binascii
import sys


def _option(name, default=None):
    if name in sys.argv:
        return sys.argv[sys.argv.index(name) + 1]
    return default


def _firmware_dir():
    here = __file__.replace("\\", "/")
    parts = here.split("/")[:-3]  # drop host_tools/mp/fuzz_batch.py
    return "/".join(parts + ["firmware"]) if parts else "firmware"


sys.path.insert(0, _option("--path", _firmware_dir()))

from scoreboard.core.notation import NotationError  # noqa: E402
from scoreboard.core.replay import replay  # noqa: E402
from scoreboard.core.report import to_json  # noqa: E402


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
    with open(sys.argv[1]) as f:
        for line in f:
            name = line.rstrip("\n")
            if name:
                sys.stdout.write(outcome(name) + "\n")


main()
