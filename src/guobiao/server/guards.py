"""The bounds of a public server, as pure Python (no web framework, no clock of its own: every
method that depends on time takes ``now``, as :mod:`guobiao.server.rooms` does).

- :class:`RateLimiter`: a token bucket per key (a client address): ``burst`` at once, then one
  more every ``every`` seconds. Used for creating rooms, opening sockets, every HTTP request.
- :class:`FailureThrottle`: failures per key in a fixed window; a key that reached ``limit`` is
  refused until its window ends. Used for referee logins, per address and per user name.
- Both track at most ``max_keys`` keys, the least recently used forgotten first, so their memory
  is bounded however many addresses or names a client tries.
- :class:`KeptAnswers`: answers kept as the bytes they are sent as, bounded in entries and in
  bytes, the least recently used dropped first. Used for replays.
- :class:`TrustedProxies`: the client address of a request: the socket peer, or, when the peer
  is a trusted proxy (``guobiao serve --trusted-proxy``), the address it put in
  ``X-Forwarded-For`` (with or without a port).
- :data:`SECURITY_HEADERS`: sent with every response (docs/web.md, Limits and security).
"""

from __future__ import annotations

import ipaddress
from collections import OrderedDict
from collections.abc import Iterable
from typing import Final, Generic, TypeVar

__all__ = ["SECURITY_HEADERS", "FailureThrottle", "KeptAnswers", "RateLimiter", "TrustedProxies"]

SECURITY_HEADERS: Final = {
    # no inline script anywhere (every page loads its scripts from /static); inline styles are
    # allowed: the printed reports (score sheets) carry their own <style>
    "Content-Security-Policy": "default-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; frame-ancestors 'none'; form-action 'self'; base-uri 'none'",
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}

K = TypeVar("K")
V = TypeVar("V")


class _Bounded(Generic[V]):
    """A dict of at most ``max_keys`` entries, the least recently used dropped first."""

    def __init__(self, max_keys: int) -> None:
        if max_keys < 1:
            raise ValueError("max_keys must be at least 1")
        self.max_keys = max_keys
        self._items: OrderedDict[str, V] = OrderedDict()

    def __len__(self) -> int:
        return len(self._items)

    def _get(self, key: str) -> V | None:
        value = self._items.get(key)
        if value is not None:
            self._items.move_to_end(key)
        return value

    def _put(self, key: str, value: V) -> None:
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self.max_keys:
            self._items.popitem(last=False)

    def forget(self, key: str) -> None:
        self._items.pop(key, None)


class RateLimiter(_Bounded[tuple[float, float]]):
    """A token bucket per key: ``burst`` tokens, refilled at one per ``every`` seconds."""

    def __init__(self, burst: int, every: float, max_keys: int = 10_000) -> None:
        super().__init__(max_keys)
        if burst < 1 or every <= 0:
            raise ValueError("burst must be at least 1 and every positive")
        self.burst = burst
        self.every = every

    def allow(self, key: str, now: float) -> bool:
        """Take a token for ``key`` if it has one (True), else False (and nothing changes)."""
        return self.take(key, now) == 0.0

    def take(self, key: str, now: float) -> float:
        """Take a token for ``key`` if it has one: 0.0; else the seconds until it has one (and
        nothing is taken)."""
        tokens, at = self._get(key) or (float(self.burst), now)
        tokens = min(float(self.burst), tokens + max(0.0, now - at) / self.every)
        if tokens < 1.0:
            self._put(key, (tokens, now))
            return (1.0 - tokens) * self.every
        self._put(key, (tokens - 1.0, now))
        return 0.0


class FailureThrottle(_Bounded[tuple[float, int]]):
    """Failures per key in a fixed window of ``window`` seconds from the key's first failure:
    with ``limit`` failures the key is refused until the window ends."""

    def __init__(self, limit: int, window: float, max_keys: int = 10_000) -> None:
        super().__init__(max_keys)
        if limit < 1 or window <= 0:
            raise ValueError("limit must be at least 1 and window positive")
        self.limit = limit
        self.window = window

    def _current(self, key: str, now: float) -> tuple[float, int] | None:
        entry = self._get(key)
        if entry is not None and now - entry[0] >= self.window:
            self.forget(key)
            return None
        return entry

    def blocked(self, key: str, now: float) -> bool:
        entry = self._current(key, now)
        return entry is not None and entry[1] >= self.limit

    def fail(self, key: str, now: float) -> None:
        start, count = self._current(key, now) or (now, 0)
        self._put(key, (start, count + 1))

    def undo(self, key: str) -> None:
        """Take back one failure (an attempt counted in advance that succeeded)."""
        entry = self._items.get(key)
        if entry is not None:
            if entry[1] <= 1:
                self.forget(key)
            else:
                self._items[key] = (entry[0], entry[1] - 1)


class KeptAnswers(Generic[K, V]):
    """Answers kept as the bytes they are sent as (with ``V``, what else decides who may read
    them), at most ``max_entries`` of them and ``max_bytes`` bytes in all, the least recently
    used dropped first: its memory is bounded by bytes, whatever the answers hold. An answer
    larger than ``max_bytes`` alone is not kept."""

    def __init__(self, max_entries: int, max_bytes: int) -> None:
        if max_entries < 1 or max_bytes < 1:
            raise ValueError("max_entries and max_bytes must be at least 1")
        self.max_entries = max_entries
        self.max_bytes = max_bytes
        self.nbytes = 0
        self._items: OrderedDict[K, tuple[bytes, V]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: K) -> tuple[bytes, V] | None:
        kept = self._items.get(key)
        if kept is not None:
            self._items.move_to_end(key)
        return kept

    def put(self, key: K, body: bytes, extra: V) -> None:
        self.forget(key)
        if len(body) > self.max_bytes:
            return
        self._items[key] = (body, extra)
        self.nbytes += len(body)
        while len(self._items) > self.max_entries or self.nbytes > self.max_bytes:
            _, (dropped, _) = self._items.popitem(last=False)
            self.nbytes -= len(dropped)

    def forget(self, key: K) -> None:
        kept = self._items.pop(key, None)
        if kept is not None:
            self.nbytes -= len(kept[0])

    def clear(self) -> None:
        self._items.clear()
        self.nbytes = 0


class TrustedProxies:
    """Addresses (or networks, ``10.0.0.0/8``) of the reverse proxies whose ``X-Forwarded-For``
    header is believed. Without any, the client address is always the socket peer."""

    def __init__(self, addresses: Iterable[str] = ()) -> None:
        self.networks = tuple(ipaddress.ip_network(a.strip(), strict=False) for a in addresses)

    def trusts(self, address: str) -> bool:
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in network for network in self.networks)

    def client(self, peer: str | None, forwarded_for: str | None) -> str:
        """The client's address: the peer, unless the peer is trusted; then the right-most
        address of ``X-Forwarded-For`` that is not itself a trusted proxy (the entries to its
        left were written by the client and prove nothing)."""
        address = peer or "?"
        if not forwarded_for or not self.trusts(address):
            return address
        for item in reversed(forwarded_for.split(",")):
            entry = forwarded_address(item)
            if entry is None:
                return address  # garbage: believe nothing further left
            if not self.trusts(entry):
                return entry
        return address

    def key(self, peer: str | None, forwarded_for: str | None) -> str:
        """The key the per-address limits count by: the client's address (:meth:`client`),
        an IPv6 one as its /64 network (one subscriber's share: it holds 2**64 addresses)."""
        return client_key(self.client(peer, forwarded_for))


def forwarded_address(entry: str) -> str | None:
    """The address of an ``X-Forwarded-For`` entry, with or without a port as some proxies
    write it (``198.51.100.7:5123``, ``[2001:db8::1]:443``); None if it names none."""
    host = entry.strip()
    if host.startswith("["):
        host, bracket, port = host[1:].partition("]")
        if not bracket or (port and not (port[0] == ":" and port[1:].isdigit())):
            return None
    elif host.count(":") == 1:  # IPv4 with a port (an IPv6 address has two colons or more)
        host, _, port = host.partition(":")
        if not port.isdigit():
            return None
    try:
        return str(ipaddress.ip_address(host))
    except ValueError:
        return None


NAT64: Final = ipaddress.ip_network("64:ff9b::/96")
"""The well-known NAT64 prefix: an IPv4 client of an IPv6-only server behind a translator."""


def client_key(address: str) -> str:
    """``address`` as the per-address limits count it: IPv6 by /64 network; an IPv6 address
    that carries an IPv4 one (mapped ``::ffff:a.b.c.d``, NAT64 ``64:ff9b::a.b.c.d``, 6to4
    ``2002:aabb:ccdd::/48``) as that IPv4 address (a 6to4 site's 65,536 /64s are one IPv4
    address's; NAT64 would put every IPv4 client in one /64); others as they are."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if not isinstance(ip, ipaddress.IPv6Address):
        return address
    v4 = ip.ipv4_mapped or ip.sixtofour
    if v4 is None and ip in NAT64:
        v4 = ipaddress.IPv4Address(int(ip) & 0xFFFF_FFFF)
    if v4 is not None:
        return str(v4)
    return str(ipaddress.ip_network(f"{ip}/64", strict=False))
