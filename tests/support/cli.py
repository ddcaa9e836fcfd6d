"""`scoreboard ARGS` run in the test's own process: host_tools.cli.main with standard input,
output and error of its own, for the tests where a new interpreter proves nothing (the
entry points themselves are tested as processes: tests/test_cli.py, test_interrupt_start.py,
test_wheel.py)."""

import io
import sys


def _stream(data=b""):
    return io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", newline=None)


def run(*args, stdin=""):
    """(exit status, stdout, stderr) of `scoreboard ARGS` with `stdin` on its standard
    input; an argparse refusal (SystemExit) is its exit status, as in a process."""
    saved = sys.stdin, sys.stdout, sys.stderr
    sys.stdin = _stream(stdin.encode("utf-8") if isinstance(stdin, str) else stdin)
    sys.stdout, sys.stderr = _stream(), _stream()
    out, err = sys.stdout, sys.stderr
    try:
        from host_tools.cli import main

        try:
            rc = main([str(a) for a in args])
        except SystemExit as e:
            rc = e.code if isinstance(e.code, int) else (0 if e.code is None else 2)
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved
    return rc, _text(out), _text(err)


def _text(stream):
    stream.flush()
    return stream.buffer.getvalue().decode("utf-8")
