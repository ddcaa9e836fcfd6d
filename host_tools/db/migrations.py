"""The results database's schema, as numbered migrations run in order, once each.

The same SQL runs on SQLite and PostgreSQL (TEXT and INTEGER columns, standard
constraints), so a club can pull every table into one server. A database records the
versions it has in `schema_version`; `migrate()` (host_tools/db) applies the missing ones,
each in its own transaction. Never edit a released migration: add the next one.
"""

SCHEMA_VERSION_TABLE = (
    "CREATE TABLE IF NOT EXISTS schema_version ("
    " version INTEGER PRIMARY KEY,"
    " description TEXT NOT NULL,"
    " applied_at TEXT NOT NULL)"
)

MIGRATIONS = (
    (1, "matches: one row per match, keyed by the id the box wrote", (
        ("CREATE TABLE matches ("
         " id TEXT PRIMARY KEY,"
         " date TEXT,"
         " game TEXT NOT NULL,"
         " format TEXT NOT NULL,"
         " side_a TEXT NOT NULL,"
         " side_b TEXT NOT NULL,"
         " status TEXT NOT NULL,"
         " winner TEXT,"
         " frames_a INTEGER NOT NULL,"
         " frames_b INTEGER NOT NULL,"
         " report TEXT NOT NULL,"
         " sbn TEXT NOT NULL,"
         " sha256 TEXT NOT NULL,"
         " pulled_at TEXT NOT NULL)"),
    )),
    (2, "frames: one row per frame or rack, with its score and breaks", (
        ("CREATE TABLE frames ("
         " match_id TEXT NOT NULL REFERENCES matches (id) ON DELETE CASCADE,"
         " seq INTEGER NOT NULL,"
         " number INTEGER NOT NULL,"
         " breaker TEXT,"
         " score_a INTEGER,"
         " score_b INTEGER,"
         " winner TEXT,"
         " how TEXT,"
         " breaks_a TEXT NOT NULL,"
         " breaks_b TEXT NOT NULL,"
         " PRIMARY KEY (match_id, seq))"),
    )),
    (3, "where a match came from (the port), and matches by date", (
        "ALTER TABLE matches ADD COLUMN source TEXT",
        "CREATE INDEX matches_by_date ON matches (date)",
    )),
)

LATEST = MIGRATIONS[-1][0]
