"""The results database's URL: where it comes from, and how it is shown.

Where the URL comes from (`url_from`): `--db URL`, else `--db-file FILE` (its first line
that is not blank or a `#` comment), else the `SCOREBOARD_DB` environment variable, else
the default file (None: database.py's `default_path`). The password is best left out of
the URL altogether: libpq reads `PGPASSWORD` and `~/.pgpass` itself. Whatever holds it,
no message shows it: the URL is shown with `***` for the password and for any
`password=` parameter, whatever the URL's shape (one the parser cannot read is masked
from its `://` to its last `@`), and a message from the driver is shown only after the
same masking and only if no password (the URL's, a `password=` parameter's,
PGPASSWORD's) is left in it as a word; else it is withheld. The text is the same
whatever the password is, so a short one cannot be read off the `***`.
"""

import os
import re
from urllib.parse import unquote, urlsplit

ENV = "SCOREBOARD_DB"
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")
_PARAM = re.compile(r"(?i)(\bpassword\s*=\s*)('(?:[^'\\]|\\.)*'|[^&\s\"]*)")
_ANY_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://[^\s\"']*")
WITHHELD = "(the driver's message is not shown: it holds the password)"


class DbError(Exception):
    """A one-line reason, with any password masked."""


def url_from(db=None, db_file=None, environ=None):
    """The database URL the user gave: `--db`, `--db-file`, $SCOREBOARD_DB, or None (the
    default file). DbError, naming the file, when the file cannot be read or holds none."""
    environ = os.environ if environ is None else environ
    if db is not None and db_file is not None:
        raise DbError("give --db or --db-file, not both")
    if db is not None:
        # An empty --db (`--db "$DB"` with DB unset) is a mistake, not the default: as
        # an SQLite name it is a temporary database, gone at the end, with every match
        # it took marked pulled on the box.
        if not db.strip():
            raise DbError("--db is empty: give a file or a URL, or leave --db out for the "
                          "default database")
        return db
    if db_file is not None:
        try:
            with open(db_file, encoding="utf-8") as f:
                text = f.read()
        except (OSError, UnicodeDecodeError) as e:
            raise DbError("--db-file %s: cannot read it (%s)" % (
                db_file, getattr(e, "strerror", None) or e)) from None
        for line in text.splitlines():
            if line.strip() and not line.strip().startswith("#"):
                return line.strip()
        raise DbError("--db-file %s: no database URL in it" % db_file)
    return environ.get(ENV) or None


def _password_span(url):
    """(start, end) of the password in `url`, or None. A URL urlsplit reads has it in
    its netloc; in any other (a password with `/`, `?` or `#`, a broken host) it is
    everything from the first `:` after `scheme://` to the last `@`."""
    m = _SCHEME.match(url)
    if m is None:
        return None
    rest = url[m.end():]
    try:
        netloc = urlsplit(url).netloc
    except ValueError:
        netloc = ""
    if "@" in netloc and rest.startswith(netloc):
        at = netloc.rfind("@")
    else:
        at = rest.rfind("@")
    if at < 0:
        return None
    colon = rest.find(":", 0, at)
    if colon < 0:
        return None
    return m.end() + colon + 1, m.end() + at


def ambiguous(url):
    """True for a URL whose password the parsers may split differently from us."""
    span = _password_span(url)
    if span is None:
        return False
    pw = url[span[0]:span[1]]
    return any(c in pw for c in "/?#[]@") or "@" in url[span[1] + 1:]


def masked_url(url):
    """The URL (or a file path) to show: the password and any password=... are ***."""
    url = str(url)
    span = _password_span(url)
    if span is not None:
        url = url[:span[0]] + "***" + url[span[1]:]
    return _PARAM.sub(lambda m: m.group(1) + "***", url)


def secrets(url=None):
    """The passwords a message must not show: the URL's, its password= parameters',
    PGPASSWORD's; each also as percent-decoded."""
    found = []
    if url:
        url = str(url)
        span = _password_span(url)
        if span is not None:
            found.append(url[span[0]:span[1]])
        for m in _PARAM.finditer(url):
            found.append(m.group(2).strip("'"))
    if os.environ.get("PGPASSWORD"):
        found.append(os.environ["PGPASSWORD"])
    out = []
    for s in found:
        for v in (s, unquote(s)):
            if v and v not in out:
                out.append(v)
    return out


def mask(text, url=None):
    """A driver's message, safe to show: every URL in it masked, password=... masked,
    and withheld whole when a password still stands in it as a word (next to no letter
    or digit), so that the text never depends on what the password is."""
    text = str(text)
    if url:
        text = text.replace(str(url), masked_url(url))
    text = _ANY_URL.sub(lambda m: masked_url(m.group(0)), text)
    text = _PARAM.sub(lambda m: m.group(1) + "***", text)
    for s in secrets(url):
        if re.search(r"(?<![A-Za-z0-9])%s(?![A-Za-z0-9])" % re.escape(s), text):
            return WITHHELD
    return text
