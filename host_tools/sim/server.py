"""The simulator's web server: the page, the firmware files and the WebAssembly port.

`python -m host_tools.sim [--port N] [--host 127.0.0.1]` prints `http://HOST:PORT/` and
serves until stopped (Ctrl-C). Everything comes from this repository, nothing from the
network, so the page works offline:

    /                        the page (host_tools/sim/index.html)
    /sim/NAME                the page's scripts, styles, the demonstration match
    /mp/micropython.mjs      the WebAssembly port from node_modules/ (pinned in
    /mp/micropython.wasm     package.json: @micropython/micropython-webassembly-pyscript)
    /firmware.json           every file under firmware/, read at each request (so a
                             reload picks up an edited screen): {"files": [[path,
                             text or null, base64 or null], ...], "digest": sha256}

Port 0 picks a free port; the default port, when taken, falls back to a free one.
Responses are gzip-compressed when the browser asks for it, and never cached (a
developer's edits must show at the next reload).
"""

import argparse
import base64
import gzip
import hashlib
import http.server
import json
import os
import socketserver
import sys
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
FIRMWARE = os.path.join(ROOT, "firmware")
PORT_PACKAGE = os.path.join(ROOT, "node_modules", "@micropython",
                            "micropython-webassembly-pyscript")
DEFAULT_PORT = 8000

TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".sbn": "text/plain; charset=utf-8",
    ".png": "image/png",
    ".wasm": "application/wasm",
}
# What the page may load from host_tools/sim/ (no Python sources, no tests).
PAGE_FILES = (".html", ".js", ".css", ".sbn", ".png")
COMPRESSIBLE = (".html", ".js", ".mjs", ".css", ".json", ".sbn", ".wasm")


def firmware_files(root=FIRMWARE):
    """Every file of the firmware tree as (relative path, bytes), sorted; no caches."""
    out = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__" and not d.startswith("."))
        for name in sorted(files):
            if name.startswith(".") or name.endswith((".pyc", ".mpy")):
                continue
            path = os.path.join(folder, name)
            rel = os.path.relpath(path, root).replace(os.sep, "/")
            with open(path, "rb") as f:
                out.append((rel, f.read()))
    return out


def firmware_bundle(root=FIRMWARE):
    """The JSON document the page copies into the WebAssembly filesystem."""
    digest = hashlib.sha256()
    files = []
    for rel, data in firmware_files(root):
        digest.update(rel.encode() + b"\0" + data + b"\0")
        try:
            files.append([rel, data.decode("utf-8"), None])
        except UnicodeDecodeError:
            files.append([rel, None, base64.b64encode(data).decode("ascii")])
    doc = {"files": files, "digest": digest.hexdigest()}
    return json.dumps(doc, separators=(",", ":")).encode("utf-8")


class _Gzip:
    """gzip bodies, kept per (path, size, mtime) for the big static files."""

    def __init__(self):
        self._cache = {}
        self._lock = threading.Lock()

    def get(self, key, data):
        with self._lock:
            hit = self._cache.get(key)
            if hit is None:
                hit = gzip.compress(data, 6, mtime=0)
                self._cache[key] = hit
            return hit


_GZIP = _Gzip()


class Handler(http.server.BaseHTTPRequestHandler):
    server_version = "scoreboard-sim"
    quiet = True
    firmware = FIRMWARE

    def log_message(self, format, *args):
        if not self.quiet:
            sys.stderr.write("sim: %s\n" % (format % args))

    def do_GET(self):
        self._serve(head=False)

    def do_HEAD(self):
        self._serve(head=True)

    def _serve(self, head):
        path = self.path.split("?", 1)[0].split("#", 1)[0]
        if path in ("/", "/index.html"):
            self._file(os.path.join(HERE, "index.html"), head)
        elif path == "/firmware.json":
            self._send(firmware_bundle(self.firmware), ".json", head, key=None)
        elif path.startswith("/sim/"):
            name = path[len("/sim/"):]
            if "/" in name or name.startswith(".") or not name.endswith(PAGE_FILES):
                self._missing()
            else:
                self._file(os.path.join(HERE, name), head)
        elif path in ("/mp/micropython.mjs", "/mp/micropython.wasm"):
            self._file(os.path.join(PORT_PACKAGE, path[len("/mp/"):]), head)
        else:
            self._missing()

    def _file(self, path, head):
        try:
            st = os.stat(path)
            with open(path, "rb") as f:
                data = f.read()
        except OSError:
            self._missing()
            return
        self._send(data, os.path.splitext(path)[1], head, key=(path, st.st_size, st.st_mtime))

    def _send(self, data, ext, head, key):
        self.send_response(200)
        self.send_header("Content-Type", TYPES.get(ext, "application/octet-stream"))
        self.send_header("Cache-Control", "no-store")
        if ext in COMPRESSIBLE and "gzip" in self.headers.get("Accept-Encoding", ""):
            data = _GZIP.get(key, data) if key is not None else gzip.compress(data, 6)
            self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if not head:
            self.wfile.write(data)

    def _missing(self):
        body = b"not found\n"
        self.send_response(404)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def make_server(host="127.0.0.1", port=DEFAULT_PORT, verbose=False, firmware=FIRMWARE):
    """A server bound to host:port (a free port when port is 0 or the default is taken)."""
    Handler.quiet = not verbose
    Handler.firmware = firmware
    try:
        return Server((host, port), Handler)
    except OSError:
        if port != DEFAULT_PORT:
            raise
        return Server((host, 0), Handler)


def check_port_package():
    """The WebAssembly port's files, or a message saying how to get them."""
    missing = [n for n in ("micropython.mjs", "micropython.wasm")
               if not os.path.exists(os.path.join(PORT_PACKAGE, n))]
    if missing:
        return ("sim: the WebAssembly port is missing from node_modules/ (%s): run "
                "`make deps` first" % ", ".join(missing))
    return None


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m host_tools.sim",
                                description="Serve the browser simulator on localhost.")
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default %(default)s)")
    p.add_argument("--port", type=int, default=DEFAULT_PORT,
                   help="port (default %(default)s, a free one when taken; 0: any free)")
    p.add_argument("--firmware", default=FIRMWARE,
                   help="the firmware tree to run (default: this repository's firmware/)")
    p.add_argument("--verbose", action="store_true", help="log every request on stderr")
    args = p.parse_args(argv)
    problem = check_port_package()
    if problem:
        print(problem, file=sys.stderr)
        return 1
    if not os.path.isdir(args.firmware):
        print("sim: no firmware folder %s" % args.firmware, file=sys.stderr)
        return 1
    server = make_server(args.host, args.port, args.verbose, os.path.abspath(args.firmware))
    host, port = server.server_address[:2]
    print("http://%s:%d/" % (host, port), flush=True)
    try:
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0
