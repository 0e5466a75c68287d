"""Drawing a seat view as Rich renderables: the hand, the table, the scores.

Everything here takes a :class:`~callbreak.core.SeatView` (never a match), so the pictures can
only ever show what that seat may know. ``me`` is the seat drawn at the bottom of the table;
play goes to the right, so the next seat is drawn on the right, then the top, then the left.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich import box
from rich.console import Group, RenderableType
from rich.style import Style
from rich.table import Table
from rich.text import Text

from callbreak.core import Action, Card, Phase, SeatView, Suit, format_points
from callbreak.core.cards import sort_for_display
from callbreak.core.tricks import trick_winner
from callbreak.games import GameView

RED = "bold red"
BLACK = "bold"


def suit_style(suit: Suit) -> str:
    return RED if suit.is_red else BLACK


def card_text(card: Card, *, extra: str = "", width: int = 0) -> Text:
    """A card with its suit symbol, red for hearts and diamonds."""
    label = card.pretty.rjust(width) if width else card.pretty
    return Text(label, style=f"{suit_style(card.suit)} {extra}".strip())


def hand_order(view: SeatView | GameView) -> list[Card]:
    """The hand as drawn: grouped by suit (colours alternating), high to low."""
    return sort_for_display(view.hand or ())


def hand_text(view: SeatView | GameView, *, selected: int | None, my_turn: bool,
              click_action: str = "app.pick_card", marked: frozenset[Card] = frozenset()) -> Text:
    """Two lines: card numbers over the cards, grouped by suit.

    On the seat's turn to play, legal cards are bright and underlined and the others dimmed.
    Each card is clickable (``click_action(index)``). ``marked`` cards (chosen for a Horsethief
    exchange) are struck through.
    """
    cards = hand_order(view)
    if view.hand is None:
        return Text("(your cards are face down: press L to look at them)", style="italic")
    if not cards:
        return Text("(no cards in hand)", style="dim")
    legal = set(view.legal_cards) if my_turn else set()
    numbers, faces = Text(), Text()
    previous: Suit | None = None
    for i, card in enumerate(cards):
        if card.suit != previous:
            if previous is not None:
                numbers.append("  ")
                faces.append("  ")
            numbers.append("  ")
            faces.append(card.suit.symbol + " ", style=suit_style(card.suit))
            previous = card.suit
        click = Style.from_meta({"@click": f"{click_action}({i})"})
        style = Style.parse(suit_style(card.suit))
        if legal:
            style += Style.parse("underline") if card in legal else Style.parse("dim")
        if i == selected:
            style += Style.parse("reverse")
        if card in marked:
            style += Style.parse("strike on grey23")
        num_style = Style.parse("dim" if legal and card not in legal else "cyan")
        numbers.append(f"{i + 1:>2} ", style=num_style + click)
        faces.append(f"{card.rank.label:>2}", style=style + click)
        faces.append(" ", style=click)
    return Text("\n").join([numbers, faces])


def calls_text(view: SeatView, *, selected: int, click_action: str = "app.pick_call") -> Text:
    """The call range as clickable numbers, the selected one highlighted."""
    out = Text()
    for n in view.rules.call_range:
        style = Style.parse("bold reverse" if n == selected else "bold")
        out.append(f"{n:>2}", style=style + Style.from_meta({"@click": f"{click_action}({n})"}))
        out.append(" ")
    return out


def _seat_info(view: SeatView, seat: int, names: Sequence[str], *, last_winner: int | None,
               justify: str) -> Text:
    """Name (and bot), call and tricks won, and whether the seat deals or is to act."""
    name, _, bot = names[seat].partition(" (")
    text = Text(justify=justify)  # type: ignore[arg-type]
    text.append(name, style="bold yellow" if view.to_act == seat else "bold")
    if bot:
        text.append(f" {bot.rstrip(')')}", style="dim")
    call = view.calls[seat]
    detail = "call -" if call is None else f"call {call}{' blind' if view.blind[seat] else ''}"
    text.append(f"\n{detail} · won {view.won[seat]}")
    marks = []
    if view.dealer == seat and view.phase is not Phase.OVER:
        marks.append("dealer")
    if view.to_act == seat:
        marks.append("▶ to act")
    elif last_winner == seat:
        marks.append("took it")
    text.append("\n" + " · ".join(marks), style="yellow" if view.to_act == seat else "dim")
    return text


def table_view(view: SeatView, names: Sequence[str], me: int) -> RenderableType:
    """The table: four seats around the current trick (or the last trick, dimmed)."""
    cards: dict[int, Text] = {}
    note = Text(justify="center")
    last_winner: int | None = None
    if view.trick:
        seats = view.trick_seats
        trump = view.trump
        win_index = trick_winner([int(c) for c in view.trick], int(trump) if trump is not None else -1)
        for i, (seat, card) in enumerate(zip(seats, view.trick, strict=True)):
            cards[seat] = card_text(card, extra="reverse" if i == win_index else "")
        led = view.trick[0].suit
        note.append(f"{_who(names, seats[0], me)} led ")
        note.append(led.symbol, style=suit_style(led))
        note.append("\n")
        note.append(f"{_who(names, seats[win_index], me)} winning", style="yellow")
    elif view.tricks and view.phase is Phase.PLAY:
        last = view.tricks[-1]
        last_winner = last.winner
        for i, card in enumerate(last.cards):
            cards[last.seat_of(i)] = card_text(card, extra="dim")
        note.append(f"trick {len(view.tricks)}\n{_who(names, last.winner, me)} won", style="dim")
    elif view.phase is Phase.CALL:
        note.append("calling", style="bold")
    elif view.phase is Phase.REDEAL_CLAIM:
        note.append("redeal claims", style="bold")
    elif view.phase is Phase.OVER:
        note.append("match over", style="bold")
    if view.phase is Phase.PLAY and not view.trick and not view.tricks and view.to_act is not None:
        note.append(f"{_who(names, view.to_act, me)} leads", style="bold")

    def at(offset: int) -> int:
        return (me + offset) % view.players

    def info(offset: int, justify: str) -> Text:
        return _seat_info(view, at(offset), names, last_winner=last_winner, justify=justify)

    def played(offset: int, justify: str = "center") -> Text:
        text = cards.get(at(offset), Text("·", style="dim")).copy()
        text.justify = justify  # type: ignore[assignment]
        return text

    middle = Table.grid(padding=(0, 0), expand=True)
    middle.add_column(ratio=3, justify="left", no_wrap=True)
    middle.add_column(width=5, justify="center", no_wrap=True)
    middle.add_column(ratio=2, justify="center")
    middle.add_column(width=5, justify="center", no_wrap=True)
    middle.add_column(ratio=3, justify="right", no_wrap=True)
    middle.add_row(info(3, "left"), played(3), note, played(1), info(1, "right"))
    return Group(info(2, "center"), played(2), Text(""), middle, Text(""), played(0), info(0, "center"))


def _who(names: Sequence[str], seat: int, me: int) -> str:
    """A seat's short name ("You", "East"); ``me`` is drawn at the bottom of the table."""
    return names[seat].split(" (")[0]


def short_names(names: Sequence[str]) -> list[str]:
    """"East (expert)" -> "East"."""
    return [n.split(" (")[0] for n in names]


def scores_view(view: SeatView, names: Sequence[str], me: int = 0) -> RenderableType:
    """Calls, tricks won and match totals for every seat, from ``me`` on in play order."""
    rules = view.rules
    deals = "unlimited" if rules.deals is None else str(rules.deals)
    number = min(view.deal_number, rules.deals or view.deal_number) if view.phase is not Phase.OVER \
        else len(view.results)
    head = Text(f"Deal {number} of {deals}", style="bold")
    if view.tiebreak_seats and view.phase is not Phase.OVER:
        head = Text("Tie-break deal", style="bold")
    trump = view.trump.symbol if view.trump is not None else "none yet"
    # The side panel is 25 columns wide: a long head puts the trump on its own line.
    head.append("\n" if len(head.plain) + len(trump) > 17 else " · ")
    head.append(f"trump {trump}")
    table = Table("", "call", "won", "score", box=None, padding=(0, 1), show_edge=False)
    short = short_names(names)
    for seat in ((me + i) % view.players for i in range(view.players)):
        name = short[seat]
        call = view.calls[seat]
        shown = "-" if call is None else f"{call}{'b' if view.blind[seat] else ''}"
        style = "yellow" if view.to_act == seat else ""
        table.add_row(name, shown, str(view.won[seat]), format_points(view.totals[seat]), style=style)
    parts: list[RenderableType] = [head, table]
    if view.tricks:
        trick = view.tricks[-1]
        line = Text("last ", style="dim")
        for card in trick.cards:
            line.append_text(card_text(card))
            line.append(" ")
        line.append(f"→ {short_names(names)[trick.winner]}", style="dim")
        parts.append(line)
    if view.results:
        last = view.results[-1]
        parts.append(Text(f"deal {last.number}: " + " ".join(format_points(p) for p in last.points),
                          style="dim"))
    return Group(*parts)


def scoreboard(view: SeatView, names: Sequence[str], *, final: bool, rows: int = 12,
               me: int = 0) -> RenderableType:
    """The deal-by-deal scores (won/call and points), totals, and the winners and standings when
    over, a column per seat from ``me`` on in play order. Only the last ``rows`` deals are
    listed (the totals count them all), so the board fits the screen it is drawn on."""
    short = short_names(names)
    order = [(me + i) % view.players for i in range(view.players)]
    rows = max(1, rows)
    title = "Final standings" if final else "Scores"
    if len(view.results) > rows:
        title += f" (last {rows} of {len(view.results)} deals)"
    table = Table("deal", *(short[s] for s in order), title=title,
                  title_style="bold", padding=(0, 1), box=box.SIMPLE_HEAD, show_edge=False)
    results = view.results[-rows:]
    for r in results:
        cells = [f"{r.won[s]}/{r.calls[s]}{'b' if r.blind[s] else ''}  {format_points(r.points[s])}"
                 for s in order]
        table.add_row(f"{r.number}{'*' if r.tiebreak else ''}", *cells)
    table.add_row("total", *(Text(format_points(view.totals[s]), style="bold") for s in order),
                  end_section=True)
    parts: list[RenderableType] = [table]
    if final and view.winners:
        winners = ", ".join(short[s] for s in view.winners)
        verb = "wins" if len(view.winners) == 1 else "share the win"
        parts.append(Text(f"{winners} {verb}!", style="bold green"))
        parts.append(standings(view, short))
        if view.chips is not None:
            parts.append(Text("chips: " + ", ".join(f"{short[s]} {view.chips[s]:+g}"
                                                    for s in range(view.players))))
    return Group(*parts)


def standings(view: SeatView, short: Sequence[str]) -> Text:
    """Places by match total, best first; equal totals share a place ("1. East 12.9  2. You 8")."""
    order = sorted(range(view.players), key=lambda s: -view.totals[s])
    text = Text("Standings: ", style="bold")
    for i, seat in enumerate(order):
        place = 1 + sum(1 for other in order if view.totals[other] > view.totals[seat])
        if i:
            text.append("  ")
        text.append(f"{place}. {short[seat]} {format_points(view.totals[seat])}",
                    style="bold green" if seat in view.winners else "")
    return text


def describe(action: Action, names: Sequence[str]) -> str:
    """A short sentence for an action, for the message line and replays."""
    kind = action.kind
    seat = getattr(action, "seat", None)
    who = names[seat] if seat is not None and kind != "choose_dealer" else ""
    s = "" if who in ("You", "you") else "s"  # "You play", "East plays"
    if kind == "play":
        return f"{who} play{s} {action.card.pretty}"  # type: ignore[union-attr]
    if kind == "call":
        blind = " blind (x2)" if action.blind else ""  # type: ignore[union-attr]
        return f"{who} call{s} {action.tricks}{blind}"  # type: ignore[union-attr]
    if kind == "look":
        return f"{who} look{s} at the cards"
    if kind == "redeal":
        if action.claim:  # type: ignore[union-attr]
            return f"{who} claim{s} a redeal"
        return f"{who} keep{s} the hand"
    if kind == "deal":
        return "the cards are dealt"
    if kind == "choose_dealer":
        return f"{names[action.seat]} deals first"  # type: ignore[union-attr]
    if kind == "draw":
        return "everyone draws a card for the first deal"
    if kind == "stop":
        return "the table stops"
    return kind
