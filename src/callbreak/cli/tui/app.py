"""The Textual app for ``callbreak play``: one person against bots at any registered game.

The app draws only the person's view (from :class:`Session`, through :mod:`render`) and turns
key presses and clicks into actions, whatever the game: ←/→ and Enter choose a card or a choice
on screen, cards and numbers may be typed, and each choice the view offers has a direct key shown
on the bottom line (p pass, s/h/d/c trump, y/n play or sit out or claim a redeal, m/o settle, l
look, b call blind, Space or 1-9 to mark discards). Everything the person does is checked by the
game (``apply`` verifies first and a refused action changes nothing), and refusals are shown as a
message naming what is allowed, so no input can crash the game or lose it.
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

from callbreak import i18n
from callbreak.cli.tui import language, render
from callbreak.cli.tui.language import _, card_words, number, said
from callbreak.cli.tui.session import Session, Turn
from callbreak.cli.tui.widgets import Clickable, Fitted, newest_lines
from callbreak.core import CHANCE, CallbreakError, Card
from callbreak.core.actions import Bid, Call, Exchange, Play
from callbreak.core.game import Options
from callbreak.core.words import N_
from callbreak.games import View

HELP = N_("Cards: ←/→ and Enter, click, or type one (QH, 10S) or its number. Other choices: ←/→ "
          "and Enter, click, a number (3b: blind) or the keys on the bottom line; Space or numbers "
          "mark discards. h: a hint from the strongest bot. F2: language. Saved after every move: "
          "`callbreak play --resume`.")

THINKING = N_("Thinking about a hint…")

# The first prompt line for a menu, by the kind of its choices.
ASKS = {"bid": N_("Your bid:"), "pass": N_("Your bid:"), "trump": N_("Name trump:"),
        "join": N_("This deal: play or sit out?"), "settle": N_("Everyone else sat out: settle:"),
        "redeal": N_("Weak hand: y claims a redeal (your hand is shown), n or Enter keeps it.")}


class PlayApp(App[str | None]):
    """A whole game in the terminal. ``delay`` paces bot moves (0 = instant)."""

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
    /* Cards and choices are clickable; keep their own look (legal cards are underlined). */
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
        self.selected_choice = 0
        self.marked: set[Card] = set()
        self.buffer = ""
        self.messages: deque[Text] = deque(maxlen=12)  # the newest ones fill the status lines
        self.log_lines: list[str] = []  # every message of the session, oldest first
        self.show_board = False
        self._waiting: asyncio.Future[str] | None = None
        self._deadline: float | None = None
        self._hint_for: int | None = None
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
            yield Static(id="keys")

    def on_mount(self) -> None:
        s = self.session
        view = s.view()
        self._draw_title()
        self.set_interval(0.5, self._tick)
        if s.resumed:
            self.say(_("Resumed the saved match at deal {number}, {count} tricks played.").format(
                number=number(len(view.results) + 1), count=number(len(view.tricks))), "bold green")
        self.redraw()
        self.run_worker(self._drive(), exclusive=True, group="drive", exit_on_error=False)

    # --- drawing -----------------------------------------------------------------------

    def _draw_title(self) -> None:
        s = self.session
        self.title = _(s.title)
        span = s.view().call_range
        table = (_("calls {low}-{high}").format(low=number(span[0]), high=number(span[1])) if span
                 else _("{count} players").format(count=number(s.players)))
        where = s.save_path.name if s.save_path else _("not saved")
        self.query_one("#title", Static).update(_("{game} · {table} · seat {seat} · seed {seed} · {file}").format(
            game=_(s.title), table=table, seat=number(s.human), seed=s.seed, file=where))

    def switch_language(self) -> None:
        """F2: the next language, at once, and for the next games too."""
        lang = language.following(language.current())
        language.use(lang)
        self.names = self.session.names()
        try:
            language.remember(lang)
        except OSError as e:
            self.say(_("The language could not be remembered: {error}").format(error=e), "red")
        self._draw_title()
        self.messages.clear()  # the news so far was written in the other language
        self.say(_("Language: {name}").format(name=i18n.LANGUAGES[lang]), "bold")
        self.redraw()

    def redraw(self) -> None:
        if self.session.save_error and self.session.save_error != self._shown_save_error:
            self.say(self.session.save_error, "bold red")
        self._shown_save_error = self.session.save_error
        view = self.session.view()
        me = self.session.human
        table = self.query_one("#table", Static)
        if self.show_board:
            # Title, header, rule, total, winners, standings and chips take 7 lines.
            rows = (table.content_size.height or 13) - 7
            table.update(render.scoreboard(view, self.names, final=view.is_over, rows=rows, me=me,
                                           low_wins=self.session.info.low_wins))
        else:
            table.update(render.table_view(view, self.names, me))
        scores = self.query_one("#scores", Static)
        scores.display = not self.show_board  # the scoreboard needs the whole width at 80 columns
        scores.update(render.scores_view(view, self.names, me))
        status = self.query_one("#status", Static)
        status.update(newest_lines(self.messages, status, self.console))
        acting = self.mode == "act"
        kinds = {a.kind for a in view.legal} if acting else set()
        self.query_one("#hand", Static).update(render.hand_text(
            view, selected=self.selected_card if kinds & {"play", "exchange"} else None,
            my_turn="play" in kinds, marked=frozenset(self.marked) if "exchange" in kinds else frozenset()))
        self.query_one("#prompt", Static).update(self._prompt(view))
        self.query_one("#keys", Static).update(render.keys_help(view) if acting
                                               else _("? help  F2 language  ctrl+q save+quit"))

    def _review_offer(self) -> str:
        """The end-of-match offer of a review, for the games a judge plays (the expert's in
        Call Break, the search bot's in the related games)."""
        from callbreak.review import judge_for

        judge = judge_for(self.session.name)
        if judge is None:
            return ""
        return (_("r: the expert's review of the game") if judge == "expert"
                else _("r: the {bot} bot's review of the game").format(bot=judge)) + " · "

    def _prompt(self, view: View) -> Text | Group:
        typed = Text(f"  > {self.buffer}_", style="bold cyan") if self.buffer else Text("")
        timer = Text("")
        if self._deadline is not None:
            left = max(0, int(self._deadline - asyncio.get_running_loop().time() + 0.99))
            timer = Text("  " + _("⏱ {seconds}s").format(seconds=number(left)),
                         style="bold red" if left <= 5 else "yellow")
        if self.mode == "over":
            return Text(_("The match is over.") + " " + self._review_offer() + _("Enter or q quits."),
                        style="bold green")
        if self.mode == "broken":
            return Text(_("The game stopped on an internal error (the game is saved): ctrl+q quits, "
                          "then `callbreak play --resume`."), style="bold red")
        if self.mode == "continue":
            return Text(_("Deal over. Enter: next deal."), style="bold")
        if self.mode == "stop":
            return Text(_("Deal over. Enter: deal again · s: stop the match here."), style="bold")
        if self.mode != "act":
            if view.to_act is not None and view.to_act >= 0:
                return Text(_("{name} to act…").format(name=self.names[view.to_act]), style="dim")
            return Text(_("the dealer to act…"), style="dim")
        kinds = {a.kind for a in view.legal}
        # The first line stays within 78 columns so the second (the choices) never moves.
        if "play" in kinds:
            return Group(Text(_("Your turn: ←/→ and Enter, click a card, or type a card (QH) or its "
                                "number."), style="bold"), timer + typed)
        if "exchange" in kinds:
            return Group(Text(_("Exchange: mark discards ({count} marked); Enter draws as many from "
                                "the stock.").format(count=number(len(self.marked))), style="bold"),
                         timer + typed)
        menu = render.menu_actions(view)
        if not menu:
            return Text("")
        if menu[0].kind == "call":
            numbers = [a.tricks for a in menu if isinstance(a, Call)]
            span = f"{number(min(numbers))}-{number(max(numbers))}"
            line = (_("Blind call x2: pick {range} and press b, or type 5b · l or Enter: look at cards")
                    if view.hand is None else
                    _("Your call ({range}): ←/→ and Enter, click, or type the number.")).format(range=span)
        else:
            line = _(ASKS.get(menu[0].kind, N_("Your choice:")))
        picker = render.choices_text(view, selected=self.selected_choice)
        return Group(Text(line, style="bold"), picker + timer + typed)

    def say(self, text: str, style: str = "") -> None:
        self.log_lines.append(text)
        if self.messages and self.messages[-1].plain == text:
            return  # the same answer again (keys held down) would only push older news away
        self.messages.append(Text(text, style=style))

    # --- the game loop -----------------------------------------------------------------

    async def _drive(self) -> None:
        try:
            await self._play_game()
        except Exception as e:  # noqa: BLE001 - keep the screen (and the save) on any bug
            self.mode = "broken"
            self.say(_("internal error: {error}").format(error=f"{type(e).__name__}: {e}"), "bold red")
            self.redraw()

    async def _play_game(self) -> None:
        s = self.session
        deals_seen = len(s.view().results)
        notice = s.view().notice
        while True:
            view = s.view()
            if view.notice and view.notice != notice and len(view.results) == deals_seen:
                if s.game.to_act == CHANCE:  # the deal is not played: the same dealer deals again
                    shown = " ".join(c.pretty for c in view.face_up)
                    self.say(_("Thrown in: {why}; the same dealer deals again.").format(
                        why=said(view.notice_words, view.notice) + (": " + shown if shown else "")),
                        "bold magenta")
                else:
                    self.say(said(view.notice_words, view.notice), "magenta")
            notice = view.notice
            turn = s.turn
            if len(view.results) > deals_seen or turn is Turn.STOP_CHOICE:
                deals_seen = len(view.results)
                r = view.results[-1]
                short = render.short_names(self.names)
                cells = render.deal_cells(r, range(view.players))
                self.say(_("Deal {number} over:").format(number=number(r.number)) + " " + ", ".join(
                    f"{short[x]} {cells[x]}" for x in range(view.players)), "bold")
                if turn is not Turn.OVER:
                    self.show_board = True
                    choice = await self._ask("stop" if turn is Turn.STOP_CHOICE else "continue")
                    self.show_board = False
                    if turn is Turn.STOP_CHOICE:
                        s.apply(s.chance_action(stop=choice == "stop"))
                    continue
            if turn is Turn.OVER:
                self.show_board = True
                self.say(_("Match over. Winner: {names}.").format(
                    names=", ".join(self.names[w] for w in view.winners)), "bold green")
                choice = await self._ask("over")
                self.exit(result=choice)
                return
            if turn is Turn.CHANCE:
                self._tell_chance(s.chance_action())
                continue
            if turn is Turn.BOT:
                self.mode = "busy"
                self.redraw()
                # The bot thinks during the pause, so a move takes max(delay, thinking), not both.
                pause = self.delay
                if not view.trick and view.tricks and view.phase.value == "play":
                    pause += self.delay  # let the finished trick be seen before a new lead
                loop = asyncio.get_running_loop()
                started = loop.time()
                seat, bot_view = s.bot_view()
                move = await asyncio.to_thread(s.decide, seat, bot_view, self.think)
                await asyncio.sleep(max(0.0, pause - (loop.time() - started)))
                if move.fallback:
                    self.say(_("{name} {why}; playing the default.").format(
                        name=self.names[seat], why=move.fallback), "red")
                self._apply_and_tell(move.action, human=False)
                continue
            if len(view.legal) == 1 and view.legal[0].kind != "play":
                self._apply_and_tell(view.legal[0], human=True)  # nothing to decide
                continue
            await self._ask("act")

    def _tell_chance(self, action: Any) -> None:
        """Apply a chance step and say what it did."""
        self.session.apply(action)
        after = self.session.view()
        if action.kind == "draw":  # drawn face up, so everyone sees them
            short = render.short_names(self.names)
            self.say(_("Draw for dealer:") + " " + ", ".join(
                f"{short[seat]} {card.pretty}" for seat, card in enumerate(action.cards)))
        if action.kind in ("draw", "choose_dealer") and after.dealer is not None:
            first = render.deals_first(self.names[after.dealer], mine=after.dealer == self.session.human)
            self.say(_("{sentence}.").format(sentence=first), "bold")  # each language ends it its way
        elif action.kind == "draw":
            self.say(_("A tie: everyone draws again."), "dim")
        if action.kind == "deal" and not after.notice:
            self.say(_("Deal {number}: the cards are dealt.").format(number=number(len(after.results) + 1)),
                     "dim")

    def _apply_and_tell(self, action: Any, *, human: bool) -> None:
        """Apply (the person's actions through :meth:`Session.apply_human`) and say what happened."""
        tricks = len(self.session.view().tricks)
        if human:
            self.session.apply_human(action)
        else:
            self.session.apply(action)
        self.say(render.describe(action, self.names, you=self.session.human))
        view = self.session.view()
        if len(view.tricks) > tricks:
            winner = view.tricks[-1].winner
            took = (_("You took trick {number}.") if winner == self.session.human
                    else _("{name} took trick {number}."))
            self.say(took.format(name=self.names[winner], number=number(len(view.tricks))), "yellow")

    async def _ask(self, mode: str) -> str:
        """Wait for the person: to act, to continue after a deal, or to quit at the end."""
        loop = asyncio.get_running_loop()
        self._waiting = loop.create_future()
        self.mode = mode
        self.buffer = ""
        if mode == "act":
            self._prepare_selection()
            options: Options = self.session.game.options
            timer = options.turn_timer
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
        order = render.hand_order(view)
        legal = set(view.legal_cards)
        self.marked = set()
        if legal:
            if self.selected_card is None or self.selected_card >= len(order) or \
                    order[self.selected_card] not in legal:
                self.selected_card = next((i for i, c in enumerate(order) if c in legal), None)
        elif any(a.kind == "exchange" for a in view.legal):
            self.selected_card = 0 if order else None
        menu = render.menu_actions(view)
        if menu and menu[0].kind == "call":
            n = _suggest_call(view, [a.tricks for a in menu if isinstance(a, Call)])
            self.selected_choice = next((i for i, a in enumerate(menu) if isinstance(a, Call) and a.tricks == n), 0)
        elif menu and view.to_act == self.session.human:
            default = self.session.default_action()
            self.selected_choice = menu.index(default) if default in menu else 0

    def _tick(self) -> None:
        if self._deadline is None or self.mode != "act":
            return
        if asyncio.get_running_loop().time() >= self._deadline:
            self._deadline = None
            self.say(_("Time is up: the table plays the default for you."), "bold red")
            self._submit(self.session.default_action())
        else:
            self.redraw()

    # --- acting for the person ---------------------------------------------------------

    def _submit(self, action: Any) -> bool:
        """Apply the person's action; a refusal is shown and changes nothing."""
        try:
            self._apply_and_tell(action, human=True)
        except CallbreakError as e:
            self._refuse(self._why_refused(action, e))
            return False
        self.buffer = ""
        self._resolve("done")
        self.redraw()
        return True

    def _why_refused(self, action: Any, error: CallbreakError) -> str:
        """The game's reason for refusing the person's action; the games give theirs in English,
        so another language says what is allowed instead (a card or a number out of range, the
        refusals a person can cause: every other choice is offered only when it is legal)."""
        if language.current() == i18n.DEFAULT:
            return str(error)
        view = self.session.view()
        if isinstance(action, Play):
            return _("{card} cannot be played now; you may play {cards}").format(
                card=card_words(action.card), cards=" ".join(c.pretty for c in view.legal_cards))
        numbers = [a.tricks for a in view.legal if isinstance(a, Call | Bid) and a.kind == action.kind]
        if isinstance(action, Call | Bid) and numbers:
            return _("{number} cannot be chosen now; choose {range}").format(
                number=number(action.tricks), range=f"{number(min(numbers))}-{number(max(numbers))}")
        return str(error)

    def _submit_quiet(self, action: Any) -> None:
        """An action that does not end the person's turn (looking at the cards)."""
        try:
            self.session.apply_human(action)
        except CallbreakError as e:
            self.say(_("Not allowed: {why}").format(why=e), "bold red")
        else:
            self.say(_("You look at your cards."))
            if self.mode == "act":
                self._prepare_selection()
        self.redraw()

    def _refuse(self, why: str) -> None:
        self.buffer = ""
        self.say(_("Not allowed: {why}").format(why=why), "bold red")
        self.redraw()

    def _act_on_selection(self, view: View) -> None:
        """Enter with nothing typed: the selected card or choice, or the marked discards."""
        me = self.session.human
        kinds = {a.kind for a in view.legal}
        order = render.hand_order(view)
        menu = render.menu_actions(view)
        if "play" in kinds:
            if self.selected_card is not None and self.selected_card < len(order):
                self._submit(Play(me, order[self.selected_card]))
        elif "exchange" in kinds:
            self._submit(Exchange(me, tuple(sorted(self.marked))))
        elif "look" in kinds and view.hand is None:
            self._submit_quiet(render.key_actions(view)["l"])
        elif menu:
            self._submit(menu[self.selected_choice % len(menu)])

    def _act_on_text(self, view: View, text: str) -> None:
        """What was typed and confirmed with Enter: a card or its number, or a call or bid."""
        me = self.session.human
        text = text.strip()
        kinds = {a.kind for a in view.legal}
        if "play" in kinds:
            card = self._card_from_text(view, text)
            if card is not None:
                self._submit(Play(me, card))
        elif kinds & {"call", "bid"}:
            word = "call" if "call" in kinds else "bid"
            blind = word == "call" and text.lower().endswith("b")
            digits = text[:-1] if blind else text
            if not (digits.isascii() and digits.isdigit()):
                numbers = [a.tricks for a in view.legal if isinstance(a, Call | Bid) and a.kind == word]
                span = f"{number(min(numbers))}-{number(max(numbers))}"
                if any(isinstance(a, Call) and a.blind for a in view.legal):
                    why = _("{typed} is not a call: type a whole number {range} (add b to call blind)")
                elif word == "call":
                    why = _("{typed} is not a call: type a whole number {range}")
                elif "pass" in kinds:
                    why = _("{typed} is not a bid: type a whole number {range} or p to pass")
                else:
                    why = _("{typed} is not a bid: type a whole number {range}")
                self._refuse(why.format(typed=repr(text), range=span))
                return
            self._submit(Call(me, int(digits), blind=blind) if word == "call" else Bid(me, int(digits)))
        else:
            self._refuse(_("nothing to type here; {keys}").format(keys=render.keys_help(view)))

    def _card_from_text(self, view: View, text: str) -> Card | None:
        order = render.hand_order(view)
        if text.isascii() and text.isdigit():
            n = int(text)
            if not 1 <= n <= len(order):
                self._refuse(_("no card number {number}: your cards are numbered {range}").format(
                    number=number(n), range=f"{number(1)}-{number(len(order))}"))
                return None
            return order[n - 1]
        try:
            card = Card.parse(text)
        except CallbreakError:
            self._refuse(_("{typed} is not a card: type a rank and a suit like QH, 10S or TS, or a "
                           "card number {range}").format(typed=repr(text),
                                                         range=f"{number(1)}-{number(len(order))}"))
            return None
        if card not in order:
            legal = " ".join(c.pretty for c in order if c in set(view.legal_cards))
            self._refuse(_("you do not hold {card}; you may play {cards}").format(
                card=card_words(card), cards=legal))
            return None
        return card

    def _toggle_mark(self, view: View, index: int) -> None:
        order = render.hand_order(view)
        if not 0 <= index < len(order):
            self._refuse(_("no card number {number}: your cards are numbered {range}").format(
                number=number(index + 1), range=f"{number(1)}-{number(len(order))}"))
            return
        self.selected_card = index
        self.marked ^= {order[index]}
        self.redraw()

    def _move(self, view: View, step: int) -> None:
        order = render.hand_order(view)
        kinds = {a.kind for a in view.legal}
        if "play" in kinds:
            legal = [i for i, c in enumerate(order) if c in set(view.legal_cards)]
        elif "exchange" in kinds:
            legal = list(range(len(order)))
        else:
            menu = render.menu_actions(view)
            if menu:
                self.selected_choice = (self.selected_choice + step) % len(menu)
            return
        if legal:
            pos = legal.index(self.selected_card) if self.selected_card in legal else -step
            self.selected_card = legal[(pos + step) % len(legal)]

    # --- input -------------------------------------------------------------------------

    def on_key(self, event: events.Key) -> None:
        if event.key.startswith("ctrl+"):
            return  # leave ctrl+q (quit) and friends to Textual
        event.stop()
        event.prevent_default()
        if event.key == "f2":
            self.switch_language()
            return
        try:
            self._handle_key(event.key, event.character)
        except Exception as e:  # noqa: BLE001 - a key press must never end the game
            self.buffer = ""
            self.say(_("That key could not be handled ({error}); the game goes on.").format(
                error=f"{type(e).__name__}: {e}"), "bold red")
            self.redraw()

    def _handle_key(self, key: str, char: str | None) -> None:
        if char:
            char = language.typed_digit(char)  # ३ or ৩, as the Nepali or Bengali screen numbers cards
        if self.mode == "over":
            if key in ("enter", "escape", "space") or char in ("q", "Q"):
                self._resolve("quit")
            elif char in ("r", "R") and self._review_offer():
                self._resolve("review")
            elif char:
                self.say(_("The match is over: Enter or q quits."), "dim")
                self.redraw()
            return
        if self.mode in ("continue", "stop"):
            if key in ("enter", "space"):
                self._resolve("deal")
            elif self.mode == "stop" and char in ("s", "S"):
                self._resolve("stop")
            elif char:
                self.say(_("Between deals: Enter deals again, s stops the match.") if self.mode == "stop"
                         else _("Between deals: Enter starts the next deal."), "dim")
                self.redraw()
            return
        view = self.session.view()
        look = render.key_actions(view).get("l")
        if char in ("l", "L") and not self.buffer and look is not None:
            self._submit_quiet(look)  # the cards may be looked at before it is one's turn
            return
        if self.mode != "act":
            if char == "?":
                self.say(_(HELP))
            elif char or key == "enter":
                self.say(_("Please wait for your turn."), "dim")
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
            self.marked = set()
        elif char and char.isprintable() and not self.buffer and self._single_key(view, char.lower()):
            return
        elif char and char.isprintable() and char != " ":
            if len(self.buffer) >= 6:
                self.say(_("Too much typed: Esc clears, Enter confirms."), "red")
            else:
                self.buffer += char
        self.redraw()

    def _single_key(self, view: View, char: str) -> bool:
        """A key that acts by itself (a choice's key, marking a discard, b, a hint, help); True
        when it was one."""
        action = render.key_actions(view).get(char)
        selected = render.menu_actions(view)[self.selected_choice:self.selected_choice + 1]
        if action is not None:
            self._submit(action)
        elif any(a.kind == "exchange" for a in view.legal) and (char == " " or char.isdigit()):
            if char != " ":
                self._toggle_mark(view, int(char) - 1)
            elif self.selected_card is not None:
                self._toggle_mark(view, self.selected_card)
        elif char == "b" and selected and isinstance(selected[0], Call) and \
                any(isinstance(a, Call) and a.blind for a in view.legal):
            self._submit(Call(self.session.human, selected[0].tricks, blind=True))
        elif char in "hi":
            self._ask_hint(view)
        elif char == "?":
            self.say(_(HELP))
            self.redraw()
        else:
            return False
        return True

    def _ask_hint(self, view: View) -> None:
        if self._hint_busy:  # one hint bot, one question at a time (bots need not be thread-safe)
            self.say(_("Still thinking about the hint…"), "dim")
            self.redraw()
            return
        # Identifies the decision point, so a hint that arrives late is not shown for the next one.
        stamp = len(self.session.game.history)
        self._hint_for = stamp
        self._hint_busy = True
        self.say(_(THINKING), "dim")
        self.redraw()
        self.run_worker(self._hint(view, stamp), group="hint", exit_on_error=False)

    async def _hint(self, view: View, stamp: int) -> None:
        try:
            name, decision = await asyncio.to_thread(self.session.hint, view, self.think)
        except Exception as e:  # noqa: BLE001 - a hint must never end the game
            self.say(_("No hint available: {why}").format(why=e), "red")
            self.redraw()
            return
        finally:
            self._hint_busy = False
        if self._hint_for != stamp or self.mode != "act":
            return  # the game moved on while the bot thought
        if self.messages and self.messages[-1].plain == _(THINKING):
            self.messages.pop()  # the hint takes the place of "thinking" on the status lines
        action = decision.action
        # The bots give their reasons in English: another language shows the advice alone.
        why = f" ({decision.reason})" if decision.reason and language.current() == i18n.DEFAULT else ""
        self.say(_("Hint from {bot}: {advice}").format(bot=name, advice=render.advice(action)) + why,
                 "bold cyan")
        order = render.hand_order(view)
        menu = render.menu_actions(view)
        if isinstance(action, Play) and action.card in order:
            self.selected_card = order.index(action.card)
        elif isinstance(action, Exchange):
            self.marked = set(action.cards)
        elif action in menu:
            self.selected_choice = menu.index(action)
        self.redraw()

    # --- mouse -------------------------------------------------------------------------

    def action_pick_card(self, index: int) -> None:
        """A click on a card in the hand: play it, or mark it for an exchange."""
        view = self.session.view()
        kinds = {a.kind for a in view.legal}
        if self.mode != "act":
            return
        if "exchange" in kinds:
            self._toggle_mark(view, index)
        elif "play" in kinds and 0 <= index < len(render.hand_order(view)):
            self.selected_card = index
            self._submit(Play(self.session.human, render.hand_order(view)[index]))

    def action_pick_choice(self, index: int) -> None:
        """A click on a choice (a call, a bid, a suit, play or not)."""
        menu = render.menu_actions(self.session.view())
        if self.mode == "act" and 0 <= index < len(menu):
            self.selected_choice = index
            self._submit(menu[index])


def _suggest_call(view: View, numbers: list[int]) -> int:
    """A starting point for the call picker: a rough count of sure tricks, within range."""
    hand = view.hand or ()
    trumps = [c for c in hand if c.suit == view.trump]
    sure = sum(1 for c in hand if c.rank == 14) + sum(1 for c in hand if c.rank == 13 and c.suit != view.trump)
    sure += max(0, len(trumps) - 3)
    return max(min(numbers), min(max(numbers), sure))
