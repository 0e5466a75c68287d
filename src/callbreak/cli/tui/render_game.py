"""Drawing a related game's seat view (:class:`~callbreak.games.GameView`) as Rich renderables.

One renderer for every related game and table size (3 to 8 seats): the games share one view
dataclass, so the table is a row per seat (who deals and acts, in or out, bid, tricks, score, the
card on the table) and the contract phases are a menu of the view's legal actions. Like
:mod:`callbreak.cli.tui.render` it takes a view, never a game, so it can only show what that seat
may know. Cards reuse :func:`callbreak.cli.tui.render.card_text`.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich import box
from rich.console import Group, RenderableType
from rich.style import Style
from rich.table import Table
from rich.text import Text

from callbreak.cli.tui.render import card_text, short_names
from callbreak.core.actions import Play
from callbreak.games import Bid, Exchange, GameDeal, GamePhase, GameView, Join, NameTrump, Pass, Settle

# What "not playing this hand" is called in each game (000's own words).
OUT_WORD = {"snarples": "sit out", "donut": "drop", "horsethief": "out"}

_OUT_VERB = {"snarples": ("sit out", "sits out"), "donut": ("drop", "drops"),
             "horsethief": ("go out", "goes out")}

# Keys that choose a contract action directly (shown on screen by :func:`keys_help`).
SUIT_KEYS = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"}


def choice_label(action: object, game: str) -> str:
    """A short menu label for a contract action."""
    if isinstance(action, Bid):
        return str(action.tricks)
    if isinstance(action, Pass):
        return "pass"
    if isinstance(action, NameTrump):
        return f"{action.suit.symbol} {action.suit.name.lower()}"
    if isinstance(action, Join):
        return "play" if action.playing else OUT_WORD.get(game, "sit out")
    if isinstance(action, Settle):
        return "others +5 each" if action.penalize_others else "me -5"
    return str(action)


def menu_actions(view: GameView) -> list[object]:
    """The legal actions offered as a menu (everything but card plays and exchanges)."""
    return [a for a in view.legal if not isinstance(a, (Play, Exchange))]


def choices_text(view: GameView, *, selected: int, click_action: str = "app.pick_choice") -> Text:
    """The menu of legal contract actions, the selected one highlighted, each clickable."""
    out = Text()
    for i, action in enumerate(menu_actions(view)):
        style = Style.parse("bold reverse" if i == selected else "bold")
        out.append(f" {choice_label(action, view.game)} ",
                   style=style + Style.from_meta({"@click": f"{click_action}({i})"}))
        out.append(" ")
    return out


def keys_help(view: GameView) -> str:
    """The keys for the phase the person is asked to act in (the bottom line of the screen)."""
    phase = view.phase
    if phase is GamePhase.PLAY:
        return "←→ choose  Enter play  type QH or 3  i hint  ? help  ctrl+q save+quit"
    if phase is GamePhase.AUCTION:
        passing = "  p pass" if any(isinstance(a, Pass) for a in view.legal) else ""
        return f"←→ choose  Enter ok  type a number{passing}  i hint  ctrl+q save+quit"
    if phase is GamePhase.TRUMP:
        return "s h d c name trump  ←→ Enter  i hint  ctrl+q save+quit"
    if phase is GamePhase.JOIN:
        return f"y play  n {OUT_WORD.get(view.game, 'sit out')}  ←→ Enter  i hint  ctrl+q save+quit"
    if phase is GamePhase.SETTLE:
        return "m me -5  o others +5 each  ←→ Enter  ctrl+q save+quit"
    if phase is GamePhase.EXCHANGE:
        return "←→ move  Space or 1-5 mark a discard  Enter exchange  i hint  ctrl+q save+quit"
    return "Enter continue  ? help  ctrl+q save+quit"


def _status(view: GameView, seat: int) -> str:
    if not view.in_game[seat]:
        return "dropped out"
    joined = view.joined[seat]
    if joined is False or (view.phase is GamePhase.PLAY and not view.active[seat]):
        return OUT_WORD.get(view.game, "out")
    if joined is True:
        return "playing"
    return ""


def _bid(view: GameView, seat: int) -> str:
    if view.bids[seat] is not None:
        mark = "*" if view.declarer == seat else ""
        return f"{view.bids[seat]}{mark}"
    return "pass" if view.passed[seat] else "-"


def table_view(view: GameView, names: Sequence[str]) -> RenderableType:
    """The table: the hand's facts, then a row per seat with the cards on the table."""
    head = Text(f"Hand {view.hand_number}", style="bold")
    if view.trump is not None:
        head.append(f" · trump {view.trump.symbol}")
    elif view.phase in (GamePhase.PLAY, GamePhase.OVER) and not view.low_high:
        head.append(" · no trump")
    else:
        head.append(" · trump not named yet" if view.phase is not GamePhase.PLAY else "")
    if view.low_high:
        head.append(" · no trump, ranks reversed (2 high)", style="magenta")
    if view.upcard is not None:
        head.append(" · upcard ")
        head.append_text(card_text(view.upcard))
    if view.declarer is not None and view.contract is not None:
        head.append(f" · {short_names(names)[view.declarer]} bid {view.contract}")
    if view.stock_size:
        head.append(f" · stock {view.stock_size}", style="dim")
    on_table: dict[int, Text] = {}
    dim = False
    if view.trick:
        for seat, card in zip(view.trick_seats, view.trick, strict=True):
            on_table[seat] = card_text(card)
    elif view.tricks and view.phase is GamePhase.PLAY:
        last = view.tricks[-1]
        dim = True
        for seat, card in zip(last.seats, last.cards, strict=True):
            on_table[seat] = card_text(card, extra="dim" if seat != last.winner else "reverse")
    # Only games with bids or calls get a bid column (Donut and Horsethief have none).
    bids = view.phase is GamePhase.AUCTION or any(b is not None for b in view.bids) or any(view.passed)
    table = Table("", "seat", "", *(["bid"] if bids else []), "won", "score", "table", box=None,
                  padding=(0, 1), show_edge=False)
    for seat, name in enumerate(names):
        marks = ("▶" if view.to_act == seat else "") + ("D" if view.dealer == seat else "")
        style = "bold yellow" if view.to_act == seat else ("dim" if not view.in_game[seat] else "")
        table.add_row(marks, name, _status(view, seat), *([_bid(view, seat)] if bids else []),
                      str(view.won[seat]), str(view.scores[seat]),
                      on_table.get(seat, Text("·", style="dim")), style=style)
    parts: list[RenderableType] = [head, table]
    if dim:
        last = view.tricks[-1]
        parts.append(Text(f"trick {len(view.tricks)} → {short_names(names)[last.winner]}", style="dim"))
    if view.notice:
        parts.append(Text(view.notice, style="magenta"))
    return Group(*parts)


def scoreboard(view: GameView, names: Sequence[str], *, final: bool) -> RenderableType:
    """Hand-by-hand points (tricks won in brackets), the totals, and the winners when over."""
    short = short_names(names)
    table = Table("hand", *short, title="Final standings" if final else "Scores", title_style="bold",
                  padding=(0, 1), box=box.SIMPLE_HEAD, show_edge=False)
    for r in view.results[-12:]:  # keep the board on one 24-line screen
        cells = [f"{r.points[s]:+d} ({r.won[s]})" if r.active[s] else f"{r.points[s]:+d} -"
                 for s in range(view.players)]
        table.add_row(str(r.number), *cells)
    table.add_row("total", *(Text(str(t), style="bold") for t in view.scores), end_section=True)
    parts: list[RenderableType] = [table]
    if view.results and view.results[-1].note:
        parts.append(Text(view.results[-1].note, style="dim"))
    if final and view.winners:
        verb = "wins" if len(view.winners) == 1 else "share the win"
        parts.append(Text(f"{', '.join(short[s] for s in view.winners)} {verb}!", style="bold green"))
    return Group(*parts)


def describe(action: object, names: Sequence[str], game: str) -> str:
    """A short sentence for an action, for the message line."""
    if isinstance(action, GameDeal):
        return "the cards are dealt"
    seat = getattr(action, "seat", None)
    who = names[seat] if isinstance(seat, int) else "?"
    s = "" if who in ("You", "you") else "s"
    if isinstance(action, Play):
        return f"{who} play{s} {action.card.pretty}"
    if isinstance(action, Bid):
        return f"{who} bid{s} {action.tricks}"
    if isinstance(action, Pass):
        return f"{who} pass{'' if s == '' else 'es'}"
    if isinstance(action, NameTrump):
        return f"{who} name{s} {action.suit.name.lower()} trump"
    if isinstance(action, Join):
        if action.playing:
            return f"{who} play{s} this hand"
        you, them = _OUT_VERB.get(game, _OUT_VERB["snarples"])
        return f"{who} {you if s == '' else them}"
    if isinstance(action, Exchange):
        n = len(action.cards)
        return f"{who} exchange{s} {n} card{'' if n == 1 else 's'}" if n else f"{who} keep{s} the hand"
    if isinstance(action, Settle):
        return (f"{who} give{s} everyone else +5" if action.penalize_others
                else f"{who} take{s} -5")
    return str(action)
