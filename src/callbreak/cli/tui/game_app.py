"""The Textual app for ``callbreak play --game NAME``: one person against bots at a related game.

One screen for every related game (Batak Ihaleli, Batak Koz Maca, Snarples, Donut, Horsethief)
at every table size: it draws the person's :class:`~callbreak.games.GameView` through
:mod:`callbreak.cli.tui.render_game` and turns keys and clicks into the view's legal actions.
Whatever the phase, the same scheme works: ←/→ and Enter choose from what is on screen, and
each phase has direct keys shown on the bottom line (p pass, s/h/d/c trump, y/n play or not,
m/o for the Snarples settlement, Space or 1-5 to mark Horsethief discards). The game checks
everything (``apply`` verifies first), so a refused key is a message, never a crash.
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Any

from rich.console import Group
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.widgets import Static

from callbreak.cli.tui import render, render_game
from callbreak.cli.tui.game_session import GameSession
from callbreak.cli.tui.session import Turn
from callbreak.cli.tui.widgets import Clickable, Fitted, newest_lines
from callbreak.core import CallbreakError, Card
from callbreak.core.actions import Play
from callbreak.core.cards import Suit
from callbreak.games import Bid, Exchange, GamePhase, GameView, Join, NameTrump, Pass, Settle

HELP = ("Cards: ←/→ and Enter, click, or type a card (QH, 10S) or its number. Menus (bids, trump, "
        "play or not): ←/→ and Enter, click, or the keys on the bottom line. Horsethief exchange: "
        "mark discards with Space or their numbers, Enter exchanges them (none marked: keep all). "
        "i asks the search bot for a hint. Saved after every move; `callbreak play --resume`.")

MENU_PHASES = (GamePhase.AUCTION, GamePhase.TRUMP, GamePhase.JOIN, GamePhase.SETTLE)


class GamePlayApp(App[None]):
    """A whole related game in the terminal. ``delay`` paces bot moves (0 = instant)."""

    CSS = """
    Screen { layout: vertical; }
    #title { height: 1; background: $primary-darken-2; color: $text; padding: 0 1; }
    #table { height: 1fr; min-height: 10; padding: 0 1; }
    #status { height: 3; padding: 0 1; color: $text-muted; }
    #hand { height: 2; padding: 0 1; }
    #hand, #prompt { link-style: none; link-color: initial; link-background: initial;
                     link-style-hover: bold reverse; }
    #prompt { height: 2; padding: 0 1; }
    #keys { height: 1; padding: 0 1; background: $primary-darken-3; color: $text-muted; }
    """

    def __init__(self, session: GameSession, *, delay: float = 0.8, think: float = 1.0) -> None:
        super().__init__()
        self.session = session
        self.delay = max(0.0, delay)
        self.think = think
        self.names = session.names()
        self.mode = "busy"  # act | continue | over | busy | broken
        self.selected_card: int | None = None
        self.selected_choice = 0
        self.marked: set[Card] = set()
        self.buffer = ""
        self.messages: deque[Text] = deque(maxlen=3)  # the newest fill the status lines
        self.log_lines: list[str] = []
        self.show_board = False
        self._waiting: asyncio.Future[str] | None = None
        self._hint_busy = False
        self._hint_for: tuple[int, int] | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        yield Static(id="table")
        yield Fitted(self.redraw, id="status")
        yield Clickable(id="hand")
        yield Clickable(id="prompt")
        yield Static(id="keys")

    def on_mount(self) -> None:
        s = self.session
        self.title = s.title
        where = s.save_path.name if s.save_path else "not saved"
        self.query_one("#title", Static).update(
            f"{s.title} · {s.players} players · you are seat {s.human} · seed {s.seed} · {where}")
        if s.resumed:
            self.say(f"Resumed the saved game at hand {s.view().hand_number}.", "bold green")
        self.redraw()
        # Updates made when a worker finishes (a hint) reach the screen when the app's message
        # loop next wakes; the heartbeat makes that within half a second rather than at a key.
        self.set_interval(0.5, self._heartbeat)
        self.run_worker(self._drive(), exclusive=True, group="drive", exit_on_error=False)

    def _heartbeat(self) -> None:
        self.refresh()

    # --- drawing -----------------------------------------------------------------------

    def redraw(self) -> None:
        view = self.session.view()
        if self.session.save_error:
            self.say(self.session.save_error, "bold red")
            self.session.save_error = None
        table = (render_game.scoreboard(view, self.names, final=view.is_over) if self.show_board
                 else render_game.table_view(view, self.names))
        self.query_one("#table", Static).update(table)
        status = self.query_one("#status", Static)
        status.update(newest_lines(self.messages, status, self.console))
        acting = self.mode == "act"
        playing = acting and view.phase is GamePhase.PLAY
        exchanging = acting and view.phase is GamePhase.EXCHANGE
        self.query_one("#hand", Static).update(render.hand_text(
            view, selected=self.selected_card if playing or exchanging else None, my_turn=playing,
            marked=frozenset(self.marked) if exchanging else frozenset()))
        self.query_one("#prompt", Static).update(self._prompt(view))
        keys = render_game.keys_help(view) if acting else "? help  ctrl+q save+quit"
        self.query_one("#keys", Static).update(keys)

    def _prompt(self, view: GameView) -> Text | Group:
        typed = Text(f"  > {self.buffer}_", style="bold cyan") if self.buffer else Text("")
        if self.mode == "over":
            return Text("The game is over. Enter or q quits.", style="bold green")
        if self.mode == "broken":
            return Text("The game stopped on an internal error (it is saved): ctrl+q quits, then "
                        "`callbreak play --resume`.", style="bold red")
        if self.mode == "continue":
            return Text("Hand over. Enter: next hand.", style="bold")
        if self.mode != "act":
            who = self.names[view.to_act] if view.to_act is not None and view.to_act >= 0 else "the dealer"
            return Text(f"{who} to act…", style="dim")
        phase = view.phase
        if phase is GamePhase.PLAY:
            return Group(Text("Your turn: play a card.", style="bold"), typed)
        if phase is GamePhase.EXCHANGE:
            n = len(self.marked)
            return Group(Text(f"Exchange: mark the cards to discard ({n} marked), Enter draws as many "
                              "from the stock.", style="bold"), typed)
        asks = {GamePhase.AUCTION: "Your bid:", GamePhase.TRUMP: "Name trump:",
                GamePhase.JOIN: "This hand:", GamePhase.SETTLE: "Everyone sat out. Settle:"}
        line = Text(asks.get(phase, "Your move:") + " ", style="bold")
        return Group(line + render_game.choices_text(view, selected=self.selected_choice), typed)

    def say(self, text: str, style: str = "") -> None:
        self.messages.append(Text(text, style=style))
        self.log_lines.append(text)

    # --- the game loop -----------------------------------------------------------------

    async def _drive(self) -> None:
        try:
            await self._play_game()
        except Exception as e:  # noqa: BLE001 - keep the screen (and the save) on any bug
            self.mode = "broken"
            self.say(f"internal error: {type(e).__name__}: {e}", "bold red")
            self.redraw()

    async def _play_game(self) -> None:
        s = self.session
        hands_seen = len(s.view().results)
        while True:
            view = s.view()
            turn = s.turn
            if len(view.results) > hands_seen:
                hands_seen = len(view.results)
                r = view.results[-1]
                short = render.short_names(self.names)
                self.say(f"Hand {r.number} over: " + ", ".join(
                    f"{short[x]} {r.points[x]:+d}" for x in range(view.players)), "bold")
                if turn is not Turn.OVER:
                    self.show_board = True
                    await self._ask("continue")
                    self.show_board = False
                    continue
            if turn is Turn.OVER:
                self.show_board = True
                self.say(f"Game over. Winner: {', '.join(self.names[w] for w in view.winners)}.",
                         "bold green")
                await self._ask("over")
                self.exit()
                return
            if turn is Turn.CHANCE:
                if view.notice and view.phase is GamePhase.DEAL:
                    self.say(f"Thrown in: {view.notice}; the same dealer deals again.", "bold magenta")
                s.apply(s.chance_action())
                self.say(f"Hand {s.view().hand_number}: the cards are dealt.", "dim")
                continue
            if turn is Turn.BOT:
                self.mode = "busy"
                self.redraw()
                loop = asyncio.get_running_loop()
                started = loop.time()
                seat, bot_view = s.bot_view()
                move = await asyncio.to_thread(s.decide, seat, bot_view, self.think)
                await asyncio.sleep(max(0.0, self.delay - (loop.time() - started)))
                if move.fallback:
                    self.say(f"{self.names[seat]} {move.fallback}; playing its first legal move.", "red")
                self._apply_and_tell(move.action, human=False)
                continue
            await self._ask("act")

    def _apply_and_tell(self, action: Any, *, human: bool) -> None:
        """Apply (the person's actions through :meth:`GameSession.apply_human`) and say what happened."""
        tricks = len(self.session.game.tricks)
        if human:
            self.session.apply_human(action)
        else:
            self.session.apply(action)
        self.say(render_game.describe(action, self.names, self.session.game.NAME))
        view = self.session.view()
        if len(view.tricks) > tricks:
            t = view.tricks[-1]
            self.say(f"{self.names[t.winner]} took trick {len(view.tricks)}.", "yellow")

    async def _ask(self, mode: str) -> str:
        loop = asyncio.get_running_loop()
        self._waiting = loop.create_future()
        self.mode = mode
        self.buffer = ""
        if mode == "act":
            self._prepare_selection()
        self.redraw()
        try:
            return await self._waiting
        finally:
            self._waiting = None
            self.mode = "busy"

    def _resolve(self, value: str) -> None:
        if self._waiting is not None and not self._waiting.done():
            self._waiting.set_result(value)

    def _prepare_selection(self) -> None:
        view = self.session.view()
        order = render.hand_order(view)
        self.marked = set()
        if view.phase is GamePhase.PLAY:
            legal = set(view.legal_cards)
            if self.selected_card is None or self.selected_card >= len(order) or \
                    order[self.selected_card] not in legal:
                self.selected_card = next((i for i, c in enumerate(order) if c in legal), None)
        elif view.phase is GamePhase.EXCHANGE:
            self.selected_card = 0 if order else None
        self.selected_choice = 0

    # --- acting for the person ---------------------------------------------------------

    def _submit(self, action: Any) -> bool:
        """Apply the person's action; a refusal is shown and changes nothing."""
        try:
            self._apply_and_tell(action, human=True)
        except CallbreakError as e:
            self._refuse(str(e))
            return False
        self.buffer = ""
        self._resolve("done")
        self.redraw()
        return True

    def _refuse(self, why: str) -> None:
        self.buffer = ""
        self.say(f"Not allowed: {why}", "bold red")
        self.redraw()

    def _enter(self, view: GameView) -> None:
        me = self.session.human
        if self.buffer:
            self._act_on_text(view, self.buffer)
            return
        if view.phase is GamePhase.PLAY:
            order = render.hand_order(view)
            if self.selected_card is not None and self.selected_card < len(order):
                self._submit(Play(me, order[self.selected_card]))
        elif view.phase is GamePhase.EXCHANGE:
            self._submit(Exchange(me, tuple(sorted(self.marked))))
        else:
            menu = render_game.menu_actions(view)
            if menu:
                self._submit(menu[self.selected_choice % len(menu)])

    def _act_on_text(self, view: GameView, text: str) -> None:
        """What was typed and confirmed with Enter: a card or its number, or a bid."""
        me = self.session.human
        text = text.strip()
        if view.phase is GamePhase.PLAY:
            card = self._card_from_text(view, text)
            if card is not None:
                self._submit(Play(me, card))
        elif view.phase is GamePhase.AUCTION:
            if not (text.isascii() and text.isdigit()):
                bids = [a.tricks for a in view.legal if isinstance(a, Bid)]
                span = f"{min(bids)}-{max(bids)}" if bids else "none"
                self._refuse(f"{text!r} is not a bid: type a number ({span} now)"
                             + (" or p to pass" if Pass(me) in view.legal else ""))
                return
            self._submit(Bid(me, int(text)))
        else:
            self._refuse(f"nothing to type here; {render_game.keys_help(view)}")

    def _card_from_text(self, view: GameView, text: str) -> Card | None:
        order = render.hand_order(view)
        if text.isascii() and text.isdigit():
            n = int(text)
            if not 1 <= n <= len(order):
                self._refuse(f"no card number {n}: your cards are numbered 1-{len(order)}")
                return None
            return order[n - 1]
        try:
            card = Card.parse(text)
        except CallbreakError:
            self._refuse(f"{text!r} is not a card: type a rank and a suit like QH or 10S, or a "
                         f"card number 1-{len(order)}")
            return None
        if card not in order:
            self._refuse(f"you do not hold {card.pretty}")
            return None
        return card

    def _toggle_mark(self, view: GameView, index: int) -> None:
        order = render.hand_order(view)
        if not 0 <= index < len(order):
            self._refuse(f"no card number {index + 1}: your cards are numbered 1-{len(order)}")
            return
        card = order[index]
        self.selected_card = index
        self.marked ^= {card}
        self.redraw()

    def _move(self, view: GameView, step: int) -> None:
        order = render.hand_order(view)
        if view.phase is GamePhase.PLAY:
            legal = [i for i, c in enumerate(order) if c in set(view.legal_cards)]
        elif view.phase is GamePhase.EXCHANGE:
            legal = list(range(len(order)))
        else:
            menu = render_game.menu_actions(view)
            if menu:
                self.selected_choice = (self.selected_choice + step) % len(menu)
            return
        if legal:
            pos = legal.index(self.selected_card) if self.selected_card in legal else -step
            self.selected_card = legal[(pos + step) % len(legal)]

    def _phase_key(self, view: GameView, char: str) -> bool:
        """A direct key for the phase (p, s/h/d/c, y/n, m/o, Space and digits in an exchange);
        True when it was one."""
        me = self.session.human
        phase = view.phase
        if phase is GamePhase.AUCTION and char == "p":
            self._submit(Pass(me))
        elif phase is GamePhase.TRUMP and char in render_game.SUIT_KEYS:
            self._submit(NameTrump(me, Suit.parse(char)))
        elif phase is GamePhase.JOIN and char in "yn":
            self._submit(Join(me, char == "y"))
        elif phase is GamePhase.SETTLE and char in "mo":
            self._submit(Settle(me, char == "o"))
        elif phase is GamePhase.EXCHANGE and char == " ":
            if self.selected_card is not None:
                self._toggle_mark(view, self.selected_card)
        elif phase is GamePhase.EXCHANGE and char.isascii() and char.isdigit():
            self._toggle_mark(view, int(char) - 1)
        else:
            return False
        return True

    # --- input -------------------------------------------------------------------------

    def on_key(self, event: events.Key) -> None:
        if event.key.startswith("ctrl+"):
            return  # leave ctrl+q (quit) and friends to Textual
        event.stop()
        event.prevent_default()
        try:
            self._handle_key(event.key, event.character)
        except Exception as e:  # noqa: BLE001 - a key press must never end the game
            self.buffer = ""
            self.say(f"That key could not be handled ({type(e).__name__}: {e}); the game goes on.",
                     "bold red")
            self.redraw()

    def _handle_key(self, key: str, char: str | None) -> None:
        if self.mode == "over":
            if key in ("enter", "escape", "space") or char in ("q", "Q"):
                self._resolve("quit")
            return
        if self.mode == "continue":
            if key in ("enter", "space"):
                self._resolve("next")
            elif char:
                self.say("Between hands: Enter starts the next hand.", "dim")
                self.redraw()
            return
        if char == "?":
            self.say(HELP)
            self.redraw()
            return
        if self.mode != "act":
            if char or key == "enter":
                self.say("Please wait for your turn.", "dim")
                self.redraw()
            return
        view = self.session.view()
        if key in ("left", "up"):
            self._move(view, -1)
        elif key in ("right", "down"):
            self._move(view, +1)
        elif key == "enter":
            self._enter(view)
            return
        elif key == "backspace":
            self.buffer = self.buffer[:-1]
        elif key == "escape":
            self.buffer = ""
            self.marked = set()
        elif char and not self.buffer and char.lower() == "i":
            self._ask_hint(view)
        elif char and not self.buffer and self._phase_key(view, char.lower() if char != " " else char):
            return
        elif char and char.isprintable() and char != " ":
            if len(self.buffer) >= 6:
                self.say("Too much typed: Esc clears, Enter confirms.", "red")
            else:
                self.buffer += char
        self.redraw()

    def _ask_hint(self, view: GameView) -> None:
        if self._hint_busy:
            self.say("Still thinking about the hint…", "dim")
            return
        stamp = (view.hand_number, len(self.session.game.history))
        self._hint_for = stamp
        self._hint_busy = True
        self.say("Thinking about a hint…", "dim")
        self.run_worker(self._hint(view, stamp), group="hint", exit_on_error=False)

    async def _hint(self, view: GameView, stamp: tuple[int, int]) -> None:
        try:
            name, decision = await asyncio.to_thread(self.session.hint, view, self.think)
        except Exception as e:  # noqa: BLE001 - a hint must never end the game
            self.say(f"No hint available: {e}", "red")
            self.redraw()
            return
        finally:
            self._hint_busy = False
        if self._hint_for != stamp or self.mode != "act":
            return  # the game moved on while the bot thought
        what = render_game.describe(decision.action, ["you"] * view.players, view.game)
        why = f" ({decision.reason})" if decision.reason else ""
        self.say(f"Hint from {name}: {what.removeprefix('you ')}{why}", "bold cyan")
        action = decision.action
        if isinstance(action, Play):
            order = render.hand_order(view)
            if action.card in order:
                self.selected_card = order.index(action.card)
        elif isinstance(action, Exchange):
            self.marked = set(action.cards)
        else:
            menu = render_game.menu_actions(view)
            if action in menu:
                self.selected_choice = menu.index(action)
        self.redraw()

    # --- mouse -------------------------------------------------------------------------

    def action_pick_card(self, index: int) -> None:
        """A click on a card: play it, or mark it for an exchange."""
        if self.mode != "act":
            return
        view = self.session.view()
        order = render.hand_order(view)
        if view.phase is GamePhase.EXCHANGE:
            self._toggle_mark(view, index)
        elif view.phase is GamePhase.PLAY and 0 <= index < len(order):
            self.selected_card = index
            self._submit(Play(self.session.human, order[index]))

    def action_pick_choice(self, index: int) -> None:
        """A click on a menu entry (a bid, a suit, play or not)."""
        if self.mode != "act":
            return
        menu = render_game.menu_actions(self.session.view())
        if 0 <= index < len(menu):
            self.selected_choice = index
            self._submit(menu[index])
