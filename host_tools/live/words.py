"""The words of `scoreboard live`'s pages (the overlay, the TV page) in the club's
language: `scoreboard live --lang en|pl|bg`, from the box's own tables
(firmware/scoreboard/lang/), read as the box reads them: a key the language's table
lacks is English.

The pages' keys start `v.` (the room's words: captions, formats, results, the status
lines); `w.` gives the notation's words as the screens show them (balls, how a match
ended). Only those go to the browser (`script`), as `window.WORDS`, with `lang`, the
code for the page's `<html lang>`. live.js fills the `%s` and `%d` in.
"""

import importlib
import json

import host_tools  # noqa: F401  (the firmware on the path)
from host_tools.live import desk_words
from scoreboard.lang import LANGS

PREFIXES = ("v.", "w.")


def table(code):
    """Key -> text of the box's table `code` (the module's tuple, key and text by
    turns), with the desk's own words in that language (desk_words.py)."""
    texts = importlib.import_module("scoreboard.lang." + code).TEXTS
    desk = getattr(desk_words, code.upper())
    return dict(zip(texts[0::2] + desk[0::2], texts[1::2] + desk[1::2]))


def words(code):
    """The pages' words in `code` (LANGS), English where its table lacks a key."""
    if code not in LANGS:
        raise ValueError("no language %s" % code)
    out = {k: v for k, v in table("en").items() if k.startswith(PREFIXES)}
    out.update({k: v for k, v in table(code).items() if k.startswith(PREFIXES)})
    return out


def script(code):
    """The JavaScript that gives a page its words: `window.WORDS = {...}`."""
    data = {"lang": code, "words": words(code)}
    # `</` never ends the script early, whatever a table holds.
    return "window.WORDS = %s;\n" % json.dumps(data, ensure_ascii=False).replace("</", "<\\/")
