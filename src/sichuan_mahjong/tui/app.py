"""The terminal table (Textual): the player at seat 0 against three bots, keyboard first, mouse too.

Everything the table shows of the hand in play comes from ``game.view(0)`` and the events filtered for
seat 0 (docs/rules.md R12); only the end-of-hand screen shows every hand, once the hand is over.

Keys on the table (the help screen, ``?``, lists them in the chosen language):

========================  ==========================================================================
←/→, Home/End             move the cursor over your tiles
1-9 then m/p/s            put the cursor on that tile (``5p``)
Enter                     discard the tile under the cursor; in 换三张, pass the three picked tiles
Space                     pick or unpick a tile for 换三张
h / p / k / x             hu, pung, kong (also 暗杠/补杠 of the tile under the cursor), pass
r                         declare ready (报叫)
m / p / s                 in 定缺, the void suit
a                         the advisor: its table on your discard turn, one line on a claim
t / l                     tile style (compact, 中文, glyphs) / language
o, ?, q                   settings, help, quit (asks first while a hand is in play)
========================  ==========================================================================

Every key the table does not know, and every choice the rules refuse, is answered by a message on screen;
the game is unchanged.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from textual import events
from textual.app import App, ComposeResult
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Static

from sichuan_mahjong.game import Action, ActionKind, Event, IllegalActionError
from sichuan_mahjong.hints import NothingToAdviseError, advise_view
from sichuan_mahjong.record import RecordError
from sichuan_mahjong.refusals import refusal
from sichuan_mahjong.text import (
    LANGS,
    TILE_STYLES,
    action_text,
    describe_event,
    seat_name,
    tile_text,
    tiles_line,
    tr,
)
from sichuan_mahjong.tiles import Tile
from sichuan_mahjong.tui.hand_over import HandOverScreen, replays_of_summary
from sichuan_mahjong.tui.pages import ConfirmScreen, TextScreen, help_text
from sichuan_mahjong.tui.replay import HandReplay
from sichuan_mahjong.tui.replay_screen import ReplayScreen
from sichuan_mahjong.tui.session import HUMAN, HandSummary, NotAskedError, Table
from sichuan_mahjong.tui.settings import PlaySettings, save_settings
from sichuan_mahjong.tui.settings_screen import SettingsScreen
from sichuan_mahjong.tui.table_view import CLAIM_KEYS, TABLE_CSS, Marks, TableView, compose_table

__all__ = ["HandOverScreen", "MahjongApp", "SettingsScreen", "TableScreen", "replays_of_summary"]

LOG_LINES = 200


class TableScreen(Screen[None]):
    """The table: four seats, the player's hand, what he may do now, and a log of the play."""

    DEFAULT_CSS = TABLE_CSS

    def __init__(self, table: Table) -> None:
        super().__init__()
        self.table = table
        self.cursor = 0
        self.picked: set[int] = set()
        self.rank_typed: int | None = None
        self.message = ""
        self.log_events: list[Event] = []  # kept as data: a language switch re-renders every line
        self.last_summary: HandSummary | None = None  # the last finished hand, for its replay (v)
        self._turn_at = -1  # events count when the cursor was last put on the drawn tile
        self._bot_timer: Timer | None = None
        self._claim_timer: Timer | None = None
        self._claim_deadline = 0.0
        self._claim_at = -1
        self._showing_summary = False
        self._discarded = False  # the player has discarded this hand (received tiles are no longer marked)
        self._table_view = TableView(self)

    # ------------------------------------------------------------------------------------------ layout
    @property
    def settings(self) -> PlaySettings:
        return self.table.settings

    @property
    def lang(self) -> str:
        return self.table.settings.lang

    @property
    def style(self) -> str:
        return self.table.settings.tiles

    def compose(self) -> ComposeResult:
        yield from compose_table()

    def on_mount(self) -> None:
        self.pump()

    def on_resize(self, event: events.Resize) -> None:
        self.refresh_table()

    # ------------------------------------------------------------------------------------ the game loop
    def pump(self) -> None:
        """Move the game on: let the bots play (one move per ``delay``), then wait for the player or show the end."""
        table = self.table
        if self._bot_timer is not None:
            return  # a bot move is already scheduled
        if table.settings.delay <= 0:
            for _ in range(10_000):
                if not table.step_bots():
                    break
        elif table.bots_to_move:
            delay = table.settings.delay
            if not table.view().active[HUMAN]:
                delay = min(delay, 0.1)  # the player has won (血战): the rest goes quicker
            self._bot_timer = self.set_timer(delay, self._bot_tick)
        self._collect_log()
        self._arm_claim_timer()
        self.refresh_table()
        if table.game.is_over and not self._showing_summary and self._bot_timer is None:
            self._showing_summary = True
            self.last_summary = table.finish()
            self.app.push_screen(HandOverScreen(self.last_summary, table), self._after_summary)

    def _bot_tick(self) -> None:
        if self.app.screen is not self:  # help, hint, settings or a replay on top: the table waits for the player
            self._bot_timer = self.set_timer(0.2, self._bot_tick)
            return
        self._bot_timer = None
        self.table.step_bots()
        self.pump()

    def _after_summary(self, result: str | None) -> None:
        self._showing_summary = False
        if result == "quit":
            self.leave()
            return
        if self.table.match_over:
            self.table = Table(self.table.settings.replace(seed=self.table.settings.seed + 1))
        else:
            self.table.next_hand()
        self.log_events.clear()
        self._reset_hand_state()
        self.pump()

    def _reset_hand_state(self) -> None:
        self._discarded = False
        self.cursor = 0
        self.picked.clear()
        self.rank_typed = None
        self.message = ""
        self._turn_at = -1

    def new_table(self, settings: PlaySettings) -> None:
        """Start a new match with new settings (the hand in play is abandoned)."""
        if self._bot_timer is not None:
            self._bot_timer.stop()
            self._bot_timer = None
        self.table = Table(settings)
        self.log_events.clear()
        self._reset_hand_state()
        self.pump()

    def _arm_claim_timer(self) -> None:
        """With a timer set, a claim the player does not answer in time passes (never a discard turn)."""
        timer = self.table.settings.timer
        view = self.table.view()
        asked = bool(self.table.legal)
        if timer is None or not asked or view.phase not in ("claim", "rob"):
            if self._claim_timer is not None:
                self._claim_timer.stop()
                self._claim_timer = None
            return
        at = len(self.table.game.events)
        if self._claim_at == at and self._claim_timer is not None:
            return
        if self._claim_timer is not None:
            self._claim_timer.stop()
        self._claim_at = at
        self._claim_deadline = time.monotonic() + timer
        self._claim_timer = self.set_interval(0.25, self._claim_tick)

    def _claim_tick(self) -> None:
        if self._claim_at != len(self.table.game.events):
            return
        if self.app.screen is not self:  # the clock stops while another page is on top
            self._claim_deadline += 0.25
            return
        if time.monotonic() >= self._claim_deadline:
            if self._claim_timer is not None:
                self._claim_timer.stop()
                self._claim_timer = None
            pass_action = Action.parse("pass")
            if pass_action in self.table.legal:
                self.play(pass_action)
            return
        self.refresh_table()

    def _collect_log(self) -> None:
        self.log_events += [e for e in self.table.new_events() if describe_event(e, "en", "compact") is not None]
        del self.log_events[:-LOG_LINES]

    @property
    def log_lines(self) -> list[str]:
        """The log in the language and tile style chosen now (the events are kept, not their words)."""
        lines = (describe_event(e, self.lang, self.style, HUMAN) for e in self.log_events)
        return [line for line in lines if line is not None]

    # ---------------------------------------------------------------------------------------- drawing
    def refresh_table(self) -> None:
        """Keep the cursor and the picks on the tiles (on a new discard turn, on the drawn tile), then draw."""
        table = self.table
        view = table.view()
        if table.legal and view.phase == "play" and view.drawn is not None and self._turn_at != len(table.game.events):
            self._turn_at = len(table.game.events)
            self.cursor = len(view.tiles) - 1
        self.cursor = max(0, min(self.cursor, len(view.tiles) - 1))
        self.picked = {p for p in self.picked if p < len(view.tiles)}
        clock = table.settings.timer is not None and self._claim_timer is not None
        marks = Marks(
            self.cursor, frozenset(self.picked), self._discarded, self.message, self._claim_deadline if clock else None
        )
        self._table_view.draw(table, view, marks, self.log_lines)

    # ------------------------------------------------------------------------------------------ input
    def say(self, text: str) -> None:
        self.message = text
        self.query_one("#message", Static).update(text)

    def on_key(self, event: events.Key) -> None:
        event.stop()
        event.prevent_default()
        self.press_key(event.key, event.character)

    def press_key(self, key: str, character: str | None = None) -> None:
        """Every key of the table comes here (mouse chips too); unknown keys get a message, never an error."""
        self.message = ""
        handler = self._handlers().get(key)
        if handler is not None:
            if key not in ("m", "p", "s") and not key.isdigit():
                self.rank_typed = None
            handler()
        else:
            self.rank_typed = None
            shown = character if character and character.isprintable() else key
            self.message = tr("bad_key", self.lang, shown)
        self.refresh_table()

    def _handlers(self) -> dict[str, Callable[[], None]]:
        handlers: dict[str, Callable[[], None]] = {
            "left": lambda: self.move(-1),
            "right": lambda: self.move(1),
            "home": lambda: self.move(-99),
            "end": lambda: self.move(99),
            "enter": self.enter,
            "space": self.toggle_pick,
            "h": lambda: self.claim("h"),
            "p": lambda: self.suit_key("p"),
            "m": lambda: self.suit_key("m"),
            "s": lambda: self.suit_key("s"),
            "k": self.kong,
            "x": lambda: self.claim("x"),
            "r": self.declare_ready,
            "a": self.hint,
            "t": self.cycle_tiles,
            "l": self.cycle_lang,
            "o": self.open_settings,
            "v": self.open_replay,
            "question_mark": self.open_help,
            "q": self.quit,
            "ctrl+c": lambda: setattr(self, "message", tr("how_to_quit", self.lang)),
            "escape": self.clear,
        }
        for d in range(1, 10):
            handlers[str(d)] = lambda d=d: self.type_rank(d)  # type: ignore[misc]
        return handlers

    def move(self, delta: int) -> None:
        n = len(self.table.view().tiles)
        if n:
            self.cursor = max(0, min(n - 1, self.cursor + delta))

    def click_tile(self, position: int) -> None:
        view = self.table.view()
        self.message = ""
        if position >= len(view.tiles):
            return
        if view.phase == "exchange" and self.table.legal:
            self.cursor = position
            self.toggle_pick()
        elif position == self.cursor and view.phase == "play" and self.table.legal:
            self.enter()
        else:
            self.cursor = position
        self.refresh_table()

    def clear(self) -> None:
        self.picked.clear()
        self.rank_typed = None

    def type_rank(self, rank: int) -> None:
        self.rank_typed = rank

    def suit_key(self, suit: str) -> None:
        """m, p, s: the suit of a typed tile (``5p``), the void suit in 定缺; p alone is pung."""
        if self.rank_typed is not None:
            tile = Tile.of(suit, self.rank_typed)
            self.rank_typed = None
            tiles = self.table.view().tiles
            spots = [i for i, t in enumerate(tiles) if t == tile]
            if not spots:
                self.message = tr("no_tile", self.lang, tile_text(tile, self.style).strip())
                return
            self.cursor = spots[-1]
            return
        if self.table.view().phase == "void" and self.table.legal:
            self.play(Action.void(suit))
            return
        if suit == "p":
            self.claim("p")
            return
        self.message = tr("bad_key", self.lang, suit)

    def toggle_pick(self) -> None:
        view = self.table.view()
        if view.phase != "exchange" or not self.table.legal:
            self.message = tr("bad_key", self.lang, "Space")
            return
        if self.cursor in self.picked:
            self.picked.remove(self.cursor)
        elif len(self.picked) < 3:
            self.picked.add(self.cursor)

    def enter(self) -> None:
        table = self.table
        view = table.view()
        if view.is_over:
            self.pump()
            return
        legal = table.legal
        tiles = view.tiles
        if view.phase == "exchange" and legal:
            picked = [tiles[i] for i in sorted(self.picked)]
            try:
                action = Action.exchange_of([t.index for t in picked])
            except ValueError:
                action = None
            if len(picked) != 3 or action is None or action not in legal:
                self.message = tr("pick_three", self.lang, tiles_line(picked, self.style) or "-")
                return
            self.picked.clear()
            self.play(action)
            return
        self.play(Action.discard(tiles[self.cursor]))

    def claim(self, key: str) -> None:
        kind = CLAIM_KEYS[key]
        legal = self.table.legal
        found = [a for a in legal if a.kind is kind]
        if not found and kind is ActionKind.PASS and self.table.view().phase == "declare":
            found = [a for a in legal if a.kind is ActionKind.PASS]
        if not found:
            self.play(Action.parse({"h": "hu", "p": "pung", "k": "kong", "x": "pass"}[key]))  # says why not
            return
        self.play(found[0])

    def kong(self) -> None:
        legal = self.table.legal
        if any(a.kind is ActionKind.KONG for a in legal):
            self.claim("k")
            return
        kongs = [a for a in legal if a.kind in (ActionKind.CONCEALED_KONG, ActionKind.ADDED_KONG)]
        if not kongs:
            self.play(Action.parse("kong"))  # refused with the reason
            return
        if len(kongs) == 1:
            self.play(kongs[0])
            return
        tiles = self.table.view().tiles
        under = tiles[self.cursor] if tiles else None
        mine = [a for a in kongs if a.tile == under]
        if mine:
            self.play(mine[0])
            return
        self.message = tr("pick_kong", self.lang, "  ".join(action_text(a, self.lang, self.style) for a in kongs))

    def declare_ready(self) -> None:
        self.play(Action.parse("declare_ready"))

    def play(self, action: Action) -> None:
        """Send the player's answer; a refusal by the rules becomes a message and nothing changes.

        The table checks the legal answers itself and words a refusal for a player (refusals.py), in the
        table's language; only a refusal it has no words for shows the engine's (English) reason.
        """
        why = refusal(action, self.table.view(), self.lang, self.style)
        if why is not None:
            self.message = why
            return
        try:
            self.table.answer(action)
        except NotAskedError:
            self.message = tr("not_asked", self.lang)
            return
        except IllegalActionError as exc:
            reason = str(exc).split(": ", 1)[-1]
            self.message = tr("cannot", self.lang, action_text(action, self.lang, self.style), reason)
            return
        self.picked.clear()
        self._discarded = self._discarded or action.kind is ActionKind.DISCARD
        self.pump()

    def hint(self) -> None:
        """The advisor: on a discard turn its table (recommendation first); on a claim its word (pung or pass)."""
        view = self.table.view()
        lang = self.lang
        try:
            advice = advise_view(view, style=self.style)
        except NothingToAdviseError:
            self.message = tr("hint_only_turn", lang)
            return
        if advice.discards is None:
            self.message = tr("claim_hint", lang, advice.reason(lang))
            return
        body = advice.discards.table(lang, self.style)
        if advice.recommended.action.kind is not ActionKind.DISCARD:  # a win or a kong comes before any discard
            body = f"{tr('advice', lang)}{advice.reason(lang)}\n{body}"
        self.app.push_screen(TextScreen(tr("hint_title", lang), body, lang))

    def cycle_tiles(self) -> None:
        style = TILE_STYLES[(TILE_STYLES.index(self.style) + 1) % len(TILE_STYLES)]
        self.table.settings = self.table.settings.replace(tiles=style)
        self.keep_settings()

    def cycle_lang(self) -> None:
        lang = LANGS[(LANGS.index(self.lang) + 1) % len(LANGS)]
        self.table.settings = self.table.settings.replace(lang=lang)
        self.keep_settings()

    def keep_settings(self) -> None:
        """Keep the settings for the next run (the user's config folder); a failure is said, play goes on."""
        try:
            save_settings(self.table.settings)
        except OSError as exc:
            self.message = tr("settings_not_kept", self.lang, exc.strerror or exc)

    def open_settings(self) -> None:
        self.app.push_screen(SettingsScreen(self.table.settings), self._after_settings)

    def _after_settings(self, settings: PlaySettings | None) -> None:
        if settings is None:
            return
        if settings.needs_new_match(self.table.settings):
            self.new_table(settings)
            self.message = tr("new_match", self.lang)
        else:
            self.table.settings = settings
            self.message = tr("display_applied", self.lang)
        self.keep_settings()
        self.refresh_table()

    def open_help(self) -> None:
        self.app.push_screen(TextScreen(tr("help", self.lang), help_text(self.lang), self.lang))

    def open_replay(self) -> None:
        """The last finished hand, step by step, from its record."""
        summary = self.last_summary
        if summary is None:
            self.message = tr("no_replay", self.lang)
            return
        try:
            hands = replays_of_summary(summary)
        except RecordError as exc:
            self.message = str(exc)
            return
        self.app.push_screen(ReplayScreen(hands, self.lang, self.style))

    def quit(self) -> None:
        """Quit, asking first while a hand is in play (it is then saved as it stands, marked unfinished)."""
        if self.table.game.is_over:
            self.leave()
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self.leave()

        self.app.push_screen(ConfirmScreen(tr("quit_confirm", self.lang), self.lang), answered)

    def leave(self) -> None:
        """Save a hand in play, leave what to print on the way out (totals, the record's path), and exit."""
        saved = None
        lang = self.lang
        try:
            path = self.table.save_unfinished()
            if path is not None:
                saved = tr("saved_unfinished", lang, path)
        except OSError as exc:
            saved = tr("save_failed", lang, f"{exc.filename or self.table.settings.records}: {exc.strerror or exc}")
        last = self.last_summary
        if saved is None and last is not None and last.record is not None:
            saved = tr("saved", lang, last.record)
        totals = "   ".join(f"{seat_name(s, lang, HUMAN)} {t:+d}" for s, t in enumerate(self.table.totals))
        lines = [f"{tr('totals', lang)}{'：' if lang == 'zh' else ': '}{totals}"]
        if saved is not None:
            lines.append(saved)
        review = self.table.review_command()
        if self.table.match_over and review is not None:
            lines.append(tr("review_hint", lang, review))
        app = self.app
        if isinstance(app, MahjongApp):
            app.farewell = lines
        app.exit()


class MahjongApp(App[None]):
    """``scmj play``: one table, then the next hand, until the player quits."""

    TITLE = "Sichuan mahjong"
    CSS = """
    Screen { background: $background; }
    """

    def __init__(self, settings: PlaySettings, replay: Sequence[HandReplay] | None = None) -> None:
        super().__init__()
        self.settings = settings
        self.replay = list(replay) if replay else None  # ``scmj play --replay FILE``: only the replay screen
        self.farewell: list[str] = []  # printed by ``scmj play`` once the terminal is back: totals, record

    def on_mount(self) -> None:
        if self.replay:
            self.push_screen(ReplayScreen(self.replay, self.settings.lang, self.settings.tiles), self._replay_closed)
            return
        self.push_screen(TableScreen(Table(self.settings)))

    def _replay_closed(self, _: None) -> None:
        self.exit()

    async def action_quit(self) -> None:
        """Ctrl+Q: quit at once, saving a hand in play as q does."""
        try:
            table = self.table_screen
        except LookupError:
            self.exit()
            return
        table.leave()

    @property
    def table_screen(self) -> TableScreen:
        for screen in self.screen_stack:
            if isinstance(screen, TableScreen):
                return screen
        raise LookupError("no table on screen")
