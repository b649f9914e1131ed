"""How the table looks: its widgets (``compose_table``) and their CSS, and ``TableView``, which fills them from
what seat 0 may see (``game.view(0)``, docs/rules.md R12) and what the screen keeps beside the game (``Marks``: the
cursor, the picked tiles, the message, the claim clock). No input and no game loop here: ``tui/app.py`` moves the
game, answers the keys and calls ``TableView.draw``.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widget import Widget
from textual.widgets import Static

from sichuan_mahjong.game import Action, ActionKind, Observation
from sichuan_mahjong.hints import WaitLeft, discard_waits, ready_waits
from sichuan_mahjong.text import action_text, bot_name, rules_name, seat_name, tile_text, tr
from sichuan_mahjong.tiles import Tile
from sichuan_mahjong.tui.badges import append_seat_badges, meld_texts, river_line
from sichuan_mahjong.tui.session import HUMAN, Table
from sichuan_mahjong.tui.widgets import Chip, TileView

__all__ = ["CLAIM_KEYS", "MAX_TILES", "TABLE_CSS", "Marks", "TableView", "compose_table", "prompt", "received_spots"]

MAX_TILES = 14  # concealed tiles a player can hold: 13 + the drawn one
CLAIM_KEYS: dict[str, ActionKind] = {
    "h": ActionKind.HU,
    "p": ActionKind.PUNG,
    "k": ActionKind.KONG,
    "x": ActionKind.PASS,
}
_KEY_OF: dict[ActionKind, str] = {kind: key for key, kind in CLAIM_KEYS.items()}
_KEY_OF.update({ActionKind.DECLARE_READY: "r", ActionKind.CONCEALED_KONG: "k", ActionKind.ADDED_KONG: "k"})

_CHIPS: tuple[tuple[str, str, str], ...] = (
    # key, chip id, word key: the word is the action's name in the chosen language
    ("enter", "chip-discard", "discard"),
    ("h", "chip-hu", "hu"),
    ("p", "chip-pung", "pung"),
    ("k", "chip-kong", "kong"),
    ("x", "chip-pass", "pass"),
    ("r", "chip-ready", "declare_ready"),
    ("a", "chip-hint", "hint"),
)
_CHIP_WORDS: dict[str, tuple[str, str]] = {
    "discard": ("回车 打出", "Enter discard"),
    "exchange": ("回车 换出三张", "Enter pass three"),
    "hu": ("h 胡", "h hu"),
    "pung": ("p 碰", "p pung"),
    "kong": ("k 杠", "k kong"),
    "pass": ("x 过", "x pass"),
    "declare_ready": ("r 报叫", "r ready"),
    "hint": ("a 提示", "a hint"),
}

TABLE_CSS = """
TableScreen { layout: vertical; }
#status { height: 1; background: $primary-background; color: $text; padding: 0 1; }
.seat { height: auto; padding: 0 1; }
.seat.-turn { background: $boost; }
#hand-row { height: 3; padding: 0 1; }
#hand-row.-flat { height: 1; }
#hand-row.-flat #hand-label { height: 1; padding: 0 1 0 0; }
#hand-row.-flat TileView { height: 1; border: none; margin: 0 1 0 0; }
#hand-row.-flat TileView.-cursor { border: none; text-style: bold reverse; }
#hand-row.-flat TileView.-picked { border: none; text-style: underline; }
#hand-row.-flat TileView.-received { border: none; color: $success; text-style: italic; }
#hand-row.-flat TileView.-drawn { margin: 0 1 0 2; }
#hand-label { width: auto; height: 3; padding: 1 1 0 0; }
#prompt { height: auto; padding: 0 1; color: $text; text-style: bold; }
#chips { height: 1; padding: 0 1; }
#message { height: 1; padding: 0 1; color: $error; text-style: bold; }
#log { height: 1fr; padding: 0 1; color: $text-muted; }
#keys { height: 1; padding: 0 1; background: $primary-background; color: $text-muted; }
"""


def compose_table() -> ComposeResult:
    """The table's widgets, top to bottom: status, the seats (yours last), your tiles, prompt, chips, message,
    log, keys. ``TableView.draw`` fills them by these ids."""
    yield Static(id="status", markup=False)
    for seat in (1, 2, 3, 0):
        yield Static(id=f"seat-{seat}", classes="seat", markup=False)
    with Horizontal(id="hand-row"):
        yield Static(id="hand-label", markup=False)
        for i in range(MAX_TILES):
            yield TileView(i)
    yield Static(id="prompt", markup=False)
    with Horizontal(id="chips"):
        for key, chip_id, _ in _CHIPS:
            yield Chip(key, chip_id)
    yield Static(id="message", markup=False)
    yield Static(id="log", markup=False)
    yield Static(id="keys", markup=False)


@dataclass(frozen=True)
class Marks:
    """What the screen keeps beside the game and the table shows."""

    cursor: int  # a position in ``view.tiles``, already within them
    picked: frozenset[int]  # positions picked for 换三张
    discarded: bool  # the player has discarded this hand (received tiles are no longer marked)
    message: str
    claim_deadline: float | None  # ``time.monotonic()`` by which an unanswered claim passes; None: no clock


def received_spots(view: Observation, tiles: Sequence[Tile], discarded: bool) -> set[int]:
    """Where the tiles received in 换三张 sit, until the player's first discard of the hand."""
    if view.exchanged is None or view.discards[HUMAN] or discarded:
        return set()
    left = list(view.exchanged[1])
    spots = set()
    for i, tile in enumerate(tiles):
        if tile in left:
            left.remove(tile)
            spots.add(i)
    return spots


def prompt(
    view: Observation, legal: Sequence[Action], lang: str, style: str, claim_deadline: float | None = None
) -> str:
    """What the player is asked now, with the keys of his answers (and the seconds left on a claim's clock)."""
    if view.is_over:
        return tr("hand_over", lang)
    if not legal:
        return tr("you_won", lang) if not view.active[HUMAN] else tr("waiting", lang)
    if view.phase == "exchange":
        return tr("exchange_prompt", lang)
    if view.phase == "void":
        return tr("void_prompt", lang)
    if view.phase == "declare":
        return tr("declare_prompt", lang)
    if view.phase in ("claim", "rob"):
        tile = tile_text(view.pending_tile, style).strip() if view.pending_tile else "?"
        key = "your_claim" if view.phase == "claim" else "your_rob"
        text = tr(key, lang, seat_name(view.turn, lang, HUMAN), tile)
        options = "  ".join(f"{_KEY_OF.get(a.kind, '')} {action_text(a, lang, style)}".strip() for a in legal)
        text = f"{text} {options}"
        if claim_deadline is not None:
            left = max(0, round(claim_deadline - time.monotonic()))
            text += f"   ({tr('timer', lang, left)})"
        return text
    extra = [f"{_KEY_OF[a.kind]} {action_text(a, lang, style)}" for a in legal if a.kind in _KEY_OF]
    text = tr("your_turn", lang)
    return f"{text}   [{'  '.join(extra)}]" if extra else text


class TableView:
    """Fills the widgets of ``compose_table`` under ``root`` (the table screen) from the table and the marks.

    It keeps one thing between draws: the waits of each discard, worked out once per moment of the game.
    """

    def __init__(self, root: Widget) -> None:
        self.root = root
        self._waits_at = (0, -1)  # the hand and its events count when the discards' waits were last worked out
        self._discard_waits: dict[Tile, tuple[WaitLeft, ...]] = {}

    def draw(self, table: Table, view: Observation, marks: Marks, log_lines: Sequence[str]) -> None:
        """Draw the whole table (``view`` is ``table.view()``): status, seats, hand, prompt and waits, chips,
        message, log and keys."""
        root = self.root
        lang, style = table.settings.lang, table.settings.tiles
        legal = table.legal
        rules = view.rules
        status = [
            tr("hand_of", lang, table.number, table.settings.hands),
            tr("seed", lang, table.settings.seed),
            rules_name(table.settings.preset, rules.mode, lang),
            tr("wall", lang, view.wall_count),
        ]
        root.query_one("#status", Static).update(" · ".join(status))
        for seat in range(4):
            self._draw_seat(table, seat, view)
        self._draw_hand(table, view, marks)
        waits = self._waits_line(table, view, legal, marks.cursor)
        text = prompt(view, legal, lang, style, marks.claim_deadline)
        root.query_one("#prompt", Static).update(text + (f"\n{waits}" if waits else ""))
        self._draw_chips(view, legal, lang)
        root.query_one("#message", Static).update(marks.message)
        log = root.query_one("#log", Static)
        room = log.content_size.height or 8  # the log takes the rest of the screen: show as much as fits
        log.update("\n".join(log_lines[-room:]))
        root.query_one("#keys", Static).update(tr("keys_exchange" if view.phase == "exchange" else "keys", lang))

    def _draw_seat(self, table: Table, seat: int, view: Observation) -> None:
        lang, style = table.settings.lang, table.settings.tiles
        pending = table.game.to_act()
        head = Text()
        name = seat_name(seat, lang, HUMAN)
        if seat != HUMAN:
            name += f" ({bot_name(table.settings.bots[seat - 1], lang)})"
        head.append(name, style="bold")
        if seat == view.dealer:
            head.append(f" [{tr('dealer', lang)}]", style="bold yellow")
        total = table.totals_before[seat] + view.scores[seat]
        head.append(f"  {tr('score', lang, view.scores[seat])}  {tr('total', lang, total)}")
        append_seat_badges(head, view, seat, lang, style)
        on_turn = not view.is_over and view.turn == seat and view.phase == "play"
        if on_turn:
            head.append(f"  {tr('on_turn', lang)}", style="bold reverse")
        elif not view.is_over and view.phase in ("claim", "rob") and seat in pending and seat != HUMAN:
            head.append(f"  {tr('claiming', lang)}", style="italic")
        melds = meld_texts(view, seat, lang, style)
        body = Text()
        body.append(f"{tr('melds', lang)}: ", style="dim")
        body.append("  ".join(melds) or "-")
        if seat != HUMAN:
            body.append(f"   ({view.concealed_counts[seat]})", style="dim")
        river = river_line(view, seat, lang, style)
        widget = self.root.query_one(f"#seat-{seat}", Static)
        widget.update(Text("\n").join([head, body, river]))
        widget.set_class(on_turn, "-turn")

    def _draw_hand(self, table: Table, view: Observation, marks: Marks) -> None:
        root, style = self.root, table.settings.tiles
        tiles = view.tiles
        asked = bool(table.legal)
        label = tr("your_hand", table.settings.lang)
        root.query_one("#hand-label", Static).update(label)
        # Tiles in boxes need 2 cells each more than flat ones: a narrow terminal gets the flat row.
        widest = max(cell_len(tile_text(Tile(t), style)) for t in range(27))
        boxed = cell_len(label) + 4 + MAX_TILES * (widest + 2) + 2
        root.query_one("#hand-row").set_class(boxed > root.app.size.width, "-flat")
        received = received_spots(view, tiles, marks.discarded)
        for i in range(MAX_TILES):
            widget = root.query_one(f"#tile-{i}", TileView)
            widget.set_class(i in received, "-received")
            if i < len(tiles):
                widget.update(tile_text(tiles[i], style).rstrip() or "?")
                widget.set_class(False, "-hidden")
                widget.set_class(asked and i == marks.cursor and view.phase in ("play", "exchange"), "-cursor")
                widget.set_class(i in marks.picked, "-picked")
                widget.set_class(view.drawn is not None and i == len(tiles) - 1, "-drawn")
            else:
                widget.set_class(True, "-hidden")

    def _waits_line(self, table: Table, view: Observation, legal: Sequence[Action], cursor: int) -> str:
        """When the hand is ready: its waits and how many of each are left (听 3m×2 6m×3); on a discard turn,
        what discarding the tile under the cursor would wait on."""
        lang, style = table.settings.lang, table.settings.tiles
        if view.is_over or not view.active[HUMAN]:
            return ""

        def listed(waits: Sequence[WaitLeft]) -> tuple[str, int]:
            return " ".join(f"{tile_text(w.tile, style).strip()}×{w.left}" for w in waits), sum(w.left for w in waits)

        if view.phase == "play" and any(a.kind is ActionKind.DISCARD for a in legal):
            at = (id(table.game), len(table.game.events))
            if self._waits_at != at:
                self._waits_at, self._discard_waits = at, discard_waits(view)
            tiles = view.tiles
            if not 0 <= cursor < len(tiles):
                return ""
            under = tiles[cursor]
            waits = self._discard_waits.get(under)
            return tr("waits_if", lang, tile_text(under, style).strip(), *listed(waits)) if waits else ""
        ready = ready_waits(view)
        return tr("waits_now", lang, *listed(ready)) if ready else ""

    def _draw_chips(self, view: Observation, legal: Sequence[Action], lang: str) -> None:
        kinds = {a.kind for a in legal}
        lit = {
            "chip-discard": ActionKind.DISCARD in kinds or ActionKind.EXCHANGE in kinds,
            "chip-hu": ActionKind.HU in kinds,
            "chip-pung": ActionKind.PUNG in kinds,
            "chip-kong": bool(kinds & {ActionKind.KONG, ActionKind.CONCEALED_KONG, ActionKind.ADDED_KONG}),
            "chip-pass": ActionKind.PASS in kinds,
            "chip-ready": ActionKind.DECLARE_READY in kinds,
            "chip-hint": bool(kinds & {ActionKind.DISCARD, ActionKind.HU, ActionKind.PUNG, ActionKind.KONG}),
        }
        for _, chip_id, word in _CHIPS:
            chip = self.root.query_one(f"#{chip_id}", Chip)
            zh, en = _CHIP_WORDS["exchange" if word == "discard" and view.phase == "exchange" else word]
            chip.update(zh if lang == "zh" else en)
            chip.set_class(lit[chip_id], "-legal")
