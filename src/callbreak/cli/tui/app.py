"""The Textual app for ``callbreak play``: one person against three bots.

The app draws only the person's :class:`~callbreak.core.SeatView` (from :class:`Session`) and
turns key presses and clicks into actions. Everything the person types is checked by the core
(``apply`` verifies first and a refused action changes nothing), and refusals are shown as a
message naming what is allowed, so no input can crash the game or lose the match.
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Any

from rich.console import Group
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from callbreak.cli.tui import render
from callbreak.cli.tui.session import Session, Turn
from callbreak.cli.tui.widgets import Clickable, Fitted, newest_lines
from callbreak.core import Call, CallbreakError, Card, Draw, Look, Phase, Play, Redeal, SeatView

KEYS_HELP = "←→ choose  Enter ok  type QH or 3  h hint  ? help  Esc clear  ctrl+q save+quit"
HELP = ("Play: ←/→ pick a legal card and Enter, click a card, or type it (QH, 10S, ts) or its number "
        "and Enter. Call: ←/→ and Enter, or type the number. h asks the strongest bot for a hint. "
        "The game is saved after every move; `callbreak play --resume` continues it.")

THINKING = "Thinking about a hint…"


class PlayApp(App[None]):
    """A full match in the terminal. ``delay`` paces bot moves (0 = instant)."""

    TITLE = "Call Break"
    CSS = """
    Screen { layout: vertical; }
    #title { height: 1; background: $primary-darken-2; color: $text; padding: 0 1; }
    #middle { height: 3fr; min-height: 13; }
    #table { width: 1fr; padding: 0 1; }
    #scores { width: 28; padding: 0 1; border-left: solid $primary; }
    /* Four lines at 24 rows; a taller terminal shows more of what happened. */
    #status { height: 1fr; min-height: 3; max-height: 12; padding: 0 1; color: $text-muted; }
    /* The hand and the prompt stay on screen even in a terminal smaller than 80x24. */
    #controls { dock: bottom; height: 6; }
    #hand { height: 2; padding: 0 1; }
    /* Cards and calls are clickable; keep their own look (legal cards are the underlined ones). */
    #hand, #prompt { link-style: none; link-color: initial; link-background: initial;
                     link-style-hover: bold reverse; }
    #prompt { height: 3; padding: 0 1; }
    #keys { height: 1; padding: 0 1; background: $primary-darken-3; color: $text-muted; }
    """

    def __init__(self, session: Session, *, delay: float = 0.8, think: float = 1.0) -> None:
        super().__init__()
        self.session = session
        self.delay = max(0.0, delay)
        self.think = think
        self.names = session.names()
        self.mode = "busy"  # act | continue | stop | over | busy | broken
        self.selected_card: int | None = None
        self.selected_call = session.rules.min_call
        self.buffer = ""
        self.messages: deque[Text] = deque(maxlen=12)  # the newest ones fill the status lines
        self.log_lines: list[str] = []  # every message of the session, oldest first
        self.show_board = False
        self._waiting: asyncio.Future[str] | None = None
        self._deadline: float | None = None
        self._hint_for: tuple[int, ...] | None = None
        self._hint_busy = False
        self._shown_save_error: str | None = None

    # --- layout ------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        with Horizontal(id="middle"):
            yield Fitted(self.redraw, id="table")
            yield Static(id="scores")
        yield Fitted(self.redraw, id="status")
        with Vertical(id="controls"):
            yield Clickable(id="hand")
            yield Clickable(id="prompt")
            yield Static(KEYS_HELP, id="keys")

    def on_mount(self) -> None:
        rules = self.session.rules
        where = self.session.save_path.name if self.session.save_path else "not saved"
        seat = self.session.human
        self.query_one("#title", Static).update(
            f"Call Break · calls {rules.min_call}-{rules.max_call} · seat {seat} · "
            f"seed {self.session.seed} · {where}")
        self.set_interval(0.5, self._tick)
        if self.session.resumed:
            view = self.session.view()
            self.say(f"Resumed the saved match at deal {view.deal_number}, "
                     f"{len(view.tricks)} tricks played.", "bold green")
        self.redraw()
        self.run_worker(self._drive(), exclusive=True, group="drive", exit_on_error=False)

    # --- drawing -----------------------------------------------------------------------

    def redraw(self) -> None:
        if self.session.save_error and self.session.save_error != self._shown_save_error:
            self.say(self.session.save_error, "bold red")
        self._shown_save_error = self.session.save_error
        view = self.session.view()
        me = self.session.human
        if self.show_board:
            table = self.query_one("#table", Static)
            # Title, header, rule, total, winners, standings and chips take 7 lines.
            rows = (table.content_size.height or 13) - 7
            table.update(render.scoreboard(view, self.names, final=view.phase is Phase.OVER,
                                           rows=rows, me=me))
        else:
            self.query_one("#table", Static).update(render.table_view(view, self.names, me))
        scores = self.query_one("#scores", Static)
        scores.display = not self.show_board  # the scoreboard needs the whole width at 80 columns
        scores.update(render.scores_view(view, self.names, me))
        status = self.query_one("#status", Static)
        status.update(newest_lines(self.messages, status, self.console))
        my_play = self.mode == "act" and view.phase is Phase.PLAY
        self.query_one("#hand", Static).update(
            render.hand_text(view, selected=self.selected_card if my_play else None, my_turn=my_play))
        self.query_one("#prompt", Static).update(self._prompt(view))

    def _prompt(self, view: SeatView) -> Text | Group:
        typed = Text(f"  > {self.buffer}_", style="bold cyan") if self.buffer else Text("")
        timer = Text("")
        if self._deadline is not None:
            left = max(0, int(self._deadline - asyncio.get_running_loop().time() + 0.99))
            timer = Text(f"  ⏱ {left}s", style="bold red" if left <= 5 else "yellow")
        if self.mode == "over":
            return Text("The match is over. Enter or q quits.", style="bold green")
        if self.mode == "broken":
            return Text("The game stopped on an internal error (the match is saved): ctrl+q quits, "
                        "then `callbreak play --resume`.", style="bold red")
        if self.mode == "continue":
            return Text("Deal over. Enter: next deal.", style="bold")
        if self.mode == "stop":
            return Text("Deal over. Enter: deal again · s: stop the match here.", style="bold")
        if self.mode != "act":
            who = self.names[view.to_act] if view.to_act is not None and view.to_act >= 0 else "the dealer"
            return Text(f"{who} to act…", style="dim")
        # The first line stays within 78 columns so the second (the call picker) never moves.
        if view.phase is Phase.PLAY:
            line = Text("Your turn: ←/→ and Enter, click a card, or type a card (QH) or its number.",
                        style="bold")
            return Group(line, timer + typed)
        if view.phase is Phase.REDEAL_CLAIM:
            line = Text("Weak hand (no spades, or no A K Q J): y claims a redeal, n or Enter keeps it.",
                        style="bold")
            return Group(line, timer + typed)
        if view.phase is Phase.CALL:
            rules = view.rules
            span = f"{rules.min_call}-{rules.max_call}"
            if view.hand is None:
                line = Text(f"Blind call x2: pick {span} and press b, or type 5b · l or Enter: look at "
                            "cards", style="bold")
            else:
                line = Text(f"Your call ({span}): ←/→ and Enter, click, or type the number.", style="bold")
            picker = render.calls_text(view, selected=self.selected_call)
            return Group(line, picker + timer + typed)
        return Text("")

    def say(self, text: str, style: str = "") -> None:
        self.log_lines.append(text)
        if self.messages and self.messages[-1].plain == text:
            return  # the same answer again (keys held down) would only push older news away
        self.messages.append(Text(text, style=style))

    # --- the game loop -----------------------------------------------------------------

    async def _drive(self) -> None:
        try:
            await self._play_match()
        except Exception as e:  # noqa: BLE001 - keep the screen (and the save) on any bug
            self.mode = "broken"
            self.say(f"internal error: {type(e).__name__}: {e}", "bold red")
            self.redraw()

    async def _play_match(self) -> None:
        s = self.session
        deals_seen = len(s.view().results)
        last_redeal = s.view().redeal
        while True:
            view = s.view()
            if view.redeal is not None and view.redeal != last_redeal:
                shown = " ".join(c.pretty for c in view.redeal.shown)
                self.say(f"Thrown in: {view.redeal.reason}{': ' + shown if shown else ''}; "
                         "the same dealer deals again.", "bold magenta")
            last_redeal = view.redeal
            turn = s.turn
            if len(view.results) > deals_seen or turn is Turn.STOP_CHOICE:
                deals_seen = len(view.results)
                if turn not in (Turn.OVER,):
                    r = view.results[-1]
                    self.say(f"Deal {r.number} over: " + ", ".join(
                        f"{render.short_names(self.names)[x]} {r.won[x]}/{r.calls[x]}"
                        for x in range(4)), "bold")
                    self.show_board = True
                    choice = await self._ask("stop" if turn is Turn.STOP_CHOICE else "continue")
                    self.show_board = False
                    if turn is Turn.STOP_CHOICE:
                        s.apply(s.chance_action(stop=choice == "stop"))
                    continue
            if turn is Turn.OVER:
                self.show_board = True
                winners = ", ".join(self.names[w] for w in view.winners)
                self.say(f"Match over. Winner: {winners}.", "bold green")
                await self._ask("over")
                self.exit()
                return
            if turn is Turn.CHANCE:
                action = s.chance_action()
                s.apply(action)
                after = s.view()
                if isinstance(action, Draw):  # drawn face up, so everyone sees them
                    short = render.short_names(self.names)
                    self.say("Draw for dealer: " + ", ".join(
                        f"{short[seat]} {card.pretty}" for seat, card in enumerate(action.cards)))
                if action.kind in ("draw", "choose_dealer") and after.dealer is not None:
                    self.say(f"{self.names[after.dealer]} deals first.", "bold")
                elif action.kind == "draw":
                    self.say("A tie: everyone draws again.", "dim")
                if action.kind == "deal" and after.redeal is None:
                    self.say(f"Deal {after.deal_number}: the cards are dealt.", "dim")
                continue
            if turn is Turn.BOT:
                self.mode = "busy"
                self.redraw()
                # The bot thinks during the pause, so a move takes max(delay, thinking), not both.
                pause = self.delay
                if not view.trick and view.tricks and view.phase is Phase.PLAY:
                    pause += self.delay  # let the finished trick be seen before a new lead
                loop = asyncio.get_running_loop()
                started = loop.time()
                seat, bot_view = s.bot_view()
                move = await asyncio.to_thread(s.decide, seat, bot_view, self.think)
                await asyncio.sleep(max(0.0, pause - (loop.time() - started)))
                if move.fallback:
                    self.say(f"{self.names[seat]} {move.fallback}; playing the default.", "red")
                trick_done = move.action.kind == "play" and len(bot_view.trick) == 3
                s.apply(move.action)
                self.say(render.describe(move.action, self.names))
                if trick_done:
                    self._say_trick()
                continue
            if view.phase is Phase.REDEAL_CLAIM and view.legal == (Redeal(s.human, False),):
                s.apply_human(Redeal(s.human, False))  # nothing to decide: the hand cannot claim
                continue
            await self._ask("act")

    def _say_trick(self) -> None:
        view = self.session.view()
        if view.tricks:
            t = view.tricks[-1]
            self.say(f"{self.names[t.winner]} took trick {len(view.tricks)}.", "yellow")

    async def _ask(self, mode: str) -> str:
        """Wait for the person: to act, to continue after a deal, or to quit at the end."""
        loop = asyncio.get_running_loop()
        self._waiting = loop.create_future()
        self.mode = mode
        self.buffer = ""
        if mode == "act":
            self._prepare_selection()
            timer = self.session.rules.turn_timer
            self._deadline = loop.time() + timer if timer else None
        self.redraw()
        try:
            return await self._waiting
        finally:
            self._waiting = None
            self._deadline = None
            self.mode = "busy"

    def _resolve(self, value: str) -> None:
        if self._waiting is not None and not self._waiting.done():
            self._waiting.set_result(value)

    def _prepare_selection(self) -> None:
        view = self.session.view()
        if view.phase is Phase.PLAY:
            order = render.hand_order(view)
            legal = set(view.legal_cards)
            if self.selected_card is None or self.selected_card >= len(order) or \
                    order[self.selected_card] not in legal:
                self.selected_card = next((i for i, c in enumerate(order) if c in legal), None)
        elif view.phase is Phase.CALL:
            self.selected_call = _suggest_call(view)

    def _tick(self) -> None:
        if self._deadline is None or self.mode != "act":
            return
        if asyncio.get_running_loop().time() >= self._deadline:
            self._deadline = None
            view = self.session.view()
            self.say("Time is up: the table plays the default for you.", "bold red")
            self._submit(self.session.default_action(), view)
        else:
            self.redraw()

    # --- acting for the person ---------------------------------------------------------

    def _submit(self, action: Any, view: SeatView) -> bool:
        """Apply the person's action; a refusal is shown and changes nothing."""
        trick_done = action.kind == "play" and len(view.trick) == 3
        try:
            self.session.apply_human(action)
        except CallbreakError as e:
            self.buffer = ""
            self.say(f"Not allowed: {e}", "bold red")
            self.redraw()
            return False
        self.say(render.describe(action, self.names))
        if trick_done:
            self._say_trick()
        self.buffer = ""
        self._resolve("done")
        self.redraw()
        return True

    def _act_on_selection(self, view: SeatView) -> None:
        me = self.session.human
        if view.phase is Phase.PLAY:
            order = render.hand_order(view)
            if self.selected_card is not None and self.selected_card < len(order):
                self._submit(Play(me, order[self.selected_card]), view)
        elif view.phase is Phase.CALL:
            if view.hand is None:
                self._submit(Look(me), view)
                self._prepare_selection()
                self.redraw()
            else:
                self._submit(Call(me, self.selected_call), view)
        elif view.phase is Phase.REDEAL_CLAIM:
            self._submit(Redeal(me, False), view)

    def _act_on_text(self, view: SeatView, text: str) -> None:
        """Parse what was typed: a card (QH, 10s) or its number when playing, a call when calling."""
        me = self.session.human
        text = text.strip()
        if view.phase is Phase.PLAY:
            order = render.hand_order(view)
            if text.isascii() and text.isdigit():
                n = int(text)
                if not 1 <= n <= len(order):
                    self._refuse(f"no card number {n}: your cards are numbered 1-{len(order)}")
                    return
                card = order[n - 1]
            else:
                try:
                    card = Card.parse(text)
                except CallbreakError:
                    self._refuse(f"{text!r} is not a card: type a rank and a suit like QH, 10S or "
                                 f"TS, or a card number 1-{len(order)}")
                    return
            if card not in order:
                legal = " ".join(c.pretty for c in order if c in set(view.legal_cards))
                self._refuse(f"you do not hold {card.pretty}; you may play {legal}")
                return
            self._submit(Play(me, card), view)
        elif view.phase is Phase.CALL:
            blind = text.lower().endswith("b")
            digits = text[:-1] if blind else text
            rules = view.rules
            if not (digits.isascii() and digits.isdigit()):
                self._refuse(f"{text!r} is not a call: type a whole number "
                             f"{rules.min_call}-{rules.max_call}"
                             + (" (add b to call blind)" if rules.blind_call else ""))
                return
            self._submit(Call(me, int(digits), blind=blind), view)
        elif view.phase is Phase.REDEAL_CLAIM:
            answer = text.lower()
            if answer not in ("y", "n", "yes", "no"):
                self._refuse("answer y (claim a redeal) or n (keep the hand)")
                return
            self._submit(Redeal(me, answer.startswith("y")), view)

    def _refuse(self, why: str) -> None:
        self.buffer = ""
        self.say(f"Not allowed: {why}", "bold red")
        self.redraw()

    def _move(self, view: SeatView, step: int) -> None:
        if view.phase is Phase.PLAY:
            order = render.hand_order(view)
            legal = [i for i, c in enumerate(order) if c in set(view.legal_cards)]
            if not legal:
                return
            pos = legal.index(self.selected_card) if self.selected_card in legal else -step
            self.selected_card = legal[(pos + step) % len(legal)]
        elif view.phase is Phase.CALL:
            rng = view.rules.call_range
            self.selected_call = rng[(rng.index(self.selected_call) + step) % len(rng)] \
                if self.selected_call in rng else rng[0]

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
            elif char:
                self.say("The match is over: Enter or q quits.", "dim")
                self.redraw()
            return
        if self.mode in ("continue", "stop"):
            if key in ("enter", "space"):
                self._resolve("deal")
            elif self.mode == "stop" and char in ("s", "S"):
                self._resolve("stop")
            elif char:
                allowed = "Enter deals again, s stops the match" if self.mode == "stop" \
                    else "Enter starts the next deal"
                self.say(f"Between deals: {allowed}.", "dim")
                self.redraw()
            return
        view = self.session.view()
        me = self.session.human
        if char in ("l", "L") and not self.buffer and Look(me) in view.legal:
            self._submit_quiet(Look(me))
            return
        if self.mode != "act":
            if char == "?":
                self.say(HELP)
            elif char or key == "enter":
                self.say("Please wait for your turn.", "dim")
            self.redraw()
            return
        if key in ("left", "up"):
            self._move(view, -1)
        elif key in ("right", "down"):
            self._move(view, +1)
        elif key == "enter":
            if self.buffer:
                self._act_on_text(view, self.buffer)
            else:
                self._act_on_selection(view)
            return
        elif key == "backspace":
            self.buffer = self.buffer[:-1]
        elif key == "escape":
            self.buffer = ""
        elif char and char.isprintable() and not self.buffer and char in "hH?yYnNbB":
            self._single_key(view, char.lower())
            return
        elif char and char.isprintable() and char != " ":
            if len(self.buffer) >= 6:
                self.say("Too much typed: Esc clears, Enter confirms.", "red")
            else:
                self.buffer += char
        self.redraw()

    def _single_key(self, view: SeatView, char: str) -> None:
        me = self.session.human
        if char == "h":
            self._ask_hint(view)
        elif char == "?":
            self.say(HELP)
        elif char in "yn" and view.phase is Phase.REDEAL_CLAIM:
            self._submit(Redeal(me, char == "y"), view)
            return
        elif char == "b" and view.phase is Phase.CALL and view.rules.blind_call:
            self._submit(Call(me, self.selected_call, blind=True), view)
            return
        else:
            self.buffer += char  # e.g. the start of something the parser will explain
        self.redraw()

    def _submit_quiet(self, action: Any) -> None:
        """An action that does not end the person's turn (looking at the cards)."""
        try:
            self.session.apply_human(action)
        except CallbreakError as e:
            self.say(f"Not allowed: {e}", "bold red")
        else:
            self.say("You look at your cards.")
            self._prepare_selection()
        self.redraw()

    def _ask_hint(self, view: SeatView) -> None:
        if self._hint_busy:  # one hint bot, one question at a time (bots need not be thread-safe)
            self.say("Still thinking about the hint…", "dim")
            return
        # Identifies the decision point, so a hint that arrives late is not shown for the next one.
        stamp = (view.deal_number, len(view.played), sum(c is not None for c in view.calls),
                 int(view.looked))
        self._hint_for = stamp
        self._hint_busy = True
        self.say(THINKING, "dim")
        self.run_worker(self._hint(view, stamp), group="hint", exit_on_error=False)

    async def _hint(self, view: SeatView, stamp: tuple[int, ...]) -> None:
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
        if self.messages and self.messages[-1].plain == THINKING:
            self.messages.pop()  # the hint takes the place of "thinking" on the status lines
        action = decision.action
        why = f" ({decision.reason})" if decision.reason else ""
        self.say(f"Hint from {name}: {render.describe(action, ['you'] * 4).removeprefix('you ')}{why}",
                 "bold cyan")
        if action.kind == "play":
            order = render.hand_order(view)
            if action.card in order:  # type: ignore[union-attr]
                self.selected_card = order.index(action.card)  # type: ignore[union-attr]
        elif action.kind == "call" and not action.blind:  # type: ignore[union-attr]
            self.selected_call = action.tricks  # type: ignore[union-attr]
        self.redraw()

    # --- mouse -------------------------------------------------------------------------

    def action_pick_card(self, index: int) -> None:
        """A click on a card in the hand: play it (if it is the person's turn)."""
        view = self.session.view()
        if self.mode != "act" or view.phase is not Phase.PLAY:
            return
        order = render.hand_order(view)
        if 0 <= index < len(order):
            self.selected_card = index
            self._submit(Play(self.session.human, order[index]), view)

    def action_pick_call(self, tricks: int) -> None:
        """A click on a call number."""
        view = self.session.view()
        if self.mode == "act" and view.phase is Phase.CALL:
            self.selected_call = tricks
            blind = view.hand is None
            self._submit(Call(self.session.human, tricks, blind=blind), view)


def _suggest_call(view: SeatView) -> int:
    """A starting point for the call picker: a rough count of sure tricks, within range."""
    rules = view.rules
    hand = view.hand or ()
    spades = [c for c in hand if c.suit == 0]
    sure = sum(1 for c in hand if c.rank == 14) + sum(1 for c in hand if c.rank == 13 and c.suit != 0)
    sure += max(0, len(spades) - 3)
    return max(rules.min_call, min(rules.max_call, sure))
