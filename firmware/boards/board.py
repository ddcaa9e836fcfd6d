"""The board contract: everything the app (scoreboard/app.py) uses of a board, written once.

Each board module's `build()` returns an instance of a subclass of `Board`: `pico` (the
reference Raspberry Pi Pico), `pico2_oled` (its Pico 2 + OLED variant), `host` (the
computer's stand-in: tests, `scoreboard device`, the virtual device) and `sim` (the
browser simulator). The app calls these and nothing else, and probes for nothing: a
board has all of them (tests/boards/test_boards.py walks every board through this list).

    name                  "pico", "pico2_oled", "host", "sim": the box id's prefix
    echo                  a scoreboard.echo.Echo that puts every journal line on the
                          console (scoreboard live), or None
    flash                 the folder that holds matches/, queue/ and settings.txt
                          ("" = the current one, `/` on a Pico)
    eink_size             (width, height) of the score panel: the screens pick their
                          layout from it (400x300 e-ink, 128x64 OLED)
    led                   the LED panel's canvas: a 32x16 MONO_HLSB framebuf, 1 = lit
    eink_show(full, paint)
                          async: draw the picture and refresh the panel, in full or
                          partially. `paint(canvas)` draws the whole picture with
                          framebuf's methods in panel coordinates (MONO_HLSB, 1 = black
                          ink); the board calls it once per band it sends (the e-ink's
                          30-row bands, drivers/ssd1683.py) or once on a canvas of the
                          whole panel (the OLED), so what it draws depends on the state
                          alone. It returns when the panel has taken the picture. The
                          canvas states its size: `width`, `height` (the panel's, i.e.
                          eink_size) and the panel rows it holds, `top` .. `top + rows
                          - 1` (all of them on a whole canvas): drivers/ssd1683.py's
                          Band, of `rows` == height on a whole canvas.
    eink_show_now(full, paint)
                          the same at once, for the runners that step the app on a clock
                          of their own (App.step): here, eink_show run to its end, which
                          it reaches without waiting on a board whose panel needs none
                          (host, simulator, OLED). The Pico's e-ink waits for its BUSY
                          line: that board refuses, and the box runs App.run().
    led_show()            push `led` to the panel; allocation free
    led_level(n)          ask for brightness 0..15 (the Pico caps it by its power
                          budget for each picture: boards/ledpower.py)
    keys()                the raw key bitmap, bit row * 4 + col set = key down (row 0
                          the top row, col 0 the left column); allocation free
    feed_keys(keys, now)  every pass: hand the key changes since the last pass to
                          `keys` (a keys.debounce.Debouncer); allocation free. Here:
                          the bitmap keys() reads now (`keys.update`); the Pico boards
                          hand over what their PIO scan queued meanwhile, debounced
                          already (`keys.take`), so a tap during a flash stall counts
    tone(freq_hz, volume_pct), quiet()
                          start a tone (freq 0 = silence), stop it; allocation free
    unique_id()           bytes: the chip's unique id (the box id's last four bytes)
    ticks_ms()            the millisecond ticks the app's clock runs on
    errno(e)              the standard errno of an OSError (the simulator translates
                          Emscripten's numbers)
    free_bytes()          free bytes on the flash's filesystem
    sync()                called after each journal flush: whatever the filesystem needs
                          for the line to be on flash
    radio                 the Wi-Fi station (boards/picow.py), or None: no radio of its
                          own (the net task then uses the computer's network where there
                          are sockets, the virtual device's; a Pico has none). A radio
                          has `start(ssid, password)` (switch on, start joining; it may
                          hold the CPU while the chip's firmware loads) and `state()`:
                          "up", "joining", "no radio" (the chip did not start), "refused"

This class gives the defaults a board on a real filesystem shares: `feed_keys` (the
scan of keys()), `errno` (the OSError's own number), `free_bytes` (statvfs:
scoreboard.files.fs_free), `sync` (scoreboard.files.fs_sync: os.sync on MicroPython
where there is one), `eink_show_now` and `radio` (None). Everything else each board
defines; nothing here touches hardware.
"""

from scoreboard.files import fs_free, fs_sync

# The contract's members, in the order above: what the app may use of a board.
MEMBERS = ("name", "echo", "flash", "eink_size", "led", "eink_show", "eink_show_now", "led_show",
           "led_level", "keys", "feed_keys", "tone", "quiet", "unique_id", "ticks_ms", "errno",
           "free_bytes", "sync", "radio")


class Board:
    """The base of every board (see the module docstring): each board sets `name`,
    `echo`, `flash`, `eink_size` and `led` and defines the methods not given here."""

    name = "board"
    flash = ""
    radio = None  # no Wi-Fi of its own (boards/picow.py has one)

    async def eink_show(self, full, paint):
        """Draw with `paint` and refresh the panel (each board has its own)."""
        raise NotImplementedError

    def eink_show_now(self, full, paint):
        """`eink_show` at once: its coroutine run to the end, which it must reach without
        waiting for anything (RuntimeError otherwise: that panel needs App.run())."""
        coro = self.eink_show(full, paint)
        try:
            coro.send(None)
        except StopIteration:
            return
        raise RuntimeError("the %s board's panel waits: run the app with App.run()"
                           % self.name)

    def keys(self):
        """The raw key bitmap (each board reads its own keypad)."""
        raise NotImplementedError

    def feed_keys(self, keys, now):
        """The key changes to the debouncer: the bitmap read now (a board whose keys
        come from elsewhere overrides this)."""
        keys.update(self.keys(), now)

    def errno(self, e):
        """The errno of an OSError: its own number, else its first argument."""
        n = getattr(e, "errno", None)
        if n:
            return n
        return e.args[0] if e.args else 0

    def free_bytes(self):
        """Free bytes on the filesystem that holds `flash` (littlefs on a Pico)."""
        return fs_free(self.flash or "/")

    def sync(self):
        """After a flush: os.sync on MicroPython where the port has one."""
        fs_sync()
