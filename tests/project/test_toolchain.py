"""The device toolchain accepts the firmware: what it rejects never ships.

- mpy-cross compiles every firmware file for the Pico (armv6m);
- pyright finds no error in firmware/, checked against the MicroPython rp2 stubs
  (and those stubs really are in use: CPython-only calls are reported);
- the layer rule, as a table per folder (LAYERS): the core imports nothing of the app,
  the screens, the keys, the journal, drivers, boards, the hardware, asyncio or framebuf;
  keys and screens import the core (screens also framebuf); drivers never the
  scoreboard; boards wire drivers and build Pins only in build(), never at import;
- no import cycles in the firmware or the host tools (imports inside functions count);
- ruff passes on everything we write.
"""

import ast
import json

import pytest

from support import mpy

CORE = mpy.FIRMWARE / "scoreboard" / "core"


def _rel(path):
    return path.relative_to(mpy.REPO).as_posix()


@pytest.mark.parametrize("path", mpy.firmware_files(), ids=_rel)
def test_mpy_cross_compiles(path, tmp_path):
    out = tmp_path / (path.stem + ".mpy")
    # Relative source name, as on the device; -march for @micropython.native code.
    rc, text = mpy.run_tool(
        [mpy.tool(mpy.MPY_CROSS), "-march=armv6m", "-o", out, path.relative_to(mpy.FIRMWARE)],
        cwd=mpy.FIRMWARE,
    )
    assert rc == 0, text
    assert out.stat().st_size > 0


def _pyright(*args):
    rc, text = mpy.run_tool([mpy.tool(mpy.PYRIGHT), "--outputjson", *args])
    try:
        return rc, json.loads(text)
    except ValueError:
        pytest.fail("pyright did not print JSON (rc %d):\n%s" % (rc, text))


def _diagnostics(report):
    return "\n".join(
        "%s:%d: %s" % (d["file"], d["range"]["start"]["line"] + 1, d["message"])
        for d in report["generalDiagnostics"]
    )


def test_pyright_firmware_has_no_errors():
    rc, report = _pyright()
    assert report["summary"]["filesAnalyzed"] > 0
    assert report["summary"]["errorCount"] == 0, _diagnostics(report)
    assert rc == 0


BAD_FOR_THE_BOARD = """\
import framebuf
import machine
import micropython
import time

t = time.perf_counter()
p = machine.Pin(25, machine.Pin.OUTT)
fb = framebuf.FrameBuffer(bytearray(8), 8, 8, framebuf.MONO_HLSB)
fb.text(1, 2, 3)
micropython.heap_lockk()
"""


def test_pyright_checks_against_the_micropython_stubs(tmp_path):
    """Each bad line is reported: the board's stubs, not CPython's typeshed, are used."""
    scratch = tmp_path / "scratch.py"
    scratch.write_text(BAD_FOR_THE_BOARD)
    _, report = _pyright("-p", mpy.REPO / "pyrightconfig.json", scratch)
    lines = sorted({d["range"]["start"]["line"] + 1 for d in report["generalDiagnostics"]
                    if d["severity"] == "error"})
    assert lines == [6, 7, 9, 10], _diagnostics(report)


def _imported_modules(path, root=mpy.FIRMWARE):
    """Absolute names of the modules that `path` imports (relative imports resolved), with
    `root` the folder its package names start from; a `from X import a` gives `X.a` too,
    which is a module when X is a package. Imports inside functions count: they run."""
    package = path.relative_to(root).with_suffix("").parts[:-1]
    if path.name == "__init__.py":
        package = path.relative_to(root).parts[:-1]
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                assert len(base) == len(package) - (node.level - 1), "import beyond the root"
                prefix = ".".join(base)
                module = prefix + "." + node.module if node.module else prefix
                if not node.module:
                    names += [prefix + "." + alias.name for alias in node.names]
                    continue
            else:
                module = node.module
            names.append(module)
            names += [module + "." + alias.name for alias in node.names]
    return names


# The layer rule, per folder or file of firmware/ (the most specific row applies):
# which firmware modules it may import (prefixes), and which outside modules it must not.
# docs/design.md: the core is pure; keys and screens sit on the core (screens draw through
# framebuf); the journal keeps files for the core; drivers take pins and buses and know
# nothing of the scoreboard; boards wire drivers, and build Pins only when asked.
HARDWARE = {"machine", "rp2", "pyb", "esp", "esp32", "network", "bluetooth", "neopixel"}
ASYNC = {"asyncio", "uasyncio"}
JOURNAL = ("scoreboard.recovery", "scoreboard.files", "scoreboard.space")
LAYERS = (
    # (path under firmware/, may import from the firmware, must not import)
    ("scoreboard/core/", ("scoreboard.core",), HARDWARE | ASYNC | {"framebuf"}),
    ("scoreboard/keys/", ("scoreboard.core", "scoreboard.keys", "scoreboard.lang"),
     HARDWARE | ASYNC | {"framebuf"}),
    ("scoreboard/ui/", ("scoreboard.core", "scoreboard.ui", "scoreboard.lang"),
     HARDWARE | ASYNC),
    # The language tables (issue 18): data and their lookup, nothing else.
    ("scoreboard/lang/", ("scoreboard.lang",), HARDWARE | ASYNC | {"framebuf"}),
    # The journal and the modules it is made of: files on flash for the core, nothing else.
    ("scoreboard/journal.py", ("scoreboard.core",) + JOURNAL, HARDWARE | ASYNC | {"framebuf"}),
    ("scoreboard/recovery.py", ("scoreboard.core", "scoreboard.files"),
     HARDWARE | ASYNC | {"framebuf"}),
    ("scoreboard/files.py", ("scoreboard.core",), HARDWARE | ASYNC | {"framebuf"}),
    ("scoreboard/space.py", ("scoreboard.core", "scoreboard.files", "scoreboard.recovery"),
     HARDWARE | ASYNC | {"framebuf"}),
    # The app gets its board from main.py: it never reaches for pins or drivers itself.
    ("scoreboard/app.py", ("scoreboard.",), HARDWARE),
    ("scoreboard/", ("scoreboard.",), HARDWARE),
    ("drivers/", ("drivers",), set()),
    # The board contract's defaults use the journal's filesystem helpers (one statvfs, one
    # sync); the boards carry the console echo.
    ("boards/", ("drivers", "boards", "scoreboard.core", "scoreboard.echo", "scoreboard.files",
                 "scoreboard.space"), set()),
    # The browser simulator's board is the bridge that runs the app from JavaScript.
    ("boards/sim.py", ("drivers", "boards", "scoreboard.core", "scoreboard.app",
                       "scoreboard.keys", "scoreboard.files", "scoreboard.space"), set()),
    # main.py loads the screens' faces before the app (the .mpy route: see there), and
    # says a start out of memory on both panels (scoreboard.outofmemory, issue 36).
    ("main.py", ("scoreboard.app", "scoreboard.ui", "boards", "scoreboard.outofmemory"),
     set()),
)
FIRMWARE_TOPS = ("scoreboard", "drivers", "boards", "main")


def _layer(path):
    rel = path.relative_to(mpy.FIRMWARE).as_posix()
    best = None
    for row in LAYERS:
        if rel.startswith(row[0]) and (best is None or len(row[0]) > len(best[0])):
            best = row
    return best


def test_core_exists():
    assert sorted(CORE.rglob("*.py")), "no file under firmware/scoreboard/core/"


def test_every_firmware_folder_has_a_layer_rule():
    # The folders the device issues add are covered whether or not they exist yet.
    for rel in ("scoreboard/core/x.py", "scoreboard/keys/x.py", "scoreboard/ui/x.py",
                "scoreboard/journal.py", "scoreboard/app.py", "drivers/x.py", "boards/x.py"):
        assert _layer(mpy.FIRMWARE / rel) is not None, rel
    assert _layer(mpy.FIRMWARE / "scoreboard/ui/x.py")[0] == "scoreboard/ui/"


def _allowed(name, prefixes):
    for p in prefixes:
        # `from scoreboard import lang` names the package itself: allowed where its
        # modules are (the scanner lists the module part too)
        if name in (p, p.rstrip(".")) or name.startswith(p if p.endswith(".") else p + "."):
            return True
    return False


@pytest.mark.parametrize("path", mpy.firmware_files(), ids=_rel)
def test_layer_rule(path):
    row = _layer(path)
    assert row is not None, "%s: no layer rule" % _rel(path)
    _, inside, forbidden = row
    bad = []
    for name in _imported_modules(path):
        top = name.split(".")[0]
        if top in forbidden:
            bad.append(name)
        elif top in FIRMWARE_TOPS and not _allowed(name, inside):
            bad.append(name)
    assert not bad, "%s imports %s" % (_rel(path), ", ".join(bad))


def test_layer_rule_catches_a_core_that_imports_the_screens():
    fake = mpy.FIRMWARE / "scoreboard" / "core" / "x.py"
    _, inside, forbidden = _layer(fake)
    assert not _allowed("scoreboard.ui.eink", inside) and "framebuf" in forbidden
    assert _allowed("drivers.keypad", _layer(mpy.FIRMWARE / "drivers/y.py")[1])
    assert not _allowed("scoreboard.core", _layer(mpy.FIRMWARE / "drivers/y.py")[1])


# No import cycles (docs/developer.md, House style), in the firmware and the host tools
# alike: each module's imports, wherever in the module they stand, form a graph that
# must have none.
HOST_TOOLS = mpy.REPO / "host_tools"


def _module_files():
    """{dotted name: path} of every firmware module (names from firmware/, as on the
    device) and every host tool (names from the repo: host_tools.x)."""
    files = {}
    for root, paths in ((mpy.FIRMWARE, mpy.firmware_files()),
                        (mpy.REPO, sorted(HOST_TOOLS.rglob("*.py")))):
        for path in paths:
            if "__pycache__" in path.parts or "node_modules" in path.parts:
                continue
            parts = path.relative_to(root).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            files[".".join(parts)] = (path, root)
    return files


def import_graph():
    """{module: set of the modules of this tree it imports}. A bare name that is a file
    beside the importer (host_tools/mp/ scripts run from their folder) is that file."""
    files = _module_files()
    graph = {}
    for name, (path, root) in files.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        edges = set()
        for imported in _imported_modules(path, root):
            for candidate in (imported, package + "." + imported if package else None):
                if candidate in files and candidate != name:
                    edges.add(candidate)
                    break
        graph[name] = edges
    return graph


def cycles(graph):
    """The import cycles of a graph, each as the list of its modules (sorted), found as
    the strongly connected components of more than one module (Tarjan's algorithm)."""
    index = {}
    low = {}
    stack = []
    on_stack = set()
    found = []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_cycles():
    graph = import_graph()
    assert "scoreboard.core.match" in graph and "host_tools.device.keyscript" in graph
    assert "scoreboard.core.store" in graph["scoreboard.core.match"]  # edges are found
    found = cycles(graph)
    assert not found, "import cycles: " + "; ".join(" <-> ".join(c) for c in found)


def test_the_cycle_check_finds_a_cycle_through_a_lazy_import(tmp_path):
    # The graph of three modules where the last imports the first inside a function.
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from .b import f\n")
    (pkg / "b.py").write_text("from . import c\n\ndef f():\n    return c\n")
    (pkg / "c.py").write_text("def g():\n    from .a import f\n    return f\n")
    (pkg / "d.py").write_text("import pkg.a\n")
    graph = {"pkg." + n: {m for m in (_imported_modules(pkg / (n + ".py"), tmp_path))
                          if m in ("pkg.a", "pkg.b", "pkg.c")}
             for n in ("a", "b", "c", "d")}
    assert cycles(graph) == [["pkg.a", "pkg.b", "pkg.c"]]
    del graph["pkg.c"]
    assert cycles(graph) == []


_BUILDERS = {"Pin", "SPI", "I2C", "PWM", "ADC", "UART"}


def _hardware_calls_at_import(path):
    """Calls of Pin/SPI/I2C/PWM... that run when the module is imported (outside every
    function), as (line, name)."""
    found = []

    def walk(node, in_function):
        for child in ast.iter_child_nodes(node):
            inner = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                      ast.Lambda))
            if isinstance(child, ast.Call) and not in_function:
                f = child.func
                name = f.id if isinstance(f, ast.Name) else getattr(f, "attr", None)
                if name in _BUILDERS:
                    found.append((child.lineno, name))
            walk(child, inner)

    walk(ast.parse(path.read_text(encoding="utf-8")), False)
    return found


BOARD_FILES = sorted((mpy.FIRMWARE / "boards").glob("*.py"))
# Not boards: the package, the board contract and the LED chain's power policy.
BOARD_HELPERS = ("__init__.py", "board.py", "ledpower.py")


@pytest.mark.parametrize("path", BOARD_FILES, ids=_rel)
def test_boards_build_pins_only_when_asked(path):
    assert not _hardware_calls_at_import(path), _rel(path)
    if path.name not in BOARD_HELPERS:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
        assert "build" in names, "%s has no build()" % _rel(path)


def test_pins_at_import_are_caught(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import machine\nLED = machine.Pin(25)\n\ndef build():\n"
                   "    return machine.SPI(0)\n")
    assert _hardware_calls_at_import(bad) == [(2, "Pin")]


def test_ruff():
    rc, text = mpy.run_tool([mpy.tool(mpy.RUFF), "check", "--no-cache",
                             "firmware", "host_tools", "tests"])
    assert rc == 0, text


# The host side's packages (host_tools/*/__init__.py says what each holds and what it may
# import): for each, the others it may import, lazy (function-level) imports counted.
# "top" is the modules at the top of host_tools/ (the package, paths, messages, progress,
# png), which every package may use; "cli" the entry point, whose COMMANDS table names
# the command modules (imported by name). The desk's product (commands, results, device,
# live) never reaches for the developer's bench (measure, gen, sim); mp's scripts run on
# MicroPython, from their folder, and import nothing of the host tools.
HOST_ALLOWED = {
    "top": (),
    "cli": ("commands",),
    "commands": ("results", "device", "live", "pico", "mp", "tournament", "mqtt"),
    "results": ("mp",),
    "device": ("mp", "mqtt"),
    "live": ("device", "results", "mp", "tournament", "mqtt"),
    "pico": ("device", "mp"),
    "measure": ("commands", "results", "device", "live", "pico", "mp", "tournament",
                "mqtt"),
    "gen": (),
    "sim": (),
    "mp": (),
    "compat": (),
    "tournament": ("results",),
    # The boxes on the club's Wi-Fi (issue 40): the broker's folder and the desk's
    # connection to it, beneath the box on the desk's side (device/netbox.py) and the
    # desk's consumer (live/consumer.py), which use them.
    "mqtt": ("mp",),
}
TOP_MODULES = ("host_tools", "host_tools.paths", "host_tools.messages", "host_tools.progress",
               "host_tools.png")


def host_group(module):
    """The host package a module of host_tools belongs to (None: not one of them)."""
    if module in TOP_MODULES:
        return "top"
    if module in ("host_tools.cli", "host_tools.__main__"):
        return "cli"
    parts = module.split(".")
    if parts[0] != "host_tools" or len(parts) < 2:
        return None
    return parts[1] if len(parts) > 2 or (HOST_TOOLS / parts[1]).is_dir() else None


def host_package_graph(graph=None):
    """{host package: {the packages it imports: [(module, imported), ...]}}, from the
    modules' imports wherever they stand, and cli's COMMANDS table."""
    from host_tools import cli

    graph = import_graph() if graph is None else graph
    edges = {"host_tools.cli": set(cli.COMMANDS.values())}
    found = {}
    for module, imported in graph.items():
        group = host_group(module)
        if group is None:
            continue
        for other in sorted(imported | edges.get(module, set())):
            target = host_group(other)
            if target is not None and target != group:
                found.setdefault(group, {}).setdefault(target, []).append((module, other))
    return found


def test_every_host_package_has_an_allow_list():
    folders = sorted(p.name for p in HOST_TOOLS.iterdir()
                     if p.is_dir() and any(p.glob("*.py")))
    assert sorted(set(folders) | {"top", "cli"}) == sorted(HOST_ALLOWED), folders


@pytest.mark.parametrize("group", sorted(HOST_ALLOWED))
def test_host_layer_rule(group):
    uses = host_package_graph().get(group, {})
    bad = sorted("%s imports %s" % pair for target, pairs in uses.items()
                 if target not in ("top",) + HOST_ALLOWED[group] for pair in pairs)
    assert not bad, "; ".join(bad)


def test_no_import_cycle_between_host_packages():
    uses = host_package_graph()
    found = cycles({group: set(targets) for group, targets in uses.items()})
    assert not found, "package cycles: " + "; ".join(" <-> ".join(c) for c in found)
    assert "commands" in uses["cli"] and "results" in uses["commands"]  # edges are found


def test_the_host_layer_rule_sees_a_lazy_import_across_packages():
    # measure <-> pico, as it was: a Pico bench importing the app's bench in a function.
    graph = {"host_tools.pico.bench": {"host_tools.measure.app_bench"},
             "host_tools.measure.bench": {"host_tools.pico.bench"},
             "host_tools.mp.journal_bench": set()}
    uses = host_package_graph(graph)
    assert "measure" not in HOST_ALLOWED["pico"] and "measure" in uses["pico"]
    assert cycles({g: set(t) for g, t in uses.items()}) == [["measure", "pico"]]


def test_every_host_package_says_what_it_holds():
    for init in sorted(HOST_TOOLS.glob("*/__init__.py")):
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
        assert doc and len(doc) > 40, init.parent.name
    loose = sorted(p.name for p in HOST_TOOLS.glob("*.py"))
    assert loose == ["__init__.py", "__main__.py", "cli.py", "messages.py", "paths.py",
                     "png.py", "progress.py"], loose
    assert sorted(TOP_MODULES) == sorted("host_tools" if n == "__init__.py" else
                                         "host_tools." + n[:-3] for n in loose
                                         if n not in ("cli.py", "__main__.py"))


def _test_imports(source):
    """The test modules (`test_*`) that a test file's source imports."""
    names = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
        elif isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
    return [n for n in names if n.split(".")[-1].startswith("test_") or n.startswith("tests.")]


def test_no_test_file_imports_another():
    """What two test files share lives in tests/support/: a test file imported by another
    runs its module-level code twice and ties the two files' fixtures together."""
    tests = mpy.REPO / "tests"
    found = {p.name: _test_imports(p.read_text(encoding="utf-8"))
             for p in sorted(tests.glob("*/test_*.py"))}
    assert {name: got for name, got in found.items() if got} == {}


def test_a_test_file_importing_another_is_caught():
    assert _test_imports("from test_live import KEYS_1\nimport os\n") == ["test_live"]
    assert _test_imports("from support.waits import wait_for\n") == []
