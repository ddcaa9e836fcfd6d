"""The results database: the matches the boxes played, their frames, the tournaments
(host_tools/tournament keeps its tables here), on SQLite or PostgreSQL with one schema.

This package is the storage library: it takes a URL and knows no command line (the
commands' `--db`/`--db-file` are host_tools/commands/options.py's). Its modules, one job
each:
- url.py: where the URL comes from (`url_from`: `--db`, `--db-file`, $SCOREBOARD_DB, the
  default file) and how it is shown with every password masked (`masked_url`, `mask`);
- database.py: `open_db`/`connect` and the `Database`: parameterised SQL on both
  engines, explicit transactions, a match stored by (box, id) with its versions, and a
  tournament match's journal into its bracket (the `bracket` it was opened with);
- migrations.py: the schema, one numbered migration at a time.

The names below are the package's face: import them from `host_tools.results.db`.
"""

from host_tools.results.db.database import (FINAL, Conflict, Correction, Database, Held,
                                            Origin, connect, default_path, extends,
                                            open_db, result_text)
from host_tools.results.db.url import ENV, DbError, mask, masked_url, secrets, url_from

__all__ = ["ENV", "FINAL", "Conflict", "Correction", "Database", "DbError", "Held",
           "Origin", "connect", "default_path", "extends", "mask", "masked_url", "open_db",
           "result_text", "secrets", "url_from"]
