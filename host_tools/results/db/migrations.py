"""The results database's schema, as numbered migrations run in order, once each.

The same SQL runs on SQLite and PostgreSQL (TEXT and INTEGER columns, standard
constraints), so a club can pull every table into one server. Since version 4 a match
is keyed by the box that made it and its id (`matches`, `frames`), and the versions a
correction on the box replaced are kept in `match_versions`; since version 5 each
match names the device that delivered it (`device`); since version 6 the tournaments
are kept beside the matches (`tournament*`); since version 7 a tournament match names
the box it was assigned to, and the results held for the desk are kept. A database records the
versions it has in `schema_version`; `migrate()` (host_tools/results/db) applies the missing ones,
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
    # An id is unique per box only (the same draw set up on two boxes gives two matches
    # one id), and a result corrected on the box after a sync is the match's next
    # version: the key becomes (box, id), and the earlier versions are kept. Neither
    # engine changes a primary key in place, so both tables are built anew and renamed
    # (the frames' reference follows the rename on both). Rows from before have no box:
    # ''. The same SQL on both engines.
    (4, "matches keyed by box and id, with their version; earlier versions kept", (
        ("CREATE TABLE matches_v4 ("
         " box TEXT NOT NULL,"
         " id TEXT NOT NULL,"
         " version INTEGER NOT NULL,"
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
         " pulled_at TEXT NOT NULL,"
         " source TEXT,"
         " PRIMARY KEY (box, id))"),
        ("INSERT INTO matches_v4 (box, id, version, date, game, format, side_a, side_b,"
         " status, winner, frames_a, frames_b, report, sbn, sha256, pulled_at, source)"
         " SELECT '', id, 1, date, game, format, side_a, side_b, status, winner, frames_a,"
         " frames_b, report, sbn, sha256, pulled_at, source FROM matches"),
        ("CREATE TABLE frames_v4 ("
         " box TEXT NOT NULL,"
         " match_id TEXT NOT NULL,"
         " seq INTEGER NOT NULL,"
         " number INTEGER NOT NULL,"
         " breaker TEXT,"
         " score_a INTEGER,"
         " score_b INTEGER,"
         " winner TEXT,"
         " how TEXT,"
         " breaks_a TEXT NOT NULL,"
         " breaks_b TEXT NOT NULL,"
         " PRIMARY KEY (box, match_id, seq),"
         " FOREIGN KEY (box, match_id) REFERENCES matches_v4 (box, id) ON DELETE CASCADE)"),
        ("INSERT INTO frames_v4 (box, match_id, seq, number, breaker, score_a, score_b,"
         " winner, how, breaks_a, breaks_b)"
         " SELECT '', match_id, seq, number, breaker, score_a, score_b, winner, how,"
         " breaks_a, breaks_b FROM frames"),
        "DROP TABLE frames",
        "DROP TABLE matches",
        "ALTER TABLE matches_v4 RENAME TO matches",
        "ALTER TABLE frames_v4 RENAME TO frames",
        "CREATE INDEX matches_by_date ON matches (date)",
        "CREATE INDEX matches_by_id ON matches (id)",
        ("CREATE TABLE match_versions ("
         " box TEXT NOT NULL,"
         " id TEXT NOT NULL,"
         " version INTEGER NOT NULL,"
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
         " pulled_at TEXT NOT NULL,"
         " source TEXT,"
         " replaced_at TEXT NOT NULL,"
         " PRIMARY KEY (box, id, version))"),
        "CREATE INDEX match_versions_by_id ON match_versions (id)",
    )),
    # A box's `box` word is its own say-so: any box can write another's. A stored match
    # is bound to the device that first delivered it (a Pico's USB serial number, which
    # is its unique id; else the box id it reports), and another device's journal under
    # it is refused. Rows from before name none (NULL): the next device to write one
    # binds it.
    (5, "the device that delivered each match", (
        "ALTER TABLE matches ADD COLUMN device TEXT",
        "ALTER TABLE match_versions ADD COLUMN device TEXT",
    )),
    # Tournaments (issue 27; host_tools/tournament/store.py): the players, the bracket's
    # matches (where each side comes from, and what the results made of it), and an
    # audit row for every change. `changes` is bumped first in each change's
    # transaction, so that two desks changing one tournament take turns.
    (6, "tournaments: players, the bracket's matches, and the audit of every change", (
        ("CREATE TABLE tournaments ("
         " name TEXT PRIMARY KEY,"
         " format TEXT NOT NULL,"
         " game TEXT NOT NULL,"
         " conditions TEXT NOT NULL,"
         " draw_seed INTEGER NOT NULL,"
         " groups_of INTEGER,"
         " advance INTEGER,"
         " champion INTEGER,"
         " created_at TEXT NOT NULL,"
         " changes INTEGER NOT NULL)"),
        ("CREATE TABLE tournament_players ("
         " tournament TEXT NOT NULL REFERENCES tournaments (name) ON DELETE CASCADE,"
         " id INTEGER NOT NULL,"
         " name TEXT NOT NULL,"
         " seed INTEGER,"
         " club TEXT,"
         " draw_rank INTEGER NOT NULL,"
         " PRIMARY KEY (tournament, id))"),
        ("CREATE TABLE tournament_matches ("
         " tournament TEXT NOT NULL REFERENCES tournaments (name) ON DELETE CASCADE,"
         " id TEXT NOT NULL,"
         " seq INTEGER NOT NULL,"
         " stage TEXT NOT NULL,"
         " round INTEGER NOT NULL,"
         " a_from TEXT,"
         " b_from TEXT,"
         " a INTEGER,"
         " b INTEGER,"
         " winner INTEGER,"
         " score_a INTEGER,"
         " score_b INTEGER,"
         " how TEXT,"
         " status TEXT NOT NULL,"
         " table_no INTEGER,"
         " box_match TEXT NOT NULL UNIQUE,"
         " entered_at TEXT,"
         " entered_by TEXT,"
         " PRIMARY KEY (tournament, id))"),
        ("CREATE TABLE tournament_audit ("
         " tournament TEXT NOT NULL REFERENCES tournaments (name) ON DELETE CASCADE,"
         " seq INTEGER NOT NULL,"
         " at TEXT NOT NULL,"
         " what TEXT NOT NULL,"
         " source TEXT NOT NULL,"
         " detail TEXT NOT NULL,"
         " PRIMARY KEY (tournament, seq))"),
    )),
    # The right box's result (issue 37; host_tools/tournament/identity.py): the box a
    # tournament match was assigned to (`box_id`, the box that claimed its table when
    # the desk assigned it), and the results held for the desk: a journal of the match
    # from any other box, or a box's own change the bracket cannot take, kept whole
    # (the match row and its frames as JSON) until the desk takes or keeps it.
    (7, "tournament matches name their box; results held for the desk", (
        "ALTER TABLE tournament_matches ADD COLUMN box_id TEXT",
        ("CREATE TABLE tournament_held ("
         " tournament TEXT NOT NULL REFERENCES tournaments (name) ON DELETE CASCADE,"
         " n INTEGER NOT NULL,"
         " match TEXT NOT NULL,"
         " box TEXT NOT NULL,"
         " device TEXT,"
         " box_table INTEGER,"
         " sha256 TEXT NOT NULL,"
         " result TEXT NOT NULL,"
         " reason TEXT NOT NULL,"
         " rec TEXT NOT NULL,"
         " frames TEXT NOT NULL,"
         " held_at TEXT NOT NULL,"
         " decision TEXT,"
         " decided_at TEXT,"
         " decided_by TEXT,"
         " PRIMARY KEY (tournament, n),"
         " UNIQUE (tournament, match, box, sha256))"),
    )),
)

LATEST = MIGRATIONS[-1][0]
