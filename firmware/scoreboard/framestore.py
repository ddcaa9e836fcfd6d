"""Finished frames kept on flash, one record line each, so RAM does not grow with the
match. Same interface as `core.match.ListStore`: add(record), iteration, len()."""

from scoreboard.core.records import decode, encode


class FileStore:
    def __init__(self, path):
        self.path = path
        self.count = 0
        try:
            with open(path) as f:
                for _ in f:
                    self.count += 1
        except OSError:
            with open(path, "w"):
                pass

    def add(self, record):
        with open(self.path, "a") as f:
            f.write(encode(record) + "\n")
        self.count += 1

    def __iter__(self):
        with open(self.path) as f:
            for line in f:
                yield decode(line)

    def __len__(self):
        return self.count
