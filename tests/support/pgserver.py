"""A throw-away PostgreSQL server on loopback for the results-database tests.

`make deps` installs Debian's `postgresql`; this starts its binaries by hand: `initdb`
into a temporary folder (password authentication, scram-sha-256), `pg_ctl start` on a
free port of 127.0.0.1 with the socket in that folder. PostgreSQL refuses to run as
root, and CI runs as root: then the server runs as the `postgres` system user (created by
the Debian package) through `runuser`. Nothing here skips: a missing server is a failure
that says to run `make deps`.
"""

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

USER = "scoreboard"
PASSWORD = "s3cret-Pw-7781"
DATABASE = "results"


def bindir():
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda p: int(p.split("/")[4]) if p.split("/")[4].isdigit() else 0)
    assert found, "PostgreSQL is missing: run `make deps` (Debian package postgresql)"
    return Path(found[-1]).parent


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """initdb + pg_ctl start; `url(...)` builds connection URLs; `stop()` removes it all."""

    def __init__(self):
        self.bin = bindir()
        self.root = Path(tempfile.mkdtemp(prefix="sb-pg-"))
        self.data = self.root / "data"
        self.port = free_port()
        self.as_user = None
        if os.geteuid() == 0:
            self.as_user = "postgres"
            shutil.chown(self.root, "postgres")
        os.chmod(self.root, 0o755)
        pwfile = self.root / "pw"
        pwfile.write_text(PASSWORD + "\n")
        if self.as_user:
            shutil.chown(pwfile, self.as_user)
        self._run("initdb", "-D", self.data, "-U", USER, "-A", "scram-sha-256",
                  "--pwfile", pwfile, "-E", "UTF8", "--no-instructions")
        pwfile.unlink()
        self.start()
        self.psql("CREATE DATABASE %s" % DATABASE, db="postgres")

    def start(self):
        """Start the server (again, after pause())."""
        opts = "-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=off" % (self.port, self.root)
        self._run("pg_ctl", "-D", self.data, "-o", opts, "-l", self.root / "log", "-w",
                  "start")

    def pause(self):
        """Stop the server, its data kept (a restart, the club's wifi to it down)."""
        self._run("pg_ctl", "-D", self.data, "-m", "fast", "-w", "stop")

    def _run(self, tool, *args):
        cmd = [str(self.bin / tool), *map(str, args)]
        if self.as_user:
            cmd = ["runuser", "-u", self.as_user, "--", *cmd]
        proc = subprocess.run(cmd, capture_output=True, cwd=str(self.root), check=False,
                              timeout=60)
        assert proc.returncode == 0, "%s failed: %s" % (tool, proc.stderr.decode()[-2000:])
        return proc.stdout.decode()

    def url(self, password=True, db=DATABASE, user=USER):
        auth = "%s:%s" % (user, PASSWORD) if password else user
        return "postgresql://%s@127.0.0.1:%d/%s" % (auth, self.port, db)

    def psql(self, sql, db=DATABASE):
        import psycopg
        with psycopg.connect(self.url(db=db), autocommit=True) as conn:
            cur = conn.execute(sql)
            return cur.fetchall() if cur.description else None

    def reset(self):
        """Drop every table: a fresh, empty results database."""
        tables = self.psql("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
        if tables:  # every table the migrations made (issue 27 added the tournaments')
            self.psql("DROP TABLE %s CASCADE" % ", ".join(t for (t,) in tables))

    def stop(self):
        try:
            self._run("pg_ctl", "-D", self.data, "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)
