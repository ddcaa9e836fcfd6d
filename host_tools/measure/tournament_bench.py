"""The 128-player double elimination's figure (issue 27, item 4):
`python -m host_tools.measure.tournament_bench [--players N] [--db URL] [--pg]
[--processes]`.

A players' CSV of N (default 128; 8 of them seeded) is created into a double
elimination by `scoreboard tournament create`, then played out by `scoreboard tournament
result`, one call a match (side A or B winning at random, a race to 5, from a fixed
seed), until the champion: the time of the create (the CSV read, the draw, the
tournament written), of the whole play-out and of each result (median, worst), and the
total. The commands run in this process as cli.main runs them (their parsing, database
opening and one transaction each, as the command does; the interpreter's start aside),
and then a sample of 10 results (`--sample N`) as processes of their own, the real entry point (the
interpreter's start and imports included); `--processes`: the whole play-out so.
SQLite in a temporary folder by default; `--pg`: a throw-away PostgreSQL server on
loopback (tests/support/pgserver.py); `--db URL`: that database. Not in `make bench`.
"""

import argparse
import contextlib
import io
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

from host_tools.commands import tournament  # noqa: E402
from host_tools.results.db import open_db  # noqa: E402
from host_tools.tournament import store  # noqa: E402

RACE = 5


def players_csv(folder, n, seeded=8):
    path = Path(folder) / "players.csv"
    rows = ["name,seed,club"] + ["Player %03d,%s,Club %d" % (i + 1, i + 1 if i < seeded
                                                              else "", i % 10)
                                 for i in range(n)]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def in_process(*args):
    """The command as cli.main runs it: its parser, then its run(args)."""
    parser = argparse.ArgumentParser(prog="scoreboard")
    tournament.add_parser(parser.add_subparsers(dest="command", required=True))
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        parsed = parser.parse_args([str(a) for a in args])
        rc = parsed.run(parsed)
    if rc != 0:
        raise SystemExit("tournament_bench: %s failed: %s" % (" ".join(map(str, args[:3])),
                                                               err.getvalue().strip()))


def as_process(*args):
    env = dict(os.environ, PYTHONPATH=str(REPO))
    proc = subprocess.run([sys.executable, "-m", "host_tools", *map(str, args)],
                          capture_output=True, text=True, env=env, check=False)
    if proc.returncode != 0:
        raise SystemExit("tournament_bench: %s" % proc.stderr.strip())


def next_result(url, name, rng):
    """(match, winner, a, b) for a ready match of `name`, or None at the end."""
    db = open_db(url)
    try:
        t = store.load(db, name)
    finally:
        db.close()
    if t.champion is not None:
        return None
    ready = [s.id for s in t.specs if t.states[s.id].status == "ready"]
    mid = ready[0]
    st = t.states[mid]
    a_wins = rng.random() < 0.5
    other = rng.randrange(RACE)
    return (mid, st.a if a_wins else st.b, RACE if a_wins else other,
            other if a_wins else RACE)


def play(url, name, n, folder, run, rng):
    """The create's time, [each result's time], the total's (all in seconds)."""
    start = time.perf_counter()
    run("tournament", "create", name, "--format", "double", "--players",
        players_csv(folder, n), "--race", RACE, "--seed", 2026, "--db", url)
    created = time.perf_counter() - start
    each = []
    while True:
        step = next_result(url, name, rng)
        if step is None:
            break
        t0 = time.perf_counter()
        run("tournament", "result", name, *step, "--db", url)
        each.append(time.perf_counter() - t0)
    return created, each, time.perf_counter() - start


def report(what, created, each, total):
    print("%s: create %.0f ms; %d results in %.1f s (each: median %.1f ms, worst %.1f ms); "
          "total %.1f s" % (what, created * 1000, len(each), sum(each),
                            statistics.median(each) * 1000, max(each) * 1000, total))


def main(argv=None):
    p = argparse.ArgumentParser(prog="tournament_bench")
    p.add_argument("--players", type=int, default=128)
    p.add_argument("--db", default=None, help="a database URL (default: a temporary SQLite)")
    p.add_argument("--pg", action="store_true", help="a throw-away PostgreSQL server")
    p.add_argument("--processes", action="store_true",
                   help="the whole play-out as processes of the entry point")
    p.add_argument("--sample", type=int, default=10,
                   help="results timed as processes of their own (default 10)")
    args = p.parse_args(argv)
    server = None
    with tempfile.TemporaryDirectory(prefix="sb-tour-") as folder:
        url = args.db or str(Path(folder) / "results.sqlite")
        if args.pg:
            sys.path.insert(0, str(REPO / "tests"))
            from support import pgserver

            server = pgserver.Server()
            url = server.url()
        try:
            engine = "PostgreSQL" if url.startswith("postgres") else "SQLite"
            rng = random.Random(1)
            created, each, total = play(url, "BENCH-%d" % os.getpid(), args.players, folder,
                                        in_process, rng)
            report("%d-player double elimination, %s, in process" % (args.players, engine),
                   created, each, total)
            name = "BENCHP-%d" % os.getpid()
            if args.processes:
                created, each, total = play(url, name, args.players, folder, as_process, rng)
                report("the same as processes of `scoreboard`", created, each, total)
            else:
                as_process("tournament", "create", name, "--format", "double", "--players",
                           players_csv(folder, args.players), "--race", RACE, "--db", url)
                each = []
                for _ in range(args.sample):
                    step = next_result(url, name, rng)
                    t0 = time.perf_counter()
                    as_process("tournament", "result", name, *step, "--db", url)
                    each.append(time.perf_counter() - t0)
                print("a result as a process of `scoreboard` (interpreter start and imports "
                      "included): median %.0f ms, worst %.0f ms of %d" % (
                          statistics.median(each) * 1000, max(each) * 1000, len(each)))
        finally:
            if server is not None:
                server.stop()


if __name__ == "__main__":
    main()
