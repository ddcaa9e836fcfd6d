"""Which tests `make check` may run: CPython and the venv only (the `needs_build` marker).

`make check` runs `-m "not needs_build and not slow"`: ruff, pyright and the tests that
need nothing beyond the Python venv. A test needs_build when it runs anything else: the
MicroPython unix port (on its own or behind the virtual device), a build in build/ (the
32-bit port, the Cortex-M3 one under QEMU, the Pico's UF2, picotool), Node (the emulated
Pico, the WebAssembly simulator), Chromium, a PostgreSQL server, `make` or apt.

tests/conftest.py sets the marker from the test's fixtures (NEEDS_BUILD_FIXTURES), its
folder (NEEDS_BUILD_FOLDERS: tests/emulated/) and its file (NEEDS_BUILD_FILES);
`guard()` watches every process a test starts, and fails an unmarked test that starts one
of those, so a new test that needs a build cannot slip into the fast tier unnoticed (and
its author learns which line to add).
"""

import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TESTS = REPO / "tests"
# `make check` sets SCOREBOARD_TIER=check: the sampled sweeps there take smaller samples
# (the same assertions); `make test` runs them at their full size.
CHECK = os.environ.get("SCOREBOARD_TIER") == "check"


def examples(n):
    """A property test's example count: `n`, an eighth of it in `make check`."""
    return max(5, n // 8) if CHECK else n


def stride(full, check):
    """A sampled sweep's stride: every `full`-th case in `make test`, every `check`-th
    in `make check` (the same assertions on fewer cases)."""
    return check if CHECK else full


# Fixtures that start one of those: any test that takes them needs_build.
NEEDS_BUILD_FIXTURES = {
    "micropython_bin": "the MicroPython unix port",
    "pg_server": "a PostgreSQL server",
    "device": "the virtual device",
    "mosquitto": "a Mosquitto broker",
}

# Folders of tests/ whose every file runs one of those: the folder is left out whole.
NEEDS_BUILD_FOLDERS = {
    "emulated": "a box emulated or built: the virtual device, the emulated Pico, the "
                "simulator, QEMU, the Pico's UF2",
}

# Files elsewhere whose tests (all or most of them) run one of those, with what they run,
# by name (a test file's name is unique in tests/). A file is listed whole: its helpers
# and module-scoped fixtures start the tools for every test.
NEEDS_BUILD_FILES = {
    "test_app.py": "MicroPython",
    "test_app_alloc.py": "the 32-bit build",
    "test_app_heap.py": "the 32-bit build",
    "test_attack_round2.py": "the virtual device",
    "test_boards.py": "MicroPython",
    "test_box_attack.py": "the 32-bit build",
    "test_box_layouts.py": "MicroPython",
    "test_channel_desk.py": "the virtual device",
    "test_clock_micropython.py": "MicroPython",
    "test_core_checkpoint.py": "MicroPython",
    "test_core_fuzz.py": "MicroPython",
    "test_core_hostile.py": "MicroPython",
    "test_core_undo.py": "MicroPython",
    "test_desk_event.py": "Chromium, the virtual device, PostgreSQL",
    "test_desk_mouse.py": "Chromium",
    "test_desk_page.py": "Chromium, PostgreSQL",
    "test_desk_portable.py": "the virtual device",
    "test_desk_tv.py": "Chromium",
    "test_drivers_micropython.py": "MicroPython",
    "test_escaped_unicode.py": "the virtual device",
    "test_header_table.py": "MicroPython",
    "test_host_attack.py": "the virtual device, PostgreSQL",
    "test_host_export_report.py": "Chromium, the virtual device",
    "test_host_pg.py": "PostgreSQL",
    "test_host_pipeline.py": "the virtual device",
    "test_host_setup_box.py": "the virtual device",
    "test_host_setup_flash.py": "the virtual device",
    "test_host_sync.py": "the virtual device, PostgreSQL",
    "test_host_trust.py": "the virtual device, PostgreSQL",
    "test_i18n_desk.py": "Chromium, the virtual device",
    "test_i18n_glyphs.py": "the Terminus font (apt), the 32-bit build",
    "test_i18n_match_lang.py": "the virtual device",
    "test_i18n_screens.py": "the 32-bit build",
    "test_i18n_tables.py": "MicroPython",
    "test_journal_micropython.py": "MicroPython",
    "test_keys_micropython.py": "MicroPython",
    "test_live.py": "the virtual device",
    "test_live_bench.py": "Chromium, the virtual device",
    "test_live_browser.py": "Chromium",
    "test_live_room.py": "Chromium",
    "test_live_echo.py": "the 32-bit build",
    "test_live_pg.py": "PostgreSQL",
    "test_long_session.py": "the virtual device",
    "test_mash.py": "MicroPython",
    "test_micropython_parity.py": "MicroPython",
    "test_mqtt_desk.py": "the virtual device, Mosquitto",
    "test_mp32_parity.py": "the 32-bit build",
    "test_net_box.py": "the virtual device, Mosquitto",
    "test_net_micropython.py": "MicroPython, the 32-bit build",
    "test_broker.py": "Mosquitto (and the command run end to end)",
    "test_setup_wifi.py": "the virtual device, Mosquitto",
    "test_referee_screens.py": "the 32-bit build",
    "test_replay_torn.py": "the virtual device",
    "test_scenarios.py": "MicroPython, the 32-bit build",
    "test_screens.py": "MicroPython",
    "test_screens_led.py": "MicroPython",
    "test_toolchain.py": "pyright (Node), MicroPython",
    "test_tournament_box.py": "the virtual device, PostgreSQL",
    "test_tournament_cli.py": "PostgreSQL (and the command run end to end, 40 times)",
    "test_uf2_drive.py": "the virtual device",
    "test_wheel.py": "make dist, the virtual device, PostgreSQL",
}

# What a fast test must never start, by the program's name.
_PROGRAMS = {"micropython": "MicroPython", "node": "Node", "chromium": "Chromium",
             "chromedriver": "Chromium", "postgres": "PostgreSQL", "initdb": "PostgreSQL",
             "pg_ctl": "PostgreSQL", "make": "make", "apt-get": "apt", "picotool": "picotool",
             "mosquitto": "Mosquitto", "mosquitto_passwd": "Mosquitto"}
# ... and the CPython modules that start one themselves (python -m NAME).
_MODULES = {"host_tools.device.vdev": "the virtual device", "host_tools.sim": "the simulator",
            "host_tools.live": "scoreboard live",
            "host_tools.measure.qemu_smoke": "QEMU", "build": "a wheel build"}


def needs(executable, args):
    """What a process (its executable and argv) needs beyond the venv, or None."""
    argv = [os.fsdecode(a) for a in (args if isinstance(args, (list, tuple)) else [args])]
    exe = os.fsdecode(executable) if executable else (argv[0] if argv else "")
    name = os.path.basename(exe)
    if name.startswith("qemu-system"):
        return "QEMU"
    for prefix, what in _PROGRAMS.items():
        if name == prefix or name.startswith(prefix + "-"):
            return what
    try:
        inside = Path(exe).resolve().is_relative_to((REPO / "build").resolve())
    except OSError:
        inside = False
    if inside:
        return "a build in build/ (%s)" % name
    if "-m" in argv[:-1]:
        module = argv[argv.index("-m") + 1]
        for prefix, what in _MODULES.items():
            if module == prefix or module.startswith(prefix + "."):
                return what
    return None


class Guard:
    """Records, while a test runs, what the processes it starts need beyond the venv."""

    def __init__(self):
        self.seen = None  # a list while a test runs

    def hook(self, event, args):
        if event != "subprocess.Popen" or self.seen is None:
            return
        what = needs(args[0], args[1])
        if what:
            self.seen.append(what)


_GUARD = None


def guard():
    """The session's one Guard (audit hooks cannot be removed: installed once)."""
    global _GUARD
    if _GUARD is None:
        _GUARD = Guard()
        sys.addaudithook(_GUARD.hook)
    return _GUARD


def listed(path):
    """Why every test under `path` (a test file, or a folder of tests/) needs_build, by
    its folder (NEEDS_BUILD_FOLDERS) or its name (NEEDS_BUILD_FILES); None."""
    path = Path(path)
    try:
        parts = path.resolve().relative_to(TESTS).parts
    except ValueError:
        parts = ()
    if parts and parts[0] in NEEDS_BUILD_FOLDERS:
        return NEEDS_BUILD_FOLDERS[parts[0]]
    return NEEDS_BUILD_FILES.get(path.name)


def needs_build(item):
    """Why `item` (a pytest item) needs_build, or None."""
    why = listed(str(item.fspath))
    if why:
        return why
    for name in getattr(item, "fixturenames", ()):
        if name in NEEDS_BUILD_FIXTURES:
            return NEEDS_BUILD_FIXTURES[name]
    # db_url's "sqlite" half is CPython's own; its "postgresql" half starts the server.
    params = getattr(getattr(item, "callspec", None), "params", {})
    if params.get("db_url") == "postgresql":
        return "a PostgreSQL server"
    return None


def leaves_out_builds(markexpr):
    """Whether a `-m` expression such as make check's "not needs_build and not slow"
    deselects every needs_build test: a plain `not needs_build` joined by `and` only
    (anything subtler is left to pytest: the files are then collected as usual)."""
    terms = [t.strip() for t in (markexpr or "").split(" and ")]
    return "not needs_build" in terms and not any(" or " in t or "(" in t for t in terms)
