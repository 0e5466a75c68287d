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
from rich.cells import cell_len
from rich.console import Group, RenderableType
from rich.style import Style
from rich.table import Table
from rich.text import Text

from callbreak.cli.tui.language import _, card_words, digits, number, said, suit_words
from callbreak.core import Action, Card, DealResult, Suit, format_points
from callbreak.core.actions import CHANCE, Call, Join, Redeal
from callbreak.core.cards import sort_for_display
from callbreak.core.tricks import NO_TRUMP, trick_winner
from callbreak.core.words import N_
from callbreak.games import View
from callbreak.i18n.seats import SEP, short_name

RED = "bold red"
BLACK = "bold"
WIDTH = 78  # what the bottom lines must fit in an 80-column terminal

_PHASE_NOTES = {"call": N_("calling"), "auction": N_("bidding"), "redeal_claim": N_("redeal claims"),
                "trump": N_("naming trump"), "join": N_("in or out"), "exchange": N_("exchanging"),
                "settle": N_("settling"), "over": N_("match over")}
# The words of a seat's part in the contract, as the games' views give them (the rest are numbers).
_CONTRACT_WORDS = {"call": N_("call"), "bid": N_("bid"), "pass": N_("pass"), "out": N_("out"),
                   "in": N_("in"), "gone": N_("gone")}


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
        return Text(_("(your cards are face down: press L to look at them)"), style="italic")
    if not cards:
        return Text(_("(no cards in hand)"), style="dim")
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
        numbers.append(f"{number(i + 1):>2} ", style=num_style + click)
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
        return number(action.tricks)
    if kind == "trump":
        return f"{action.suit.symbol} {suit_words(action.suit)}"
    if kind == "join":
        return _("play") if action.playing else _("sit out")
    if kind == "redeal":
        return _("claim a redeal") if action.claim else _("keep")
    if kind == "settle":
        return _("others +5 each") if action.penalize_others else _("me -5")
    if kind == "pass":
        return _("pass")
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
        parts = [_("←→ choose"), _("Enter play"), _("type QH or 3")]
    elif "exchange" in kinds:
        parts = [_("←→ Space or 1-{count} mark discards").format(count=len(view.hand or ())),
                 _("Enter exchange")]
    else:
        parts = [_("←→ Enter choose")] if menu_actions(view) else []
    if kinds & {"call", "bid"}:
        blind = any(isinstance(a, Call) and a.blind for a in view.legal)
        parts.append(_("type 3 or 3b (blind)") if blind else _("type a number"))
    suits = sorted((k for k, a in keys.items() if a.kind == "trump"), key="shdc".index)
    if suits:
        parts.append(_("{keys} name trump").format(keys=" ".join(suits)))
    parts += [f"{k} {choice_label(a) if a.kind != 'look' else _('look')}" for k, a in keys.items()
              if a.kind != "trump"]
    parts += [_("{key} hint").format(key=hint_key(view)), _("? help"), _("ctrl+q save+quit")]
    text = "  ".join(parts)
    if cell_len(text) > WIDTH:
        text = text.replace("  " + _("? help"), "")
    return text


# --- the table ------------------------------------------------------------------------------------

def contract_head(view: View) -> str:
    """The heading of the seats' contract column: "call", "bid", or "" (none to show)."""
    word = view.contract_word
    return _(_CONTRACT_WORDS[word]) if word in _CONTRACT_WORDS else word


def contract(view: View, seat: int) -> str:
    """A seat's part in the deal's contract: its call or bid, a pass, sitting out, or "-"."""
    part = view.contract_part(seat)
    return _(_CONTRACT_WORDS[part]) if part in _CONTRACT_WORDS else digits(part)


def _seat_info(view: View, seat: int, names: Sequence[str], *, last_winner: int | None,
               justify: str, compact: bool = False) -> Text:
    """Name (and bot), contract and tricks won, and whether the seat deals or is to act;
    ``compact`` (a crowded row) leaves out the bot and the words."""
    name, bot = seat_and_player(names[seat])
    text = Text(justify=justify)  # type: ignore[arg-type]
    text.append(name, style="bold yellow" if view.to_act == seat else "bold")
    if bot and not compact:
        # (beside the trick a seat has a third of the width: its player goes under its name)
        text.append(f"{chr(10) if justify != 'center' else ' '}{bot}", style="dim")
    head, part = contract_head(view), contract(view, seat)
    if head and not compact and (part[:1].isdigit() or part == "-"):
        part = f"{head} {part}"  # "call 3", "bid 5*"; but "pass", "out"
    won = number(view.won[seat]) if compact else _("won {count}").format(count=number(view.won[seat]))
    text.append(f"\n{part} · {won}" if head or part != "-" else f"\n{won}")
    marks = []
    if view.dealer == seat and not view.is_over:
        marks.append(_("dealer"))
    if view.to_act == seat:
        marks.append(_("▶ to act"))
    elif last_winner == seat:
        marks.append(_("took it"))
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
        note.append(_("{name} led").format(name=short[seats[0]]) + " ")
        note.append(led.symbol, style=suit_style(led))
        note.append("\n" + _("{name} winning").format(name=short[seats[win]]), style="yellow")
    elif view.tricks and view.phase.value == "play":
        last = view.tricks[-1]
        last_winner = last.winner
        for seat, card in zip(last.seats, last.cards, strict=True):
            cards[seat] = card_text(card, extra="dim")
        note.append(_("trick {number}").format(number=number(len(view.tricks))) + "\n"
                    + _("{name} won").format(name=short[last.winner]), style="dim")
    elif view.phase.value in _PHASE_NOTES:
        note.append(_(_PHASE_NOTES[view.phase.value]), style="bold")
    if view.phase.value == "play" and not view.trick and not view.tricks and view.to_act is not None:
        note.append(_("{name} leads").format(name=short[view.to_act]), style="bold")

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
    for _column in top or [None]:
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


def seat_and_player(name: str) -> tuple[str, str]:
    """"East · Seat 2 · expert" -> ("East · Seat 2", "expert"); "You · Seat 1" -> ("You · Seat 1", "")."""
    parts = name.split(SEP)
    cut = next((i + 1 for i, part in enumerate(parts) if any(c.isdigit() for c in part)), len(parts))
    return SEP.join(parts[:cut]), SEP.join(parts[cut:])


def short_names(names: Sequence[str]) -> list[str]:
    """"East · Seat 2 · expert" -> "East" (i18n/seats.py)."""
    return [short_name(n) for n in names]


def points(tenths: int) -> str:
    """A total as shown: whole points, or tenths where there are any (every game keeps tenths)."""
    return digits(format_points(tenths))


def deal_points(result: DealResult) -> list[str]:
    """One deal's points per seat, as its result shows them."""
    return [digits(p) for p in result.shown_points]


def deal_cells(result: DealResult, seats: Iterable[int]) -> list[str]:
    """One deal's outcome for each of ``seats``: won/call and points (Call Break), or points and
    tricks won ("-" for a seat that sat the deal out)."""
    return [digits(result.seat_summary(s)) for s in seats]


def scores_view(view: View, names: Sequence[str], me: int = 0) -> RenderableType:
    """The side panel: the deal, trump and the deal's facts, then contracts, tricks won and
    totals for every seat from ``me`` on in play order, the last trick and the last deal."""
    limit = view.deal_limit
    deal_number = len(view.results) + (0 if view.is_over else 1)
    deal = min(deal_number, limit or deal_number)
    head = Text(_("Deal {number} of {count}").format(number=number(deal), count=number(limit)) if limit
                else _("Deal {number}").format(number=number(deal)), style="bold")
    if view.tiebreak_seats and not view.is_over:
        head = Text(_("Tie-break deal"), style="bold")
    if view.trump is not None:
        trump = view.trump.symbol
    elif view.fixed_trump is not None:  # Call Break: spades before any deal too
        trump = view.fixed_trump.symbol
    elif view.low_high:
        trump = _("none, 2 high")
    else:
        trump = _("none") if view.phase.value in ("play", "over") else _("none yet")
    # The side panel is 25 columns wide: a long head puts the trump on its own line.
    trump_line = _("trump {suit}").format(suit=trump)
    head.append("\n" if cell_len(head.plain) + cell_len(trump_line) > 23 else " · ")
    head.append(trump_line)
    short = short_names(names)
    facts = []
    if view.upcard is not None:
        facts.append(_("upcard {card}").format(card=view.upcard.pretty))
    if view.contract is not None and view.declarer is not None:
        facts.append(_("{name} bid {number}").format(name=short[view.declarer],
                                                      number=number(view.contract)))
    if view.stock_size:
        facts.append(_("stock {count}").format(count=number(view.stock_size)))
    parts: list[RenderableType] = [head, *([Text(" · ".join(facts), style="dim")] if facts else [])]
    title = contract_head(view)
    table = Table("", *([title] if title else []), _("won"), _("score"), box=None, padding=(0, 1),
                  pad_edge=False, show_edge=False)
    table.columns[0].no_wrap = True
    for seat in ((me + i) % view.players for i in range(view.players)):
        table.add_row(short[seat], *([contract(view, seat)] if title else []), number(view.won[seat]),
                      points(view.totals[seat]), style="yellow" if view.to_act == seat else "")
    parts.append(table)
    if view.tricks:
        trick = view.tricks[-1]
        line = Text(_("last") + " ", style="dim")
        for card in trick.cards:
            line.append_text(card_text(card))
            line.append(" ")
        line.append(f"→ {short[trick.winner]}", style="dim")
        parts.append(line)
    if view.results:
        last = view.results[-1]
        parts.append(Text(_("deal {number}:").format(number=number(last.number)) + " "
                          + " ".join(deal_points(last)), style="dim"))
    return Group(*parts)


def scoreboard(view: View, names: Sequence[str], *, final: bool, rows: int = 12, me: int = 0,
               low_wins: bool = False) -> RenderableType:
    """The deal-by-deal scores (won/call or tricks, and points), totals, and the winners and
    standings when over, a column per seat from ``me`` on in play order. Only the last ``rows``
    deals are listed (the totals count them all), so the board fits the screen it is drawn on."""
    short = short_names(names)
    order = [(me + i) % view.players for i in range(view.players)]
    rows = max(1, rows)
    title = _("Final standings") if final else _("Scores")
    if len(view.results) > rows:
        title += " " + _("(last {rows} of {count} deals)").format(rows=number(rows),
                                                                 count=number(len(view.results)))
    table = Table(_("deal"), *(short[s] for s in order), title=title,
                  title_style="bold", padding=(0, 1), box=box.SIMPLE_HEAD, show_edge=False)
    for r in view.results[-rows:]:
        table.add_row(f"{number(r.number)}{'*' if r.tiebreak else ''}",
                      *deal_cells(r, order))
    table.add_row(_("total"), *(Text(points(view.totals[s]), style="bold") for s in order),
                  end_section=True)
    parts: list[RenderableType] = [table]
    if view.results and view.results[-1].note:
        parts.append(Text(said(view.results[-1].words, view.results[-1].note), style="dim"))
    if final and view.winners:
        who = ", ".join(short[s] for s in view.winners)
        parts.append(Text(_("{name} wins!").format(name=who) if len(view.winners) == 1
                          else _("{names} share the win!").format(names=who), style="bold green"))
        parts.append(standings(view, short, low_wins=low_wins))
        chips = view.chips
        if chips is not None:
            parts.append(Text(_("chips:") + " " + ", ".join(f"{short[s]} {digits(f'{chips[s]:+g}')}"
                                                    for s in range(view.players))))
    return Group(*parts)


def standings(view: View, short: Sequence[str], *, low_wins: bool = False) -> Text:
    """Places by total, best first (lowest first in a race-down game); equal totals share a
    place ("1. East 12.9  2. You 8")."""
    sign = 1 if low_wins else -1
    order = sorted(range(view.players), key=lambda s: sign * view.scores[s])
    text = Text(_("Standings:") + " ", style="bold")
    for i, seat in enumerate(order):
        place = 1 + sum(1 for other in order if sign * view.scores[other] < sign * view.scores[seat])
        if i:
            text.append("  ")
        text.append(f"{number(place)}. {short[seat]} {points(view.totals[seat])}",
                    style="bold green" if seat in view.winners else "")
    return text


def describe(action: Any, names: Sequence[str], you: int | None = None) -> str:
    """A short sentence for an action, for the message line and replays; seat ``you`` is the
    person ("You play", "East plays")."""
    kind = action.kind
    seat = action.actor  # CHANCE for chance steps (the choice of first dealer among them)
    if kind in ("deal", "draw", "stop", "choose_dealer") or seat == CHANCE:
        return {"deal": _("the cards are dealt"), "draw": _("everyone draws a card for the first deal"),
                "stop": _("the table stops")}.get(kind) or (
            deals_first(names[action.seat], mine=action.seat == you) if kind == "choose_dealer"
            else str(kind))
    if seat == you or _is_you(names[seat]):
        return _sentence(action, _YOU)
    return _sentence(action, _THEY, who=names[seat])


def _is_you(name: str) -> bool:
    """Whether a seat's display name is the person's ("You · Seat 1", in any language)."""
    return short_name(name) in ("You", "you", _("You"))


def advice(action: Any) -> str:
    """What a hint tells the person to do: "play Q♥", "call 3"."""
    return _sentence(action, _DO)


# Each action's sentence said of another seat, of the person, and as advice to the person.
_THEY = {"play": N_("{who} plays {card}"), "call": N_("{who} calls {number}"),
         "blind": N_("{who} calls {number} blind (x2)"), "bid": N_("{who} bids {number}"),
         "pass": N_("{who} passes"), "trump": N_("{who} names {suit} trump"),
         "join": N_("{who} plays this deal"), "sit out": N_("{who} sits out"),
         "exchange": N_("{who} exchanges {count} cards"), "exchange one": N_("{who} exchanges 1 card"),
         "keep": N_("{who} keeps the hand"), "penalize": N_("{who} gives everyone else +5"),
         "settle": N_("{who} takes -5"), "look": N_("{who} looks at the cards"),
         "redeal": N_("{who} claims a redeal")}
_YOU = {"play": N_("You play {card}"), "call": N_("You call {number}"),
        "blind": N_("You call {number} blind (x2)"), "bid": N_("You bid {number}"),
        "pass": N_("You pass"), "trump": N_("You name {suit} trump"),
        "join": N_("You play this deal"), "sit out": N_("You sit out"),
        "exchange": N_("You exchange {count} cards"), "exchange one": N_("You exchange 1 card"),
        "keep": N_("You keep the hand"), "penalize": N_("You give everyone else +5"),
        "settle": N_("You take -5"), "look": N_("You look at the cards"),
        "redeal": N_("You claim a redeal")}
_DO = {"play": N_("play {card}"), "call": N_("call {number}"),
       "blind": N_("call {number} blind (x2)"), "bid": N_("bid {number}"),
       "pass": N_("pass"), "trump": N_("name {suit} trump"),
       "join": N_("play this deal"), "sit out": N_("sit out"),
       "exchange": N_("exchange {count} cards"), "exchange one": N_("exchange 1 card"),
       "keep": N_("keep the hand"), "penalize": N_("give everyone else +5"),
       "settle": N_("take -5"), "look": N_("look at the cards"),
       "redeal": N_("claim a redeal")}


def _sentence(action: Any, sentences: dict[str, str], who: str = "") -> str:
    """``action``'s sentence from one of the sets above, with who did it and its card, number
    or suit."""
    kind = action.kind
    fill: dict[str, str] = {"who": who}
    if kind == "play":
        fill["card"] = card_words(action.card)
    elif kind in ("call", "bid"):
        fill["number"] = number(action.tricks)
        if kind == "call" and action.blind:
            kind = "blind"
    elif kind == "trump":
        fill["suit"] = suit_words(action.suit)
    elif kind == "join" and not action.playing:
        kind = "sit out"
    elif kind == "exchange":
        n = len(action.cards)
        kind = "keep" if not n else "exchange one" if n == 1 else "exchange"
        fill["count"] = number(n)
    elif kind == "settle" and action.penalize_others:
        kind = "penalize"
    elif kind == "redeal" and not action.claim:
        kind = "keep"
    if kind not in sentences:
        return str(kind)
    return _(sentences[kind]).format(**fill)


def deals_first(name: str, *, mine: bool = False) -> str:
    """``East deals first``, ``You deal first``."""
    return _("You deal first") if mine or _is_you(name) else _("{name} deals first").format(name=name)
