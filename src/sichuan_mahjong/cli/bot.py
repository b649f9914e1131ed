"""``scmj bot``: a bot takes a free seat of a web room and plays it over the web protocol (docs/protocol.md,
"A bot from outside"), reconnecting with its token when the connection drops.

It joins with ``POST /api/rooms/{code}/seats`` (or reuses ``--seat-token``), opens ``/ws/{code}?token=...`` and
answers every ``view`` that carries legal actions with the agent's choice from that view — the seat's
:class:`~sichuan_mahjong.game.view.Observation`, read back from the JSON (``server/wire.py``
``observation_from_json``), exactly what the seat may see — sending the ``seq`` of the view it answers. After
``hand_over`` it sends ``next``; at ``match_over`` it prints the totals and ends with status 0. Needs the extra
``web`` (websockets).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import sys
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

from sichuan_mahjong.agents import Agent, agent_names, make_agent

#: Seconds between reconnect attempts: doubling from the first to the last, then the last again.
BACKOFF = (0.5, 1.0, 2.0, 4.0, 8.0)
#: Failed connects in a row (nothing received) after which the bot gives up.
MAX_FAILURES = 12
#: Close codes after which reconnecting cannot help: a wrong room or token, another connection took the seat.
FINAL_CLOSES = {4401: "the room or the token is not known", 4409: "another connection took this seat"}


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "bot",
        help="play a free seat of a web room (scmj serve) with a bot, over the web protocol",
        description="Join a room's free seat (or the seat of --seat-token) on a running scmj serve and play it "
        "with a bot until the match is over, reconnecting with the same token when the connection drops. Bots: "
        f"{', '.join(agent_names())}, or module:factory for your own. Needs the 'web' extra (websockets).",
    )
    p.add_argument("--url", default="http://127.0.0.1:8000", help="the server (default http://127.0.0.1:8000)")
    p.add_argument("--room", required=True, metavar="CODE", help="the room's code")
    p.add_argument("--agent", default="expert", metavar="BOT", help="a bot name or module:factory (default expert)")
    p.add_argument("--name", default=None, help="the seat's name at the table (default: the bot's name)")
    p.add_argument("--seat-token", default=None, metavar="TOKEN", help="play the seat of this token (no join)")
    p.add_argument("--seed", type=int, default=None, help="the bot's seed (default: fresh entropy)")


def _http_base(url: str) -> str:
    from sichuan_mahjong.cli import UsageError

    parts = urllib.parse.urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise UsageError(f"--url must be http://HOST:PORT or https://HOST, got {url!r}")
    return f"{parts.scheme}://{parts.netloc}{parts.path.rstrip('/')}"


def _join(base: str, room: str, name: str) -> tuple[int, str]:
    """POST /api/rooms/{room}/seats: the seat and its token, or a UsageError saying why not."""
    from sichuan_mahjong.cli import UsageError

    body = json.dumps({"name": name}).encode()
    request = urllib.request.Request(
        f"{base}/api/rooms/{urllib.parse.quote(room)}/seats",
        data=body,
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            data = json.loads(response.read())
    except urllib.error.HTTPError as exc:
        detail = ""
        with contextlib.suppress(ValueError, AttributeError):
            detail = str(json.loads(exc.read()).get("error", ""))
        words = {404: f"no room {room!r} on {base}", 409: f"room {room!r} has no free seat"}.get(exc.code, "")
        raise UsageError(f"joining room {room!r}: HTTP {exc.code} {words or detail}".rstrip()) from None
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise UsageError(f"cannot reach {base}: {reason}") from None
    return int(data["seat"]), str(data["token"])


def _ws_url(base: str, room: str, token: str) -> str:
    scheme = "wss" if base.startswith("https") else "ws"
    rest = base.split("://", 1)[1]
    return f"{scheme}://{rest}/ws/{urllib.parse.quote(room)}?token={urllib.parse.quote(token)}"


class BotClient:
    """One seat played over the protocol: ``play()`` until ``match_over`` (True) or a final refusal."""

    def __init__(self, url: str, agent: Agent, *, log: Any = None) -> None:
        self.url = url
        self.agent = agent
        self.log = log or sys.stderr
        self.connects = 0
        self.answers = 0
        self.totals: list[int] | None = None

    def say(self, text: str) -> None:
        print(f"scmj bot: {text}", file=self.log, flush=True)

    def answer(self, message: dict[str, Any]) -> dict[str, Any]:
        """The ``act`` for a ``view`` message that asks something."""
        from sichuan_mahjong.server.wire import observation_from_json

        legal_text = list(message["legal"])
        view = observation_from_json(message["view"], legal_text)
        action = self.agent.act(view, view.legal)
        if action not in view.legal:
            raise ValueError(f"the bot answered {action}, not one of {', '.join(legal_text)}")
        return {"type": "act", "action": str(action), "seq": message["seq"]}

    async def session(self) -> tuple[bool, int | None, bool]:
        """One connection: (match over, close code, anything received)."""
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed

        received = False
        try:
            async with connect(self.url, open_timeout=10, max_size=2**22) as ws:
                self.connects += 1
                if self.connects > 1:
                    self.say(f"reconnected (connection {self.connects})")
                async for raw in ws:
                    received = True
                    m = json.loads(raw)
                    kind = m.get("type")
                    if kind == "view" and m.get("legal"):
                        await ws.send(json.dumps(self.answer(m)))
                        self.answers += 1
                    elif kind == "hand_over":
                        deltas = m["result"]["deltas"]
                        self.say(f"hand {m['hand_no']} over: {' '.join(f'{d:+d}' for d in deltas)}")
                        await ws.send(json.dumps({"type": "next"}))
                    elif kind == "match_over":
                        self.totals = list(m["totals"])
                        return True, None, received
                    elif kind == "error" and m.get("code") not in ("stale", "answered"):
                        # stale / answered: a newer view is on its way; anything else is worth a line
                        self.say(f"the server said {m.get('code')}: {m.get('message', '')}")
                        if m.get("code") == "auth":
                            return False, 4401, received
            return False, None, received
        except ConnectionClosed as exc:
            code = exc.rcvd.code if exc.rcvd is not None else None
            return False, code, received
        except (TimeoutError, OSError) as exc:
            self.say(f"connection failed: {exc}")
            return False, None, received

    async def play(self) -> bool:
        failures = 0
        while True:
            over, code, received = await self.session()
            if over:
                return True
            if code in FINAL_CLOSES:
                self.say(f"closed {code}: {FINAL_CLOSES[code]}")
                return False
            failures = 0 if received else failures + 1
            if failures >= MAX_FAILURES:
                self.say(f"gave up after {failures} failed connects")
                return False
            delay = BACKOFF[min(failures, len(BACKOFF) - 1)]
            self.say(f"connection lost{f' ({code})' if code else ''}; reconnecting in {delay:g} s")
            await asyncio.sleep(delay)


def run(args: argparse.Namespace) -> int:
    from sichuan_mahjong.cli import UsageError

    try:
        import websockets  # noqa: F401
    except ImportError:
        raise UsageError("scmj bot needs the extra 'web' (websockets): pip install -e '.[web]'") from None
    agent = make_agent(args.agent, seed=args.seed)  # a wrong name or spec is named here, before joining
    base = _http_base(args.url)
    room = args.room.strip()
    if not room:
        raise UsageError("--room is empty")
    if args.seat_token:
        token = args.seat_token
        print(f"scmj bot: playing room {room} with the token given, as {agent.name}", file=sys.stderr, flush=True)
    else:
        seat, token = _join(base, room, args.name or agent.name)
        print(f"scmj bot: seat {seat} of room {room} as {agent.name}; token {token}", file=sys.stderr, flush=True)
    client = BotClient(_ws_url(base, room, token), agent)
    if not asyncio.run(client.play()):
        return 1
    print(f"match over: totals {' '.join(f'{t:+d}' for t in client.totals or [])}; {client.answers} answers")
    return 0
