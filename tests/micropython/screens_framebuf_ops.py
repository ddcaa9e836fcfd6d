"""Exercise every framebuf method the screens use, clipping included; print the bytes.

Runs under MicroPython (the real framebuf) and CPython (host_tools/compat/framebuf.py);
tests/ui/test_screens.py requires the two outputs to be identical. A small LCG picks the
operations, so both interpreters draw the same thing: rectangles, lines and pixels
partly or wholly off the canvas, negative sizes, text with characters outside 32..127
and a NUL (where the C code's text ends), on canvases whose width is not a multiple of
8, and a stride wider than the width.

    micropython tests/micropython/screens_framebuf_ops.py
"""

import _paths

_paths.setup(__file__)

import framebuf  # noqa: E402

SIZES = ((29, 13, None), (32, 16, None), (64, 9, 72), (8, 8, None), (101, 40, None))
TEXTS = ("Ab9 ~", "O'Sullivan", "\x7f\x1f caf\u00e9 \u00b0", "", "|_{}")


class Rand:
    def __init__(self, seed):
        self.x = seed

    def next(self, n):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.x >> 8) % n


def hexs(buf):
    return "".join("%02x" % b for b in buf)


def run(w, h, stride, seed, ops=60):
    rows = ((stride or w) + 7) // 8
    buf = bytearray(rows * h)
    if stride is None:
        fb = framebuf.FrameBuffer(buf, w, h, framebuf.MONO_HLSB)
    else:
        fb = framebuf.FrameBuffer(buf, w, h, framebuf.MONO_HLSB, stride)
    r = Rand(seed)
    reads = 0
    for _ in range(ops):
        op = r.next(8)
        x = r.next(w + 20) - 10
        y = r.next(h + 20) - 10
        a = r.next(w + 10) - 3
        b = r.next(h + 10) - 3
        c = r.next(3) and 1
        if op == 0:
            fb.fill_rect(x, y, a, b, c)
        elif op == 1:
            fb.hline(x, y, a, c)
        elif op == 2:
            fb.vline(x, y, b, c)
        elif op == 3:
            fb.rect(x, y, a, b, c)
        elif op == 4:
            fb.rect(x, y, a, b, c, True)
        elif op == 5:
            fb.pixel(x, y, c)
        elif op == 6:
            fb.text(TEXTS[r.next(len(TEXTS))], x, y, c)
        else:
            v = fb.pixel(x, y)
            reads += 1 if v is None else v * 7 + 2
        if r.next(25) == 0:
            fb.fill(r.next(2))
    fb.text("end", 0, 0)
    return "%dx%d/%s %s reads=%d" % (w, h, stride, hexs(buf), reads)


def main():
    seed = 7
    for w, h, stride in SIZES:
        for k in range(3):
            print(run(w, h, stride, seed + k * 101))
        seed += 1
    # text defaults: colour 1
    buf = bytearray(16 * 8)
    fb = framebuf.FrameBuffer(buf, 128, 8, framebuf.MONO_HLSB)
    fb.text("Hello, 147!", 1, 0)
    print("text", hexs(buf))
    # a NUL ends the text in the C code (it walks a C string): nothing after it is drawn
    buf = bytearray(16 * 8)
    fb = framebuf.FrameBuffer(buf, 128, 8, framebuf.MONO_HLSB)
    fb.text("ab\x00cd", 1, 0)
    fb.text("\x00x", 80, 0)
    print("nul", hexs(buf))


main()
