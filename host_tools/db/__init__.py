"""The results database: SQLite by default (a file in the user's data directory), or a
PostgreSQL server (`postgresql://user@host/db`) with the very same schema and SQL.

Queries are written once with `?` parameters (never text pasted into SQL); the
PostgreSQL driver gets them as `%s`. Transactions are explicit (`BEGIN`/`COMMIT`), the
same statements on both. Passwords come from the URL, `PGPASSWORD` or `~/.pgpass` (libpq
reads the last two itself) and are never printed: every message goes through `mask()`.
"""

import os
import sqlite3
from datetime import datetime, timezone
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from host_tools.db.migrations import LATEST, MIGRATIONS, SCHEMA_VERSION_TABLE

_MATCH_COLUMNS = ("id", "date", "game", "format", "side_a", "side_b", "status", "winner",
                  "frames_a", "frames_b", "report", "sbn", "sha256", "pulled_at", "source")
_FRAME_COLUMNS = ("seq", "number", "breaker", "score_a", "score_b", "winner", "how",
                  "breaks_a", "breaks_b")
FINAL = ("finished", "abandoned")


class DbError(Exception):
    """A one-line reason, with any password masked."""


def default_path():
    import platformdirs
    return Path(platformdirs.user_data_dir("scoreboard")) / "results.sqlite"


def mask(text, url=None):
    """`text` with the password of `url` (and PGPASSWORD's) replaced by ***."""
    text = str(text)
    secrets = []
    if url:
        try:
            pw = urlsplit(url).password
        except ValueError:
            pw = None
        if pw:
            secrets.append(pw)
    if os.environ.get("PGPASSWORD"):
        secrets.append(os.environ["PGPASSWORD"])
    for s in sorted(secrets, key=len, reverse=True):
        text = text.replace(s, "***")
    return text


def masked_url(url):
    """The URL to show: any password is ***."""
    try:
        parts = urlsplit(url)
        if parts.password:
            host = parts.netloc.rsplit("@", 1)[1]
            user = parts.username or ""
            return urlunsplit(parts._replace(netloc="%s:***@%s" % (user, host)))
    except ValueError:
        return "(an unreadable URL)"
    return mask(url, url)


def open_db(url=None, create=True):
    """A migrated Database for `url` (None: the default SQLite file). `create=False`:
    a SQLite file that does not exist yet is an error, not a new empty database."""
    db = connect(url, create)
    try:
        db.migrate()
    except DbError:
        db.close()
        raise
    return db


def connect(url=None, create=True):
    if url is None:
        path = default_path()
        if create:
            path.parent.mkdir(parents=True, exist_ok=True)
        return _sqlite(str(path), str(path), create)
    scheme = url.split("://", 1)[0].lower() if "://" in url else ""
    if scheme in ("postgresql", "postgres"):
        return _postgres(url)
    if scheme == "sqlite":
        path = url.split("://", 1)[1]
        if path.startswith("/") and len(path) > 1 and path[1] != "/":
            path = path[1:]  # sqlite://rel.db -> rel.db ; sqlite:///abs -> /abs
        if not path:
            raise DbError("bad database URL %s: sqlite:///PATH names a file" % masked_url(url))
        return _sqlite(path, url, create)
    if scheme or url.startswith("sqlite:"):
        if url.startswith("sqlite:"):
            return _sqlite(url[len("sqlite:"):], url, create)
        raise DbError("unknown database URL %s: use a file path, sqlite:///FILE or "
                      "postgresql://USER@HOST/DB" % masked_url(url))
    return _sqlite(url, url, create)


def _sqlite(path, label, create=True):
    if not create and not Path(path).is_file():
        raise DbError("no results database at %s (`scoreboard sync` makes it)" % label)
    parent = Path(path).resolve().parent
    if not parent.is_dir():
        raise DbError("cannot open the database %s: folder %s does not exist" % (label, parent))
    try:
        conn = sqlite3.connect(path, isolation_level=None, timeout=10)
        conn.execute("PRAGMA foreign_keys = ON")
    except sqlite3.Error as e:
        raise DbError("cannot open the database %s: %s" % (label, e)) from None
    return Database(conn, "sqlite", label, sqlite3.Error)


def _postgres(url):
    try:
        import psycopg
    except ImportError:
        raise DbError("PostgreSQL needs psycopg: run `make deps`") from None
    try:
        conn = psycopg.connect(url, autocommit=True, connect_timeout=5)
    except (psycopg.Error, ValueError) as e:
        first = (str(e).strip().splitlines() or ["error"])[0]
        raise DbError("cannot connect to %s: %s" % (masked_url(url), mask(first, url))) from None
    return Database(conn, "postgresql", masked_url(url), psycopg.Error, url)


class Database:
    """One connection; every query is parameterised, in the same SQL on both engines."""

    def __init__(self, conn, dialect, label, errors, url=None):
        self.conn = conn
        self.dialect = dialect
        self.label = label
        self.errors = errors
        self.url = url

    def _sql(self, q):
        return q.replace("?", "%s") if self.dialect == "postgresql" else q

    def execute(self, q, params=()):
        try:
            cur = self.conn.cursor()
            cur.execute(self._sql(q), tuple(params))
            return cur
        except self.errors as e:
            raise DbError("database %s: %s" % (self.label, mask(
                (str(e).strip().splitlines() or ["error"])[0], self.url))) from None

    def rows(self, q, params=()):
        return self.execute(q, params).fetchall()

    def begin(self):
        self.execute("BEGIN")

    def commit(self):
        self.execute("COMMIT")

    def rollback(self):
        try:
            self.execute("ROLLBACK")
        except DbError:
            pass

    def version(self):
        self.execute(SCHEMA_VERSION_TABLE)
        row = self.rows("SELECT MAX(version) FROM schema_version")[0]
        return row[0] or 0

    def migrate(self, upto=LATEST):
        """Apply the missing migrations up to `upto`, each in its own transaction. When
        another host migrates the same server at the same moment, its work is taken."""
        try:
            have = self.version()
        except DbError:
            have = self.version()  # the other host's CREATE TABLE won the race
        if have > LATEST:
            raise DbError("database %s has schema version %d; this tool knows up to %d: "
                          "update the host tools" % (self.label, have, LATEST))
        for version, description, statements in MIGRATIONS:
            if version <= have or version > upto:
                continue
            self.begin()
            try:
                for s in statements:
                    self.execute(s)
                self.execute("INSERT INTO schema_version (version, description, applied_at) "
                             "VALUES (?, ?, ?)", (version, description, _now()))
                self.commit()
            except DbError:
                self.rollback()
                if self.version() >= version:
                    continue  # applied by the other host meanwhile
                raise

    def store(self, rec, frames):
        """Store one match (and its frames) in one transaction.

        Returns "new", "replaced" (an unfinished copy overwritten) or "same" (nothing to
        do: the same bytes are there already, or the final version is and this is a copy).
        """
        self.begin()
        try:
            old = self.rows("SELECT sha256, status FROM matches WHERE id = ?", (rec["id"],))
            if old and (old[0][0] == rec["sha256"] or (
                    old[0][1] in FINAL and rec["status"] not in FINAL)):
                self.rollback()
                return "same"
            values = [rec.get(c) for c in _MATCH_COLUMNS]
            if old:
                self.execute("DELETE FROM frames WHERE match_id = ?", (rec["id"],))
                self.execute("UPDATE matches SET %s WHERE id = ?" % ", ".join(
                    "%s = ?" % c for c in _MATCH_COLUMNS[1:]), values[1:] + [rec["id"]])
            else:
                self.execute("INSERT INTO matches (%s) VALUES (%s)" % (
                    ", ".join(_MATCH_COLUMNS), ", ".join("?" * len(_MATCH_COLUMNS))), values)
            for f in frames:
                self.execute("INSERT INTO frames (match_id, %s) VALUES (?, %s)" % (
                    ", ".join(_FRAME_COLUMNS), ", ".join("?" * len(_FRAME_COLUMNS))),
                    [rec["id"]] + [f[c] for c in _FRAME_COLUMNS])
            self.commit()
        except DbError:
            self.rollback()
            raise
        return "replaced" if old else "new"

    def match(self, match_id):
        """The match row as a dict, or None."""
        cur = self.execute("SELECT %s FROM matches WHERE id = ?" % ", ".join(_MATCH_COLUMNS),
                           (match_id,))
        row = cur.fetchone()
        return None if row is None else dict(zip(_MATCH_COLUMNS, row))

    def matches(self):
        cur = self.execute("SELECT %s FROM matches ORDER BY date, id" % ", ".join(
            _MATCH_COLUMNS))
        return [dict(zip(_MATCH_COLUMNS, row)) for row in cur.fetchall()]

    def frames(self, match_id):
        cur = self.execute("SELECT %s FROM frames WHERE match_id = ? ORDER BY seq" % ", ".join(
            _FRAME_COLUMNS), (match_id,))
        return [dict(zip(_FRAME_COLUMNS, row)) for row in cur.fetchall()]

    def counts(self):
        """(rows in matches, rows in frames)."""
        return (self.rows("SELECT COUNT(*) FROM matches")[0][0],
                self.rows("SELECT COUNT(*) FROM frames")[0][0])

    def close(self):
        try:
            self.conn.close()
        except Exception:
            pass


def _now():
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
