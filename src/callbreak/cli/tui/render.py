"""Drawing any game's seat view as Rich renderables: the hand, the table, the scores, the choices.

Everything here takes a view (:class:`~callbreak.core.game.GameView`: Call Break's
:class:`~callbreak.core.SeatView` or a related game's), never a game, so the pictures can only
ever show what that seat may know. What differs between games is read from the view's legal
actions (a menu of calls, bids, passes, trump suits, play-or-sit-out, redeal claims) and from the
fields a view has (calls or bids, an upcard, a stock), not from the game's name. ``me`` is the
seat drawn at the bottom of the table; play goes to the right, so the next seat is drawn on the
right, the last one on the left and the others along the top.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.style import Style
from rich.table import Table
from rich.text import Text

from callbreak.core import Action, Card, DealResult, Suit, format_points
from callbreak.core.actions import CHANCE, Call, Join, Redeal, action_seat
from callbreak.core.cards import sort_for_display
from callbreak.core.tricks import NO_TRUMP, trick_winner
from callbreak.games import HandResult, View

RED = "bold red"
BLACK = "bold"
WIDTH = 78  # what the bottom lines must fit in an 80-column terminal

_PHASE_NOTES = {"call": "calling", "auction": "bidding", "redeal_claim": "redeal claims",
                "trump": "naming trump", "join": "in or out", "exchange": "exchanging",
                "settle": "settling", "over": "match over"}


def suit_style(suit: Suit) -> str:
    return RED if suit.is_red else BLACK


def card_text(card: Card, *, extra: str = "", width: int = 0) -> Text:
    """A card with its suit symbol, red for hearts and diamonds."""
    label = card.pretty.rjust(width) if width else card.pretty
    return Text(label, style=f"{suit_style(card.suit)} {extra}".strip())


def hand_order(view: View) -> list[Card]:
    """The hand as drawn: grouped by suit (colours alternating), high to low."""
    return sort_for_display(view.hand or ())


def hand_text(view: View, *, selected: int | None, my_turn: bool,
              click_action: str = "app.pick_card", marked: frozenset[Card] = frozenset()) -> Text:
    """Two lines: card numbers over the cards, grouped by suit.

    On the seat's turn to play, legal cards are bright and underlined and the others dimmed.
    Each card is clickable (``click_action(index)``). ``marked`` cards (chosen for an exchange)
    are struck through.
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


# --- the choices of a turn that is not a card ---------------------------------------------------

def menu_actions(view: View) -> list[Action]:
    """The legal actions offered as a menu: everything but card plays, exchanges and looking;
    calls blind while the cards are face down, open once they are seen."""
    face_down = view.hand is None
    return [a for a in view.legal if a.kind not in ("play", "exchange", "look")
            and (not isinstance(a, Call) or a.blind == face_down)]


def choice_label(action: Any) -> str:
    """A short menu label for a choice."""
    kind = action.kind
    if kind in ("call", "bid"):
        return str(action.tricks)
    if kind == "trump":
        return f"{action.suit.symbol} {action.suit.name.lower()}"
    if kind == "join":
        return "play" if action.playing else "sit out"
    if kind == "redeal":
        return "claim a redeal" if action.claim else "keep"
    if kind == "settle":
        return "others +5 each" if action.penalize_others else "me -5"
    return str(kind)


def choices_text(view: View, *, selected: int, click_action: str = "app.pick_choice") -> Text:
    """The menu of legal choices, the selected one highlighted, each clickable."""
    out = Text()
    for i, action in enumerate(menu_actions(view)):
        style = Style.parse("bold reverse" if i == selected else "bold")
        out.append(f"{choice_label(action):>2}", style=style + Style.from_meta({"@click": f"{click_action}({i})"}))
        out.append("  ")
    return out


def key_of(action: Any) -> str | None:
    """The single key that takes ``action`` directly, if it has one."""
    kind = action.kind
    if kind == "trump":
        return str(action.suit.letter.lower())
    if isinstance(action, Join):
        return "y" if action.playing else "n"
    if isinstance(action, Redeal):
        return "y" if action.claim else "n"
    if kind == "settle":
        return "o" if action.penalize_others else "m"
    return {"pass": "p", "look": "l"}.get(kind)


def key_actions(view: View) -> dict[str, Action]:
    """The legal actions that a single key takes, by key."""
    keys = {key_of(a): a for a in view.legal}
    return {k: a for k, a in keys.items() if k is not None}


def hint_key(view: View) -> str:
    """h asks for a hint, or i where h names hearts trump."""
    return "i" if "h" in key_actions(view) else "h"


def keys_help(view: View) -> str:
    """The keys for the turn the person is asked to take (the bottom line of the screen)."""
    kinds = {a.kind for a in view.legal}
    keys = key_actions(view)
    if "play" in kinds:
        parts = ["←→ choose", "Enter play", "type QH or 3"]
    elif "exchange" in kinds:
        parts = [f"←→ Space or 1-{len(view.hand or ())} mark discards", "Enter exchange"]
    else:
        parts = ["←→ Enter choose"] if menu_actions(view) else []
    if kinds & {"call", "bid"}:
        blind = any(isinstance(a, Call) and a.blind for a in view.legal)
        parts.append("type 3 or 3b (blind)" if blind else "type a number")
    suits = sorted((k for k, a in keys.items() if a.kind == "trump"), key="shdc".index)
    if suits:
        parts.append(f"{' '.join(suits)} name trump")
    parts += [f"{k} {choice_label(a) if a.kind != 'look' else 'look'}" for k, a in keys.items()
              if a.kind != "trump"]
    parts += [f"{hint_key(view)} hint", "? help", "ctrl+q save+quit"]
    text = "  ".join(parts)
    return text if len(text) <= WIDTH else text.replace("  ? help", "")


# --- the table ------------------------------------------------------------------------------------

def contract_head(view: View) -> str:
    """The heading of the seats' contract column: "call", "bid", or "" (none to show)."""
    return view.contract_word


def contract(view: View, seat: int) -> str:
    """A seat's part in the deal's contract: its call or bid, a pass, sitting out, or "-"."""
    return view.contract_part(seat)


def _seat_info(view: View, seat: int, names: Sequence[str], *, last_winner: int | None,
               justify: str, compact: bool = False) -> Text:
    """Name (and bot), contract and tricks won, and whether the seat deals or is to act;
    ``compact`` (a crowded row) leaves out the bot and the words."""
    name, _, bot = names[seat].partition(" (")
    text = Text(justify=justify)  # type: ignore[arg-type]
    text.append(name, style="bold yellow" if view.to_act == seat else "bold")
    if bot and not compact:
        text.append(f" {bot.rstrip(')')}", style="dim")
    head, part = contract_head(view), contract(view, seat)
    if head and not compact and (part[:1].isdigit() or part == "-"):
        part = f"{head} {part}"  # "call 3", "bid 5*"; but "pass", "out"
    won = f"{view.won[seat]}" if compact else f"won {view.won[seat]}"
    text.append(f"\n{part} · {won}" if head or part != "-" else f"\n{won}")
    marks = []
    if view.dealer == seat and not view.is_over:
        marks.append("dealer")
    if view.to_act == seat:
        marks.append("▶ to act")
    elif last_winner == seat:
        marks.append("took it")
    text.append("\n" + " · ".join(marks), style="yellow" if view.to_act == seat else "dim")
    return text


def winning_index(view: View) -> int:
    """Which card of the current trick is winning it."""
    trump = NO_TRUMP if view.trump is None else int(view.trump)
    return trick_winner([int(c) for c in view.trick], trump, view.low_high)


def table_view(view: View, names: Sequence[str], me: int) -> RenderableType:
    """The table: the seats around the current trick (or the last trick, dimmed)."""
    short = short_names(names)
    cards: dict[int, Text] = {}
    note = Text(justify="center")
    last_winner: int | None = None
    if view.trick:
        seats = view.trick_seats
        win = winning_index(view)
        for i, (seat, card) in enumerate(zip(seats, view.trick, strict=True)):
            cards[seat] = card_text(card, extra="reverse" if i == win else "")
        led = view.trick[0].suit
        note.append(f"{short[seats[0]]} led ")
        note.append(led.symbol, style=suit_style(led))
        note.append(f"\n{short[seats[win]]} winning", style="yellow")
    elif view.tricks and view.phase.value == "play":
        last = view.tricks[-1]
        last_winner = last.winner
        for seat, card in zip(last.seats, last.cards, strict=True):
            cards[seat] = card_text(card, extra="dim")
        note.append(f"trick {len(view.tricks)}\n{short[last.winner]} won", style="dim")
    elif view.phase.value in _PHASE_NOTES:
        note.append(_PHASE_NOTES[view.phase.value], style="bold")
    if view.phase.value == "play" and not view.trick and not view.tricks and view.to_act is not None:
        note.append(f"{short[view.to_act]} leads", style="bold")

    def info(seat: int | None, justify: str, compact: bool = False) -> Text:
        if seat is None:
            return Text("")
        return _seat_info(view, seat, names, last_winner=last_winner, justify=justify,
                          compact=compact)

    def played(seat: int | None, justify: str = "center") -> Text:
        text = cards.get(seat, Text("·", style="dim")).copy() if seat is not None else Text("")
        text.justify = justify  # type: ignore[assignment]
        return text

    others: list[int | None] = [(me + i) % view.players for i in range(1, view.players)]
    right, top, left = ((others[0], others[1:-1], others[-1]) if len(others) >= 2
                        else (None, others, None))
    across = Table.grid(expand=True)
    for _ in top or [None]:
        across.add_column(ratio=1, justify="center")
    across.add_row(*(info(s, "center", compact=len(top) > 2) for s in top or [None]))
    across.add_row(*(played(s) for s in top or [None]))
    middle = Table.grid(padding=(0, 0), expand=True)
    middle.add_column(ratio=3, justify="left", no_wrap=True)
    middle.add_column(width=5, justify="center", no_wrap=True)
    middle.add_column(ratio=2, justify="center")
    middle.add_column(width=5, justify="center", no_wrap=True)
    middle.add_column(ratio=3, justify="right", no_wrap=True)
    middle.add_row(info(left, "left"), played(left), note, played(right), info(right, "right"))
    gap = [Text("")] if view.players <= 4 else []  # a crowded table needs the lines
    return Group(across, *gap, middle, *gap, played(me), info(me, "center"))


def short_names(names: Sequence[str]) -> list[str]:
    """"East (expert)" -> "East"."""
    return [n.split(" (")[0] for n in names]


def points(value: float) -> str:
    """A score as shown: whole points, or tenths where there are any (Call Break's)."""
    return format_points(round(value * 10)) if isinstance(value, float) else str(value)


def deal_points(result: DealResult | HandResult) -> list[str]:
    """One deal's points per seat, as its result shows them (Call Break's are kept in tenths)."""
    return list(result.shown_points)


def deal_cells(result: DealResult | HandResult, seats: Iterable[int]) -> list[str]:
    """One deal's outcome for each of ``seats``: won/call and points (Call Break), or points and
    tricks won ("-" for a seat that sat the deal out)."""
    return [result.seat_summary(s) for s in seats]


def scores_view(view: View, names: Sequence[str], me: int = 0) -> RenderableType:
    """The side panel: the deal, trump and the deal's facts, then contracts, tricks won and
    totals for every seat from ``me`` on in play order, the last trick and the last deal."""
    limit = view.deal_limit
    number = len(view.results) + (0 if view.is_over else 1)
    head = Text(f"Deal {min(number, limit or number)}" + (f" of {limit}" if limit else ""), style="bold")
    if view.tiebreak_seats and not view.is_over:
        head = Text("Tie-break deal", style="bold")
    if view.trump is not None:
        trump = view.trump.symbol
    elif view.fixed_trump is not None:  # Call Break: spades before any deal too
        trump = view.fixed_trump.symbol
    elif view.low_high:
        trump = "none, 2 high"
    else:
        trump = "none" if view.phase.value in ("play", "over") else "none yet"
    # The side panel is 25 columns wide: a long head puts the trump on its own line.
    head.append("\n" if len(head.plain) + len(trump) > 17 else " · ")
    head.append(f"trump {trump}")
    short = short_names(names)
    facts = []
    if view.upcard is not None:
        facts.append(f"upcard {view.upcard.pretty}")
    if view.contract is not None and view.declarer is not None:
        facts.append(f"{short[view.declarer]} bid {view.contract}")
    if view.stock_size:
        facts.append(f"stock {view.stock_size}")
    parts: list[RenderableType] = [head, *([Text(" · ".join(facts), style="dim")] if facts else [])]
    title = contract_head(view)
    table = Table("", *([title] if title else []), "won", "score", box=None, padding=(0, 1),
                  pad_edge=False, show_edge=False)
    table.columns[0].no_wrap = True
    for seat in ((me + i) % view.players for i in range(view.players)):
        table.add_row(short[seat], *([contract(view, seat)] if title else []), str(view.won[seat]),
                      points(view.scores[seat]), style="yellow" if view.to_act == seat else "")
    parts.append(table)
    if view.tricks:
        trick = view.tricks[-1]
        line = Text("last ", style="dim")
        for card in trick.cards:
            line.append_text(card_text(card))
            line.append(" ")
        line.append(f"→ {short[trick.winner]}", style="dim")
        parts.append(line)
    if view.results:
        last = view.results[-1]
        parts.append(Text(f"deal {last.number}: " + " ".join(deal_points(last)), style="dim"))
    return Group(*parts)


def scoreboard(view: View, names: Sequence[str], *, final: bool, rows: int = 12, me: int = 0,
               low_wins: bool = False) -> RenderableType:
    """The deal-by-deal scores (won/call or tricks, and points), totals, and the winners and
    standings when over, a column per seat from ``me`` on in play order. Only the last ``rows``
    deals are listed (the totals count them all), so the board fits the screen it is drawn on."""
    short = short_names(names)
    order = [(me + i) % view.players for i in range(view.players)]
    rows = max(1, rows)
    title = "Final standings" if final else "Scores"
    if len(view.results) > rows:
        title += f" (last {rows} of {len(view.results)} deals)"
    table = Table("deal", *(short[s] for s in order), title=title,
                  title_style="bold", padding=(0, 1), box=box.SIMPLE_HEAD, show_edge=False)
    for r in view.results[-rows:]:
        table.add_row(f"{r.number}{'*' if r.tiebreak else ''}",
                      *deal_cells(r, order))
    table.add_row("total", *(Text(points(view.scores[s]), style="bold") for s in order),
                  end_section=True)
    parts: list[RenderableType] = [table]
    if view.results and view.results[-1].note:
        parts.append(Text(view.results[-1].note, style="dim"))
    if final and view.winners:
        verb = "wins" if len(view.winners) == 1 else "share the win"
        parts.append(Text(f"{', '.join(short[s] for s in view.winners)} {verb}!", style="bold green"))
        parts.append(standings(view, short, low_wins=low_wins))
        chips = view.chips
        if chips is not None:
            parts.append(Text("chips: " + ", ".join(f"{short[s]} {chips[s]:+g}"
                                                    for s in range(view.players))))
    return Group(*parts)


def standings(view: View, short: Sequence[str], *, low_wins: bool = False) -> Text:
    """Places by total, best first (lowest first in a race-down game); equal totals share a
    place ("1. East 12.9  2. You 8")."""
    sign = 1 if low_wins else -1
    order = sorted(range(view.players), key=lambda s: sign * view.scores[s])
    text = Text("Standings: ", style="bold")
    for i, seat in enumerate(order):
        place = 1 + sum(1 for other in order if sign * view.scores[other] < sign * view.scores[seat])
        if i:
            text.append("  ")
        text.append(f"{place}. {short[seat]} {points(view.scores[seat])}",
                    style="bold green" if seat in view.winners else "")
    return text


def describe(action: Any, names: Sequence[str]) -> str:
    """A short sentence for an action, for the message line and replays."""
    kind = action.kind
    seat = action_seat(action)  # CHANCE for chance steps (the choice of first dealer among them)
    who = names[seat] if seat != CHANCE else ""
    s = "" if who in ("You", "you") else "s"  # "You play", "East plays"
    if kind == "play":
        return f"{who} play{s} {action.card.pretty}"
    if kind == "call":
        return f"{who} call{s} {action.tricks}{' blind (x2)' if action.blind else ''}"
    if kind == "bid":
        return f"{who} bid{s} {action.tricks}"
    if kind == "pass":
        return f"{who} pass{'es' if s else ''}"
    if kind == "trump":
        return f"{who} name{s} {action.suit.name.lower()} trump"
    if kind == "join":
        return f"{who} play{s} this deal" if action.playing else f"{who} sit{s} out"
    if kind == "exchange":
        n = len(action.cards)
        return f"{who} exchange{s} {n} card{'' if n == 1 else 's'}" if n else f"{who} keep{s} the hand"
    if kind == "settle":
        return f"{who} give{s} everyone else +5" if action.penalize_others else f"{who} take{s} -5"
    if kind == "look":
        return f"{who} look{s} at the cards"
    if kind == "redeal":
        return f"{who} claim{s} a redeal" if action.claim else f"{who} keep{s} the hand"
    return {"deal": "the cards are dealt", "draw": "everyone draws a card for the first deal",
            "stop": "the table stops"}.get(kind) or (
        deals_first(names[action.seat]) if kind == "choose_dealer" else str(kind))


def deals_first(name: str) -> str:
    """``East deals first``, ``You deal first``."""
    return f"{name} {'deal' if name in ('You', 'you') else 'deals'} first"
