"""The results database's connection and its matches: SQLite by default (a file in the
user's data directory), or a PostgreSQL server (`postgresql://user@host/db`) with the very
same schema and SQL (the schema is migrations.py's; the URL and its masking url.py's).

Queries are written once with `?` parameters (never text pasted into SQL); the
PostgreSQL driver gets them as `%s`. Transactions are explicit (`BEGIN`/`COMMIT`), the
same statements on both.

A match is keyed by (box, id) (`store`): the box's own id from the journal's header, or
'' for a match whose header names none (older firmware) and for rows stored before
schema 4. A journal that grew (`undo` after the end, a continuation) is the match's
next version: the earlier final one is kept in `match_versions`; a different journal
under a (box, id) already stored is refused (`Conflict`), never written over.

The header's `box` word is the box's own say-so, so a stored match is also bound to the
device that first delivered it (`device`: sync gives the USB serial number, else the
box id): another device's journal under it is refused (`Conflict`). A final result that
changed (a journal going on from it) is a correction the desk confirms: refused
(`Correction`, naming the result before and after) unless the store is told to accept it.

A match whose id is a tournament match's (`tournament_matches.box_match`, migration 6)
goes into its bracket in the same transaction as its row, through the `bracket` the
database was opened with (`open_db(url, bracket=...)`: the commands that store matches
pass host_tools/tournament/boxresults, the library knows no tournament):
`bracket.take(db, rec, outcome, (tournament, match))` inside `store`'s transaction, and
a Conflict it raises rolls the match row back too. Opened without one, the database
refuses such a match, never stores it beside a bracket that misses it. A tournament
match's journal that the bracket does not take (another box's than the one it was
assigned to, a correction it cannot take) is held for the desk, in a transaction of its
own (`bracket.hold(db, rec, frames, device, found, why)`: "held", or "same" once the desk
has decided on these bytes), and `bracket.held_text(db, match id, rec)` is its line for
`sync`. `origin` (an Origin: the box that delivered the journal and the table it claims)
is what the bracket judges by.
"""

import contextlib
import os
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from host_tools.results.db.migrations import LATEST, MIGRATIONS, SCHEMA_VERSION_TABLE
from host_tools.results.db.url import WITHHELD, DbError, ambiguous, mask, masked_url

_MATCH_COLUMNS = ("box", "id", "version", "date", "game", "format", "side_a", "side_b",
                  "status", "winner", "frames_a", "frames_b", "report", "sbn", "sha256",
                  "pulled_at", "source", "device")
_FRAME_COLUMNS = ("seq", "number", "breaker", "score_a", "score_b", "winner", "how",
                  "breaks_a", "breaks_b")
FINAL = ("finished", "abandoned")


@dataclass(frozen=True)
class Origin:
    """Who delivered a journal: the box that answered (its own id, `hello`) and the
    table its settings claim (None: none, or firmware without)."""

    box: str
    table: int | None = None


class Conflict(Exception):
    """A different match under a (box, id) already stored: why, in one line."""


class Held(Conflict):
    """A tournament match's journal that is not the assigned box's: why, in one line."""


class Correction(Conflict):
    """A final result changed on the box, not accepted: `before` and `after` name the
    two results (`Ann 2-1 Bob -> Ann 1-2 Bob`)."""

    def __init__(self, before, after):
        super().__init__("corrected on the box: %s -> %s" % (before, after))
        self.before, self.after = before, after


def result_text(side_a, side_b, frames_a, frames_b, status):
    """`Ann 2-1 Bob`, with `, in play` or `, abandoned` when it is no finished result."""
    text = "%s %d-%d %s" % (side_a, frames_a, frames_b, side_b)
    if status == "unfinished":
        return text + ", in play"
    return text + ", abandoned" if status == "abandoned" else text


def default_path():
    """results.sqlite in the user's data folder (paths.data_dir: by the platform's rules)."""
    from host_tools.paths import data_dir

    return data_dir() / "results.sqlite"


def _first_line(e):
    return (str(e).strip().splitlines() or ["error"])[0]


def open_db(url=None, create=True, bracket=None):
    """A migrated Database for `url` (None: the default SQLite file). `create=False`:
    a SQLite file that does not exist yet is an error, not a new empty database.
    `bracket`: what puts a tournament match's journal into its bracket (see above)."""
    db = connect(url, create)
    db.bracket = bracket
    try:
        db.migrate()
    except BaseException:
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
    label = masked_url(label)
    if not path.strip() or path == ":memory:":
        # SQLite's own names for a database that is gone when the command ends: a sync
        # into one would mark the box's matches pulled with nothing kept.
        raise DbError("bad database URL %s: it names no file (sqlite:///PATH, or a file "
                      "path)" % label)
    if not create and not Path(path).is_file():
        raise DbError("no results database at %s (`scoreboard sync` makes it)" % label)
    parent = Path(path).resolve().parent
    if not parent.is_dir():
        raise DbError("cannot open the database %s: folder %s does not exist" % (label, parent))
    made = None if Path(path).exists() else Path(path)
    try:
        conn = sqlite3.connect(path, isolation_level=None, timeout=10)
        conn.execute("PRAGMA foreign_keys = ON")
    except sqlite3.Error as e:
        raise DbError("cannot open the database %s: %s" % (label, _first_line(e))) from None
    return Database(conn, "sqlite", label, sqlite3.Error, made=made, path=path)


def _postgres(url):
    try:
        import psycopg
    except ImportError:
        raise DbError("PostgreSQL needs psycopg: run `make deps`") from None
    try:
        conn = psycopg.connect(url, autocommit=True, connect_timeout=5)
    except (psycopg.Error, ValueError) as e:
        detail = WITHHELD if ambiguous(url) else mask(_first_line(e), url)
        raise DbError("cannot connect to %s: %s" % (masked_url(url), detail)) from None
    return Database(conn, "postgresql", masked_url(url), psycopg.Error, url)


def extends(old, new):
    """True when journal text `new` goes on from `old`: old's lines, comments aside (a
    continuation's `# continued from` line), are the first lines of new's."""
    def events(text):
        return [ln for ln in text.split("\n") if ln and not ln.startswith("#")]
    a, b = events(old), events(new)
    return b[:len(a)] == a


class Database:
    """One connection; every query is parameterised, in the same SQL on both engines."""

    def __init__(self, conn, dialect, label, errors, url=None, made=None, path=None):
        self.conn = conn
        self.dialect = dialect
        self.label = label
        self.errors = errors
        self.url = url
        self.made = made  # the SQLite file this connection created, if it did
        self.path = path  # the SQLite file
        self.bracket = None  # open_db's: tournament matches into their bracket

    def where(self):
        """The database to name to the user: the SQLite file's full path, else the URL
        with its password masked."""
        return str(Path(self.path).resolve()) if self.path is not None else self.label

    def _sql(self, q):
        return q.replace("?", "%s") if self.dialect == "postgresql" else q

    def execute(self, q, params=()):
        try:
            cur = self.conn.cursor()
            cur.execute(self._sql(q), tuple(params))
            return cur
        except self.errors as e:
            raise DbError("database %s: %s" % (self.label, mask(_first_line(e), self.url))
                          ) from None

    def rows(self, q, params=()):
        return self.execute(q, params).fetchall()

    def begin(self):
        # SQLite: the write lock at once (IMMEDIATE). A deferred BEGIN reads first and
        # takes it at the first write, and two such transactions at once (a box's pull
        # storing a match while the desk marks another table's match in play) deadlock:
        # SQLite answers the second `database is locked` at once instead of waiting its
        # busy timeout for the first to commit.
        self.execute("BEGIN IMMEDIATE" if self.dialect == "sqlite" else "BEGIN")

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
        another host migrates the same server at the same moment, its work is taken.
        Interrupted (Ctrl-C), the migration under way is rolled back whole."""
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
            except BaseException:
                self.rollback()
                raise

    def store(self, rec, frames, device=None, accept=False, origin=None):
        """Store one match (and its frames) in one transaction, keyed by (box, id).

        Returns "new", "replaced" (the copy of a match in play brought up to date),
        "corrected" (a final version kept in match_versions, this one the next) or
        "same" (nothing to do: these bytes, or a journal this one is the start of, are
        stored already). Raises Conflict for a different journal under a (box, id) that
        is stored, and for any journal under one stored from another `device` (None:
        the box is the device): that match is never written over. A changed final
        result raises Correction unless `accept`. A row with no box ('': older
        firmware, or from before schema 4) is this box's when this journal goes on
        from it; a row with no device (from before schema 5) is bound by the next
        device that writes it.

        `origin`: who delivered it (an Origin: the box that answered and the table it
        claims), which the bracket judges by. A tournament match's journal that would be
        refused is held for the desk instead (bracket.hold): "held" (or "same", once the
        desk has decided on these bytes).
        """
        try:
            return self._store(rec, frames, device, accept, origin)
        except Conflict as e:
            found = self._tournament_match(rec["id"]) if self.bracket else None
            if found is None:
                raise
            return self.bracket.hold(self, dict(rec, origin=origin), frames,
                                     rec["box"] if device is None else device, found, str(e))

    def _store(self, rec, frames, device, accept, origin):
        box, mid = rec["box"], rec["id"]
        device = box if device is None else device
        self.begin()
        try:
            rows = self.rows("SELECT box, sha256, status, sbn, version, device, side_a, "
                             "side_b, frames_a, frames_b FROM matches WHERE id = ?", (mid,))
            old = self._earlier(rows, rec, device)
            seen = any(r[1] == rec["sha256"] for r in rows) or self.rows(
                "SELECT COUNT(*) FROM match_versions WHERE id = ? AND sha256 = ?",
                (mid, rec["sha256"]))[0][0]
            if seen or (old and extends(rec["sbn"], old[3])):
                self.rollback()
                return "same"
            outcome, version = ("new", 1) if old is None else self._replace(old, rec, accept)
            self._insert(dict(rec, version=version, device=device), frames)
            self._tournament(dict(rec, origin=origin), outcome)
            self.commit()
        except BaseException:
            self.rollback()
            raise
        return outcome

    def _tournament_match(self, mid):
        """(tournament, match) whose box header carries the id `mid`, or None."""
        rows = self.rows("SELECT tournament, id FROM tournament_matches WHERE box_match = ?",
                         (mid,))
        return tuple(rows[0]) if rows else None

    def replace_current(self, rec, frames, device):
        """In the caller's transaction: `rec` becomes the one current row of its id (the
        desk took it: store.decide), every other box's current row of that id kept in
        match_versions first. The version `rec` got."""
        mid = rec["id"]
        version = 0
        for box, v in self.rows("SELECT box, version FROM matches WHERE id = ?", (mid,)):
            self._keep(box, mid)
            version = max(version, v)
            self.execute("DELETE FROM frames WHERE box = ? AND match_id = ?", (box, mid))
            self.execute("DELETE FROM matches WHERE box = ? AND id = ?", (box, mid))
        for (v,) in self.rows("SELECT version FROM match_versions WHERE box = ? AND id = ?",
                              (rec["box"], mid)):
            version = max(version, v)
        self._insert(dict(rec, version=version + 1, device=device), frames)
        return version + 1

    def _tournament(self, rec, outcome):
        """The bracket's take, for a match whose id is a tournament match's."""
        rows = self.rows("SELECT tournament, id FROM tournament_matches WHERE box_match = ?",
                         (rec["id"],))
        if not rows:
            return
        if self.bracket is None:
            raise Conflict("%s is match %s of tournament %s, and this database was opened "
                           "without its bracket: its result would miss it" % (
                               rec["id"], rows[0][1], rows[0][0]))
        self.bracket.take(self, rec, outcome, tuple(rows[0]))

    @staticmethod
    def _earlier(rows, rec, device):
        """The stored row this journal is (box, id) of, or goes on from (a row of older
        firmware's with no box); None. Conflict if another device stored it."""
        box = rec["box"]
        old = [r for r in rows if r[0] == box] or [
            r for r in rows if box and r[0] == "" and extends(r[3], rec["sbn"])]
        if not old:
            return None
        if old[0][5] is not None and old[0][5] != device:
            raise Conflict("claims id %s, stored from box %s (device %s), not from this "
                           "device (%s)" % (rec["id"], old[0][0] or "''", old[0][5] or "''",
                                            device or "''"))
        return old[0]

    def _replace(self, old, rec, accept):
        """Take the stored row `old` out for `rec` (the final one into the history):
        ("replaced" or "corrected", the version `rec` gets)."""
        box, mid = rec["box"], rec["id"]
        was_box, _, status, sbn, version = old[:5]
        if not extends(sbn, rec["sbn"]):
            raise Conflict("a different match %s is stored already (not a continuation "
                           "of its journal)" % mid)
        outcome = "replaced"
        if status in FINAL and not accept:
            raise Correction(result_text(*old[6:], status), result_text(
                rec["side_a"], rec["side_b"], rec["frames_a"], rec["frames_b"],
                rec["status"]))
        if status in FINAL:
            self._keep(was_box, mid)
            version += 1
            outcome = "corrected"
        self.execute("DELETE FROM frames WHERE box = ? AND match_id = ?", (was_box, mid))
        self.execute("DELETE FROM matches WHERE box = ? AND id = ?", (was_box, mid))
        if was_box != box:
            self.execute("UPDATE match_versions SET box = ? WHERE box = ? AND id = ?",
                         (box, was_box, mid))
        return outcome, version

    def _insert(self, values, frames):
        """The match's row and its frames' rows."""
        self.execute("INSERT INTO matches (%s) VALUES (%s)" % (
            ", ".join(_MATCH_COLUMNS), ", ".join("?" * len(_MATCH_COLUMNS))),
            [values.get(c) for c in _MATCH_COLUMNS])
        for f in frames:
            self.execute("INSERT INTO frames (box, match_id, %s) VALUES (?, ?, %s)" % (
                ", ".join(_FRAME_COLUMNS), ", ".join("?" * len(_FRAME_COLUMNS))),
                [values["box"], values["id"]] + [f[c] for c in _FRAME_COLUMNS])

    def _keep(self, box, mid):
        """Copy the current version of (box, mid) into match_versions."""
        cols = ", ".join(_MATCH_COLUMNS)
        self.execute("INSERT INTO match_versions (%s, replaced_at) SELECT %s, ? FROM matches "
                     "WHERE box = ? AND id = ?" % (cols, cols), (_now(), box, mid))

    def match(self, match_id, box=None):
        """The current version of a match as a dict, or None. DbError when `box` is not
        given and the id was stored from several boxes."""
        q = "SELECT %s FROM matches WHERE id = ?" % ", ".join(_MATCH_COLUMNS)
        params = [match_id]
        if box is not None:
            q += " AND box = ?"
            params.append(box)
        found = [dict(zip(_MATCH_COLUMNS, r)) for r in self.rows(q + " ORDER BY box", params)]
        if len(found) > 1:
            raise DbError("match %s was stored from %d boxes (%s): give --box BOX" % (
                match_id, len(found), ", ".join(m["box"] or "''" for m in found)))
        return found[0] if found else None

    def matches(self):
        """Every match's current version, oldest first."""
        cur = self.execute("SELECT %s FROM matches ORDER BY date, id, box" % ", ".join(
            _MATCH_COLUMNS))
        return [dict(zip(_MATCH_COLUMNS, row)) for row in cur.fetchall()]

    def frames(self, match_id, box=""):
        cur = self.execute("SELECT %s FROM frames WHERE match_id = ? AND box = ? ORDER BY seq"
                           % ", ".join(_FRAME_COLUMNS), (match_id, box))
        return [dict(zip(_FRAME_COLUMNS, row)) for row in cur.fetchall()]

    def counts(self):
        """(rows in matches, rows in frames)."""
        return (self.rows("SELECT COUNT(*) FROM matches")[0][0],
                self.rows("SELECT COUNT(*) FROM frames")[0][0])

    def close(self, keep_new=True):
        """`keep_new=False`: a SQLite file this connection created goes too (a sync that
        never reached a box leaves no empty database behind)."""
        try:
            self.conn.close()
        except Exception:
            pass
        if not keep_new and self.made is not None:
            for suffix in ("", "-journal", "-wal", "-shm"):
                with contextlib.suppress(OSError):
                    os.remove(str(self.made) + suffix)


def _now():
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
