"""The events of the current segment (since the last `frame` line), packed as notation
text in one buffer: about 15 bytes an event instead of a tuple of fresh strings, so a
long frame (a straight pool game is one frame) costs little RAM. Events are decoded
again only when `undo` folds the segment from its start.
"""

from .notation import format_event, parse_event


class Segment:
    def __init__(self, fam):
        self.family = fam
        self.buf = bytearray()
        self.count = 0

    def append(self, event):
        self.buf.extend(format_event(event).encode())
        self.buf.append(10)
        self.count += 1

    def pop(self):
        """Drop the last event."""
        buf = self.buf
        start = buf.rfind(b"\n", 0, len(buf) - 1) + 1
        buf[start:] = b""
        self.count -= 1

    def __len__(self):
        return self.count

    def __iter__(self):
        buf = self.buf
        view = memoryview(buf)
        start = 0
        for _ in range(self.count):
            end = buf.find(b"\n", start)
            yield parse_event(self.family, str(view[start:end], "utf-8"))
            start = end + 1
