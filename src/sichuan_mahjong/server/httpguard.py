"""uvicorn's HTTP/1.1 (h11) and websocket (websockets-sansio) protocols with what a server open to anyone needs
and uvicorn does not do (docs/protocol.md "Limits", docs/hosting.md):

- a request must arrive whole, headers and body, within ``request_timeout`` seconds of the connection opening or
  of the previous response; a socket that dribbles its headers (slowloris) or sends nothing is closed then.
  uvicorn's ``timeout_keep_alive`` only starts after a first response, and any byte received cancels it. The
  same deadline ends a refused body (413 sent while the client still sends): it is read and thrown away, then
  the socket is closed, so a client that sends while it reads still sees the 413.
- a text frame that is not UTF-8 closes the socket with 1007 and one log line (uvicorn logs a traceback each);
- a websocket whose peer does not answer the keepalive ping is reset, not closed: a peer that reads nothing
  never drains the buffers a close waits for (asyncio's, then the kernel's before the FIN), so it had stayed
  connected for good;
- every line logged while a connection's data is handled knows its source address
  (:data:`~sichuan_mahjong.server.limits.SOURCE`), so logging can be limited per source. Here it is the peer's
  (a proxy's, behind one); the application sets the client's once ``X-Forwarded-For`` is applied.

Imported only by ``scmj serve`` (uvicorn is the optional extra ``web``).
"""

from __future__ import annotations

import asyncio
import socket
import struct

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from sichuan_mahjong.server.limits import SOURCE, client_key

__all__ = ["GuardedH11Protocol", "GuardedWebSocketsProtocol", "guarded_h11"]


class _Sourced(asyncio.Protocol):
    """Before the protocol class it is mixed into: lines logged while a connection's data is handled name its
    source (:data:`SOURCE`), the peer's address as :meth:`connection_made` set it."""

    _source: str = "-"

    def data_received(self, data: bytes) -> None:
        token = SOURCE.set(self._source)
        try:
            super().data_received(data)
        finally:
            SOURCE.reset(token)


class GuardedH11Protocol(_Sourced, H11Protocol):
    """uvicorn's h11 protocol with a deadline for each request to arrive whole (:func:`guarded_h11` sets it)."""

    request_timeout: float = 10.0
    _deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._source = client_key(self.client[0] if self.client else None)
        self._arm()

    def _arm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
        self._deadline = self.loop.call_later(self.request_timeout, self._expire)

    def _expire(self) -> None:
        self._deadline = None
        if self.transport.is_closing() or self.transport.get_protocol() is not self:
            return  # closed already, or a websocket now
        if self.conn.their_state in (h11.IDLE, h11.SEND_BODY):  # headers or body still coming
            self.transport.close()

    def on_response_complete(self) -> None:
        if not self.transport.is_closing():
            self._arm()
        super().on_response_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        super().connection_lost(exc)


def guarded_h11(request_timeout: float) -> type[GuardedH11Protocol]:
    """The protocol class for uvicorn's ``http=``, with this deadline."""
    return type("GuardedH11Protocol", (GuardedH11Protocol,), {"request_timeout": request_timeout})


class GuardedWebSocketsProtocol(_Sourced, WebSocketsSansIOProtocol):
    """uvicorn's websockets-sansio protocol: invalid UTF-8 closes with 1007 and one line; logs know the source."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        self._source = client_key(self.client[0] if self.client else None)

    def keepalive_timeout(self) -> None:
        sock = self.transport.get_extra_info("socket")
        if sock is not None:  # the close below then resets the connection instead of waiting on the peer
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        super().keepalive_timeout()
        self.transport.abort()

    def send_receive_event_to_app(self) -> None:
        if self.curr_msg_data_type == "text" and not self.close_sent and self.frames:
            data = b"".join(self.frames)
            try:
                data.decode()
            except UnicodeDecodeError as exc:
                self.frames = []
                self.logger.warning(
                    "%s sent a text frame that is not UTF-8 (%s); closed (1007)", self._source, exc.reason
                )
                self.conn.send_close(1007, "text frames must be UTF-8")
                self.handle_parser_exception()
                return
            self.frames = [data]
        super().send_receive_event_to_app()
