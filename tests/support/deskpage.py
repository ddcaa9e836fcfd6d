"""The desk's pages (`scoreboard desk`) for tests/test_desk_page.py and for the pictures
in docs/pictures/:

    python tests/support/deskpage.py      # writes docs/pictures/desk-board.png,
                                          # desk-tv.png, desk-tv-tables.png,
                                          # desk-tv-groups.png, desk-print.png and
                                          # desk-print-sheet.png at 1920x1080
    python tests/support/deskpage.py --figures   # a result to the TV page's repaint

`DeskServer(folder, db, ports=None)`: `scoreboard desk` itself, on a free port over the
database `db`, following `ports` (by default one that is not there: table 1 without
signal, and no box is looked for).
`served(db, **options)`: live's application with the desk's routes in this process (the
guard told what `--bind` it has), for what needs a token; `played(db, name, upto)`: a
tournament made and played by the library up to `upto` results, as the desk's page
would enter them.
"""

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
if __name__ == "__main__":
    sys.path[:0] = [str(HERE.parent), str(HERE.parents[1])]

import host_tools  # noqa: E402,F401  (the firmware on the path)
from host_tools.live.desk import Desk  # noqa: E402
from host_tools.results.db import open_db  # noqa: E402
from host_tools.tournament import players, store  # noqa: E402
from support.livebox import SCOREBOARD, _readline, checkout_env, stop  # noqa: E402

REPO = HERE.parents[1]
PICTURES = REPO / "docs" / "pictures"
NAMES = ["Ann Lee", "Bob Kray", "Cy Young", "Dana Scully", "Łucja Żółć", "Ёрдан Гичев",
         "Eve Moss", "Fay Wray"]


def csv_text(names=NAMES, seeds=(1, 2)):
    rows = ["name,seed,club"]
    for i, n in enumerate(names):
        rows.append("%s,%s,Club %d" % (n, seeds[i] if i < len(seeds) else "", i % 2 + 1))
    return "\n".join(rows) + "\n"


class DeskServer:
    """`scoreboard desk --http-port 0 --db DB` in the background: `url`, its pages'."""

    def __init__(self, folder, db, *more, ports=None):
        folder = Path(folder)
        cmd = [str(SCOREBOARD), "desk", "--http-port", "0", "--db", str(db), *more]
        for port in ports or [folder / "no-box"]:
            cmd += ["--port", str(port)]
        self.proc = subprocess.Popen(cmd, cwd=str(REPO), stdin=subprocess.DEVNULL,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     start_new_session=True, env=checkout_env())
        seen = bytearray()
        self.url = _readline(self.proc, 30, b"live: http", seen=seen).split()[1]
        # the desk's line after it: in the bytes read already, or still to come
        line = next((x for x in bytes(seen).split(b"\n") if x.startswith(b"desk: http")),
                    None)
        line = line.decode() if line else _readline(self.proc, 10, b"desk: http")
        self.desk = line.split()[1]

    def stop(self):
        stop(self.proc)
        return self.proc.stderr.read().decode()


def served(db, tables=8, **options):
    """live's application with a Desk over `db` (support.liveweb.Web), on loopback."""
    from support.liveweb import Web

    return Web(desk=Desk(str(db), tables), **options)


def played(db, name="Cup", upto=None, fmt="double", names=NAMES, race=3, conditions=None,
           groups=2, advance=2):
    """Tournament `name` made by the library and played up to `upto` results (all:
    None), each on a table first; side A wins, 3-0, 3-1, 3-2 by turns, but the grand
    final's side B. `conditions`: every stage's besides its race (`clock`, `rules`);
    `groups` and `advance` the groups format's."""
    d = open_db(str(db))
    try:
        t = store.make(name, fmt, players.entries(csv_text(names)), "eightball",
                       {s: dict(conditions or {}, match="race-to %d" % race)
                        for s in ("winners", "losers", "final", "group")},
                       7, groups if fmt == "groups" else None,
                       advance if fmt == "groups" else None)
        store.create(d, t, "test")
        n = 0
        while upto is None or n < upto:
            t = store.load(d, name)
            ready = [s.id for s in t.specs if t.states[s.id].status == "ready"]
            if not ready:
                break
            mid = ready[0]
            st = t.states[mid]
            b_wins = mid == "F1"
            score = (n % 3, race) if b_wins else (race, n % 3)
            store.result(d, name, mid, st.b if b_wins else st.a, score, via="test")
            n += 1
        return store.load(d, name)
    finally:
        d.close()


# The round-6 evening's players (Polish and Bulgarian names, the longest among them).
EVENING = ["Grzegorz Brzęczyszczykiewicz", "Цветелина Кънчева", "Радослав Щерев", "Ewa Łuczak",
           "Łukasz Żółkiewski", "Zofia Ślęzak", "Agnieszka Źrebiec", "Стефан Ангелов",
           "Георги Димитров", "Мария Стоянова", "Иван Петров", "Michał Gąsior",
           "Paweł Chmiel-Dąbrowski", "Małgorzata Wąsowska", "Jędrzej Kuźniar",
           "Божидар Йорданов"]


def pictures(out=PICTURES, width=1920, height=1080):
    """The desk of a tournament half played (with tables assigned), its TV page (the
    tables' slide with a box's snooker frame, a bracket slide, a 4x4 groups slide, in
    Polish) and the print view, at `width` x `height`, as PNG files in `out`; their
    paths."""
    import tempfile

    from support.liveweb import snapshot
    from support.room import screen
    from support.simpage import chrome, quit_chrome
    from support.waits import wait_js

    out.mkdir(parents=True, exist_ok=True)
    folder = Path(tempfile.mkdtemp(prefix="desk-pictures-"))
    db = folder / "results.sqlite"
    played(db, "Club-Cup", upto=7, conditions={"clock": "shot=35 warn=10 ext=1x25",
                                               "rules": {"late": 10}})
    evening = folder / "evening.sqlite"  # the Polish club's tables are its own
    played(evening, "Turniej sobotni 12.12", upto=14, names=EVENING)
    played(evening, "Grupy 12.12", upto=20, names=EVENING, fmt="groups", groups=4)
    web = served(db)
    polish = served(evening, tables=4, lang="pl")
    driver = chrome(folder / "downloads")
    paths = []
    try:
        screen(driver, width, height)
        for path, name, tables in ((db, "Club-Cup", (3, 4)),
                                   (evening, "Turniej sobotni 12.12", (1, 2, 3))):
            d = open_db(str(path))
            try:
                t = store.load(d, name)
                ready = [s.id for s in t.specs if t.states[s.id].status == "ready"]
                for table, mid in zip(tables, ready, strict=False):
                    store.assign(d, name, mid, table, "pictures")
                if ready:
                    store.call(d, name, ready[0], "pictures")
            finally:
                d.close()
        polish.publish("line", snapshot(4, pots=("red", "black", "red", "pink"),
                                        names=("Иван Петров", "Michał Gąsior")))
        tv = "/tv?every=600"
        shots = [(web, "Club-Cup", "", None, "desk-board.png"),
                 (polish, "Turniej-sobotni-12.12", tv, "tables", "desk-tv-tables.png"),
                 (polish, "Turniej-sobotni-12.12", tv, "section", "desk-tv.png"),
                 (polish, "Grupy-12.12", tv, "groups", "desk-tv-groups.png"),
                 (web, "Club-Cup", "/print", None, "desk-print.png")]
        for server, ident, page, slide, name in shots:
            driver.get(server.url + "desk/" + ident + page)
            wait_js(driver, "return Desk.t && document.fonts.status === 'loaded'",
                    what="the page")
            if slide is not None:
                wait_js(driver, "return window.TV && TV.slides.length", what="the slides")
                driver.execute_script("TV.show(TV.slides.findIndex((s) => s.kind === %r))"
                                      % slide)
            wait_js(driver, "return Desk.log.length > 0", what="the paint")
            path = out / name
            driver.save_screenshot(str(path))
            paths.append(path)
            if page == "/print":  # and a match sheet of it, its grid and signatures
                driver.execute_script("document.querySelectorAll('.match-sheet')[8]"
                                      ".scrollIntoView()")
                path = out / "desk-print-sheet.png"
                driver.save_screenshot(str(path))
                paths.append(path)
    finally:
        quit_chrome(driver)
        web.stop()
        polish.stop()
    return paths


def repaint_figures(folder, count=30, players_n=128):
    """(ms from a result to the TV page's repaint: [entered on the desk (its POST)],
    [stored by another connection (the desk's look at the counters)]) over a
    `players_n`-player double elimination, `count` results each."""
    import json
    import time
    import urllib.request

    from support.room import screen
    from support.simpage import chrome, quit_chrome
    from support.waits import wait_js

    folder = Path(folder)
    db = folder / "figures.sqlite"
    played(db, names=["P%03d" % i for i in range(players_n)], upto=0)
    web = served(db)
    driver = chrome(folder / "downloads")
    posted, stored = [], []

    def painted(changes):
        return wait_js(driver, "return Desk.log.find((x) => x.changes >= %d)" % changes,
                       what="the repaint")["t"]
    try:
        screen(driver, 1920, 1080)
        driver.get(web.url + "desk/Cup/tv")
        wait_js(driver, "return Desk.log.length", what="the TV page")
        other = open_db(str(db))
        try:
            for i in range(2 * count):
                t = store.load(other, "Cup")
                mid = next(s.id for s in t.specs if t.states[s.id].status == "ready")
                start = time.time() * 1000
                if i < count:
                    body = json.dumps({"match": mid, "winner": t.states[mid].a,
                                       "score": [3, 1]}).encode()
                    req = urllib.request.Request(web.url + "api/tournament/Cup/result", body,
                                                 {"Content-Type": "application/json"})
                    with urllib.request.urlopen(req, timeout=10) as r:
                        changes = json.loads(r.read())["changes"]
                    posted.append(painted(changes) - start)
                else:
                    store.result(other, "Cup", mid, t.states[mid].a, (3, 0), via="figures")
                    changes = other.rows("SELECT changes FROM tournaments WHERE name = ?",
                                         ("Cup",))[0][0]
                    stored.append(painted(changes) - start)
        finally:
            other.close()
    finally:
        quit_chrome(driver)
        web.stop()
    return posted, stored


if __name__ == "__main__":
    if sys.argv[1:] == ["--figures"]:
        import statistics
        import tempfile

        got = repaint_figures(tempfile.mkdtemp(prefix="desk-figures-"))
        for what, ms in zip(("entered on the desk", "stored by another process"), got):
            print("%s: median %.0f ms, worst %.0f ms (%d)" % (what, statistics.median(ms),
                                                            max(ms), len(ms)))
    else:
        for p in pictures():
            print(p)
