"""The hash ring of several server processes: which worker holds a room, computed exactly as nginx's
``hash $room consistent;`` picks an upstream (ngx_http_upstream_hash_module, the ketama ring of
Cache::Memcached::Fast), so the proxy and the workers agree on every code without asking each other.

Each worker (an upstream ``server HOST:PORT``, weight 1) puts 160 points on a 32-bit circle: the CRC-32 of
``HOST \\0 PORT`` followed by the previous point's 4 bytes (little-endian; 0 for the first). A key's point is
its CRC-32; it belongs to the worker of the first point at or after it (round the circle). When that worker is
down, nginx tries the next points in order, skipping the down one: :meth:`Ring.owner` does the same with the
set of workers alive (the ones whose lease in the database is current: server/cluster.py). Tested against a
real nginx in tests/server/test_cluster.py.
"""

from __future__ import annotations

import bisect
import zlib
from collections.abc import Collection, Sequence

__all__ = ["POINTS", "Ring"]

#: nginx's points per server of weight 1.
POINTS = 160


def _base(server: str) -> bytes:
    """What nginx hashes for a server name: ``HOST \\0 PORT`` (``unix:PATH``: the path and ``\\0``)."""
    if server.startswith("unix:"):
        return server[5:].encode() + b"\0"
    host, colon, port = server.rpartition(":")
    if not colon or not port.isdigit():
        return server.encode() + b"\0"
    return host.encode() + b"\0" + port.encode()


class Ring:
    """The ring of ``servers``, named as in nginx's upstream block, in any order (the ring does not depend on it)."""

    def __init__(self, servers: Sequence[str]) -> None:
        if not servers:
            raise ValueError("a ring needs at least one server")
        if len(set(servers)) != len(servers):
            raise ValueError(f"the ring's servers must differ: {list(servers)}")
        self.servers = list(servers)
        points: dict[int, int] = {}
        for index, server in enumerate(self.servers):
            base = _base(server)
            prev = 0
            for _ in range(POINTS):
                h = zlib.crc32(base + prev.to_bytes(4, "little"))
                points.setdefault(h, index)  # nginx keeps the first of equal points (a stable sort, then unique)
                prev = h
        self._hashes = sorted(points)
        self._owners = [points[h] for h in self._hashes]

    def order(self, key: str) -> list[int]:
        """The workers (indexes in ``servers``) in the order nginx tries them for ``key``, each once."""
        n = len(self._hashes)
        start = bisect.bisect_left(self._hashes, zlib.crc32(key.encode()))
        seen: list[int] = []
        for i in range(n):
            owner = self._owners[(start + i) % n]
            if owner not in seen:
                seen.append(owner)
                if len(seen) == len(self.servers):
                    break
        return seen

    def owner(self, key: str, alive: Collection[int] | None = None) -> int | None:
        """The worker that holds ``key``: the first in :meth:`order` that is alive (all when ``alive`` is None)."""
        for index in self.order(key):
            if alive is None or index in alive:
                return index
        return None
