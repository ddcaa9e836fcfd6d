"""The e-ink picture a box shows, made on the host board (CPython, the same screens code
as the box's) for comparing with the emulated Pico W's panel: the start screen with a
prepared match queued and a notice of the net task on it (App.note)."""

import tempfile
from pathlib import Path

from boards.host import HostBoard
from host_tools.results.draw import prepare
from scoreboard import lang
from scoreboard.app import App


def start_screen_with_notice(code, queued=None, when=None, key="a.wifi_radio"):
    """The e-ink bytes (MONO_HLSB, 1 = ink) of the start screen in language `code`, with
    the .sbn file `queued` prepared as `scoreboard setup --date WHEN` sends it, and the
    notice `key` (a.* in scoreboard/lang) standing."""
    with tempfile.TemporaryDirectory() as tmp:
        flash = Path(tmp) / "flash"
        (flash / "queue").mkdir(parents=True)
        (flash / "settings.txt").write_text("lang=%s\n" % code)
        if queued is not None:
            for name, lines in prepare(queued, when=when):
                (flash / "queue" / (name + ".sbn")).write_text("\n".join(lines) + "\n")
        board = HostBoard(str(flash))
        app = App(board)
        app.boot(0)
        for now in range(0, 3000, 10):
            board.now = now
            if now == 1000:
                lang.use(code)
                app.note(lang.t(key))
            app.step(now)
        return bytes(board.eink_buf)
