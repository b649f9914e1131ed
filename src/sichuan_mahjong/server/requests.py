"""What the HTTP endpoints of :mod:`~sichuan_mahjong.server.app` check of a request before the lobby sees it:
a JSON body read no further than :data:`MAX_BODY` bytes, its nesting and text checked; the client's address
(after a proxy's ``X-Forwarded-For``) for the limits and the log; a refusal or a limit as its JSON response.
"""

from __future__ import annotations

import json
from typing import Any, Final

from starlette.requests import ClientDisconnect, HTTPConnection, Request
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from sichuan_mahjong.server.limits import SOURCE, LimitExceededError, client_key, depth_error, text_error
from sichuan_mahjong.server.lobby import RequestError

__all__ = ["MAX_BODY", "SourceMiddleware", "client_address", "error_response", "json_body", "limited_response"]

#: The largest request body read, in bytes.
MAX_BODY: Final = 8192


async def json_body(request: Request) -> dict[str, Any]:
    """The body as a JSON object, read no further than :data:`MAX_BODY` bytes (a longer ``Content-Length`` is
    refused before a byte is read); nesting and text are checked before anything reads them."""
    too_big = RequestError(f"the request body may hold at most {MAX_BODY} bytes", 413)
    length = request.headers.get("content-length", "0")
    if not length.isdigit() or int(length) > MAX_BODY:
        raise too_big
    raw = bytearray()
    try:
        async for chunk in request.stream():
            raw += chunk
            if len(raw) > MAX_BODY:
                raise too_big
    except ClientDisconnect:
        raise RequestError("the request body did not arrive") from None
    if not raw.strip():
        return {}
    problem = depth_error(bytes(raw))
    if problem is not None:
        raise RequestError(f"the request body is {problem}")
    try:
        body = json.loads(raw)
    except (ValueError, RecursionError):
        raise RequestError("the request body is not JSON (UTF-8)") from None
    if not isinstance(body, dict):
        raise RequestError("the request body must be a JSON object")
    _check_text(body, "")
    return body


def _check_text(value: object, path: str) -> None:
    """Every string of a parsed body, keys too, must be text that can be stored and shown (names the field)."""
    if isinstance(value, str):
        problem = text_error(value)
        if problem is not None:
            raise RequestError(f'"{path or "body"}" {problem}')
    elif isinstance(value, dict):
        for key, item in value.items():
            problem = text_error(key)
            if problem is not None:
                raise RequestError(f'a key of "{path or "body"}" {problem}')
            _check_text(item, f"{path}.{key}" if path else key)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _check_text(item, f"{path}[{i}]")


def error_response(exc: RequestError) -> JSONResponse:
    return JSONResponse({"error": str(exc)}, status_code=exc.status)


def limited_response(exc: LimitExceededError) -> JSONResponse:
    """429 naming the limit (its ``scmj serve`` flag) with ``Retry-After``."""
    return JSONResponse(
        {"error": str(exc), "limit": exc.limit, "retry_after": exc.retry_after},
        status_code=429,
        headers={"Retry-After": str(exc.retry_after)},
    )


def client_address(conn: HTTPConnection) -> str:
    return client_key(conn.client.host if conn.client else None)


class SourceMiddleware:
    """ASGI middleware: lines logged while serving a request or socket name its client (:data:`SOURCE`), the
    address after ``--forwarded-allow-ips`` applied a proxy's ``X-Forwarded-For``."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        client = scope.get("client")
        if scope["type"] in ("http", "websocket") and client:
            SOURCE.set(client_key(client[0]))
        await self.app(scope, receive, send)
