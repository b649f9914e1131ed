"""The table as text for ``render()``: the public table and one seat's own tiles, from that seat's view only.

>>> import sichuan_mahjong as sm
>>> game = sm.Game(sm.Rules.preset("app"), seed=7)
>>> print(table_text(game.view(2)))  # doctest: +ELLIPSIS
rules app (bloody_kong) | phase exchange | wall 55 | dealer player_1
player_0  concealed 13  score +0
player_1  concealed 14  score +0
player_2  concealed 13  score +0
player_3  concealed 13  score +0
player_2 holds 5m 9m 1p 3p 4p 6p 7p 8p 1s 5s 6s 7s 9s
legal: exchange 134p, exchange 136p, ..., exchange 378p, ... (30 in all)
"""

from __future__ import annotations

from typing import Final

from sichuan_mahjong.describe import tiles_line
from sichuan_mahjong.game.view import Observation
from sichuan_mahjong.rules import PRESETS
from sichuan_mahjong.text import meld_text
from sichuan_mahjong.tiles import SUITS

__all__ = ["rendered", "table_text"]

_STYLE: Final = "compact"
_SHOWN_LEGAL: Final = 16
_DOING: Final = {"play": "on turn", "claim": "discarding", "rob": "adding a kong"}


def _rules_name(view: Observation) -> str:
    names = [name for name, rules in PRESETS.items() if rules == view.rules]
    return f"rules {names[0]} ({view.rules.mode})" if names else f"rules {view.rules.mode} (custom)"


def table_text(view: Observation, names: tuple[str, ...] = ("player_0", "player_1", "player_2", "player_3")) -> str:
    """Every seat's public facts (melds, river, void, 报叫, wins, score), then this seat's tiles and answers."""
    lines = [f"{_rules_name(view)} | phase {view.phase} | wall {view.wall_count} | dealer {names[view.dealer]}"]
    for s in range(4):
        facts = [names[s], f"concealed {view.concealed_counts[s]}", f"score {view.scores[s]:+d}"]
        void = view.voids[s]
        if void is not None:
            facts.append(f"void {SUITS[void]}")
        if view.ready[s]:
            facts.append("ready (报叫)")
        facts += [f"won on {w.tile} ({w.fan} fan)" for w in view.wins if w.seat == s]
        if view.phase in ("play", "claim", "rob") and view.turn == s:
            facts.append(_DOING[view.phase])
        melds = [meld_text(m, "en", _STYLE) for m in view.melds[s]]
        if view.hidden_kongs[s]:
            melds.append(f"{view.hidden_kongs[s]} concealed kong(s)")
        lines.append("  ".join(facts))
        if melds:
            lines.append(f"    melds: {', '.join(melds)}")
        if view.discards[s]:
            lines.append(f"    river: {tiles_line(view.discards[s], _STYLE)}")
    me = names[view.seat]
    hand = tiles_line(view.hand, _STYLE)
    drawn = f" + drew {view.drawn}" if view.drawn is not None else ""
    lines.append(f"{me} holds {hand}{drawn}")
    if view.pending_tile is not None:
        lines.append(f"pending tile: {view.pending_tile}")
    if view.pass_lock is not None:
        lines.append(f"过水 lock: a win must beat {view.pass_lock} fan")
    if view.legal:
        shown = ", ".join(str(a) for a in view.legal[:_SHOWN_LEGAL])
        more = f", ... ({len(view.legal)} in all)" if len(view.legal) > _SHOWN_LEGAL else ""
        lines.append(f"legal: {shown}{more}")
    return "\n".join(lines)


def rendered(
    mode: str | None, view: Observation, names: tuple[str, ...] = ("player_0", "player_1", "player_2", "player_3")
) -> str | None:
    """What an environment's ``render()`` gives for ``mode``: the table text for ``ansi``; for ``human`` it is
    printed and None returned; None when the environment renders nothing."""
    if mode is None:
        return None
    text = table_text(view, names)
    if mode == "human":
        print(text)
        return None
    return text
