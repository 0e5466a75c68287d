"""Stepping through any game's record in the terminal (``callbreak replay FILE --step``).

The record is replayed through the game once; each step shows one seat's view of the state after
an action, so even a replay draws only what that seat could see. Tab changes whose seat the table
is seen from.
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.containers import Horizontal
from textual.widgets import Static

from callbreak.cli.tui import render
from callbreak.cli.tui.language import _, number, said
from callbreak.cli.tui.saves import unfinished_play_seat
from callbreak.cli.tui.session import label_words, seat_names
from callbreak.cli.tui.widgets import Clickable
from callbreak.core.actions import Action
from callbreak.core.game import GameOf
from callbreak.core.words import N_
from callbreak.games import View, game_info
from callbreak.record import Record, replay_states

REPLAY_KEYS = N_("→ next  ← back  t/T trick  d/D deal  Home/End  Tab seat  s scores  q quit")


class ReplayApp(App[None]):
    """A record, action by action, trick by trick, deal by deal."""

    CSS = """
    Screen { layout: vertical; }
    #title { height: 1; background: $primary-darken-2; padding: 0 1; }
    #middle { height: 1fr; min-height: 11; }
    #table { width: 1fr; padding: 0 1; }
    #scores { width: 28; padding: 0 1; border-left: solid $primary; }
    #status { height: 2; padding: 0 1; }
    #hand { height: 2; padding: 0 1; }
    #keys { height: 1; padding: 0 1; background: $primary-darken-3; color: $text-muted; }
    """

    def __init__(self, record: Record, *, seat: int = 0) -> None:
        super().__init__()
        self.record = record
        self.title = _("{game} replay").format(game=_(record.title))
        self.states: list[GameOf[View, Action]] = list(replay_states(record))
        self.tricks = [len(s.view(None).tricks) for s in self.states]
        self.index = 0
        self.seat = seat
        self.show_board = False
        self.locked = unfinished_play_seat(record, self.states[-1])
        """The person's seat of a `callbreak play` match that is not over yet: the only seat a
        replay may show, so stepping through a save cannot reveal the bots' hands mid-match."""
        if self.locked is not None:
            self.seat = self.locked
        self.note = ""

    @property
    def names(self) -> tuple[str, ...]:
        """Seats named by where they sit as seen from the watched seat, with their record name."""
        return seat_names(self.seat, self.record.seats)

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        with Horizontal(id="middle"):
            yield Static(id="table")
            yield Static(id="scores")
        yield Static(id="status")
        yield Clickable(id="hand")
        yield Static(_(REPLAY_KEYS), id="keys")

    def on_mount(self) -> None:
        self.redraw()

    # --- positions ---------------------------------------------------------------------

    @property
    def last(self) -> int:
        return len(self.states) - 1

    def _trick_ends(self) -> list[int]:
        """State indexes right after a trick was completed (or a deal scored)."""
        return [i for i in range(1, len(self.states))
                if self.tricks[i] > self.tricks[i - 1]
                or len(self.states[i].results) > len(self.states[i - 1].results)]

    def _deal_starts(self) -> list[int]:
        """State indexes right after the cards were dealt."""
        return [i for i in range(1, len(self.states))
                if self.record.actions[i - 1].kind == "deal"]

    def go(self, index: int) -> None:
        self.index = max(0, min(self.last, index))
        self.redraw()

    def _jump(self, marks: list[int], forward: bool) -> None:
        if forward:
            target = next((i for i in marks if i > self.index), self.last)
        else:
            target = next((i for i in reversed(marks) if i < self.index), 0)
        self.go(target)

    # --- drawing -----------------------------------------------------------------------

    def redraw(self) -> None:
        view = self.states[self.index].view(self.seat)
        self.query_one("#title", Static).update(
            _("Replay · seen from seat {seat} ({name}) · step {step}/{steps}").format(
                seat=number(self.seat), name=label_words(self.record.seats[self.seat]), step=number(self.index),
                steps=number(self.last)) + (" · " + _("not over") if self.locked is not None else ""))
        between = view.phase.value in ("deal", "over") and bool(view.results)
        if self.show_board or between:
            table = self.query_one("#table", Static)
            rows = (table.content_size.height or 18) - 7  # the lines around the deals' rows
            table.update(render.scoreboard(view, self.names, final=view.is_over, rows=rows,
                                           me=self.seat, low_wins=game_info(self.record.game).low_wins))
        else:
            self.query_one("#table", Static).update(render.table_view(view, self.names, self.seat))
        scores = self.query_one("#scores", Static)
        scores.display = not (self.show_board or between)  # the board needs the whole width
        scores.update(render.scores_view(view, self.names, self.seat))
        if self.index == 0:
            status = Text(_("Start of the record. → steps forward."), style="dim")
        else:
            action = self.record.actions[self.index - 1]
            status = Text(render.describe(action, render.short_names(self.names)), style="bold")
            if view.notice:
                status.append("\n" + said(view.notice_words, view.notice), style="magenta")
        if self.note:
            status = Text(self.note, style="bold red")
            self.note = ""
        self.query_one("#status", Static).update(status)
        my_play = view.phase.value == "play" and view.to_act == self.seat
        if view.hand is None and view.phase.value == "call":
            hand = Text(_("(cards face down: this seat has not looked yet)"), style="italic")
        else:
            hand = render.hand_text(view, selected=None, my_turn=my_play)
        self.query_one("#hand", Static).update(hand)

    # --- input -------------------------------------------------------------------------

    def on_key(self, event: events.Key) -> None:
        key, char = event.key, event.character or ""
        if key.startswith("ctrl+"):
            return
        event.stop()
        event.prevent_default()
        if key in ("right", "space") or char == "n":
            self.go(self.index + 1)
        elif key in ("left", "backspace") or char == "p":
            self.go(self.index - 1)
        elif char == "t":
            self._jump(self._trick_ends(), True)
        elif char == "T":  # back a trick; the deal's start counts, so T never skips a deal
            self._jump(sorted(set(self._trick_ends()) | set(self._deal_starts())), False)
        elif char == "d":
            self._jump(self._deal_starts(), True)
        elif char == "D":
            self._jump(self._deal_starts(), False)
        elif key == "home" or char == "g":
            self.go(0)
        elif key == "end" or char == "G":
            self.go(self.last)
        elif key in ("tab", "shift+tab") and self.locked is not None:
            self.note = _("The game is not over, so only your seat can be watched; "
                          "`callbreak play --resume` continues it.")
            self.redraw()
        elif key == "tab":
            self.seat = (self.seat + 1) % self.record.players
            self.redraw()
        elif key == "shift+tab":
            self.seat = (self.seat - 1) % self.record.players
            self.redraw()
        elif char == "s":
            self.show_board = not self.show_board
            self.redraw()
        elif char in ("q", "Q") or key == "escape":
            self.exit()

