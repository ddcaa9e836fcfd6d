"""A TCP proxy in user space that breaks the link between a box and the broker the ways
the club's Wi-Fi breaks it: a black hole (the access point gone, the desk PC switched off:
bytes vanish, no FIN, no RST), a reset (RST to the box, as a router that restarted),
and a delay on every chunk. No root and no netem (this container has neither): the box
connects to the proxy's port instead of the broker's.

    with FaultProxy(broker_port) as proxy:  # proxy.port for the box
        proxy.black_hole(True)              # from now on nothing passes, either way
        proxy.black_hole(False)             # the link is back (the same connections)
        proxy.reset()                       # every connection through it: RST to both
        proxy.delay_ms = 50                 # each chunk held this long
        proxy.connections                   # accepted so far

In a black hole new connections are accepted and then nothing passes (a broker that
hangs), and what was sent meanwhile is dropped, as the air drops it.
"""

import select
import socket
import struct
import threading
import time


class FaultProxy:
    def __init__(self, target_port, target_host="127.0.0.1"):
        self.target = (target_host, target_port)
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(16)
        self.port = self.listener.getsockname()[1]
        self.delay_ms = 0
        self.hole = False
        self.connections = 0
        self.bytes_up = 0  # box -> broker, passed
        self.bytes_down = 0
        self._pairs = []
        self._lock = threading.Lock()
        self._stop = False
        threading.Thread(target=self._accept, daemon=True).start()

    def black_hole(self, on):
        self.hole = bool(on)

    def reset(self):
        """RST both ends of every connection now (SO_LINGER 0, then close)."""
        with self._lock:
            pairs, self._pairs = self._pairs, []
        for a, b in pairs:
            for s in (a, b):
                try:
                    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                    s.close()
                except OSError:
                    pass

    def _accept(self):
        while not self._stop:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(self.target, 5)
            except OSError:
                client.close()  # the broker is down: the box sees the connection end
                continue
            self.connections += 1
            with self._lock:
                self._pairs.append((client, upstream))
            threading.Thread(target=self._relay, args=(client, upstream), daemon=True).start()

    def _relay(self, client, upstream):
        peer = {client: upstream, upstream: client}
        try:
            while not self._stop:
                try:
                    ready, _, _ = select.select([client, upstream], [], [], 0.2)
                except (OSError, ValueError):
                    return
                for s in ready:
                    try:
                        data = s.recv(65536)
                    except OSError:
                        return
                    if not data:
                        while self.hole and not self._stop:  # no FIN through the air
                            time.sleep(0.05)
                        return
                    if self.hole:
                        continue  # gone in the air
                    if self.delay_ms:
                        time.sleep(self.delay_ms / 1000)
                    try:
                        peer[s].sendall(data)
                    except OSError:
                        return
                    if s is client:
                        self.bytes_up += len(data)
                    else:
                        self.bytes_down += len(data)
        finally:
            for s in (client, upstream):
                try:
                    s.close()
                except OSError:
                    pass
            with self._lock:
                if (client, upstream) in self._pairs:
                    self._pairs.remove((client, upstream))

    def close(self):
        self._stop = True
        try:
            self.listener.close()
        except OSError:
            pass
        self.reset()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
