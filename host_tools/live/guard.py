"""Who may ask `scoreboard live` what (server.py asks on every request).

- The Host header must name this server: the address it listens on, a loopback address
  or `localhost`, this computer's own names and addresses, or a name given by
  `--allow-host`. Anything else is refused, loopback included: a web page elsewhere that
  points a name of its own at this computer (DNS rebinding) would otherwise read the
  server as its own site from any browser in the club.
- Beyond loopback (`--bind` other than 127.0.0.1, ::1 or localhost) the desk's view
  (/api/desk: the boxes' device paths, the server's counters) needs the token `live`
  prints once at its start, as `?token=` or `Authorization: Bearer`. The overlay, the
  tables pages, their JSON and their streams stay open to every viewer, and none of
  them shows a device path.
"""

import hmac
import ipaddress
import secrets
import socket

KNOWN = 64  # addresses remembered as this computer's (a Host header is anyone's to make)


def loopback(addr):
    """Whether `addr` (an address or a name) is this computer only."""
    try:
        return ipaddress.ip_address(addr).is_loopback
    except ValueError:
        return addr.lower().rstrip(".") == "localhost"


def new_token():
    return secrets.token_urlsafe(18)


def host_name(header):
    """The name or address of a Host header, without its port, brackets or final dot,
    in lower case: `[::1]:8019` is `::1`, `Club.example.:80` `club.example`."""
    host = header.strip()
    if host.startswith("["):
        host = host[1:].split("]", 1)[0]
    elif host.count(":") == 1:
        host = host.split(":", 1)[0]
    return host.rstrip(".").lower()


class Guard:
    def __init__(self, bind="127.0.0.1", hosts=(), token=None):
        self.bind = bind
        self.token = token
        self.names = {"localhost", host_name(bind)} | {host_name(h) for h in hosts}
        with_fqdn = {socket.gethostname(), socket.getfqdn()}
        for name in with_fqdn:
            name = host_name(name)
            if name:
                self.names |= {name, name.split(".")[0], name.split(".")[0] + ".local"}
        self.ours = set()  # addresses found to be this computer's

    def host_ok(self, header):
        """Whether a request with this Host header is for this server."""
        name = host_name(header)
        if name in self.names or name.endswith(".localhost"):
            return True
        try:
            ip = ipaddress.ip_address(name)
        except ValueError:
            return False
        return ip.is_loopback or self._ours(ip)

    def _ours(self, ip):
        """An address of this computer: one a socket can be bound to."""
        if ip in self.ours:
            return True
        if ip.is_unspecified or ip.is_multicast:
            return False
        family = socket.AF_INET6 if ip.version == 6 else socket.AF_INET
        try:
            with socket.socket(family, socket.SOCK_DGRAM) as s:
                s.bind((str(ip), 0))
        except OSError:
            return False
        if len(self.ours) < KNOWN:
            self.ours.add(ip)
        return True

    def desk_ok(self, request):
        """Whether `request` may see the desk's view: always on loopback, else with the
        token."""
        if self.token is None:
            return True
        given = request.query.get("token", "")
        auth = request.headers.get("Authorization", "")
        if auth[:7].lower() == "bearer ":
            given = auth[7:].strip()
        return hmac.compare_digest(given.encode(), self.token.encode())
