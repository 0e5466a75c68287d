"""The styles that are not ours: greedy, ismcts and the heuristic's call styles."""

from __future__ import annotations

import random

from _dealing import decisions
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from callbreak.bots import make_bot
from callbreak.bots.heuristic import HeuristicBot
from callbreak.bots.styles import GreedyBot, IsmctsBot, sure_winners
from callbreak.core import Call, Deal, Dealer, Match, Phase, Play, SeatView, make_rules
from callbreak.core.cards import Card, mask_of, parse_cards
from callbreak.core.rules import PRESETS
from callbreak.core.sampling import HandSampler
from callbreak.core.tricks import trick_winner

STYLES = ("greedy", "ismcts:iterations=40", "heuristic-overcall", "heuristic-undercall")


def _position(preset: str, seed: int, stop: int, bots: tuple[str, ...] = STYLES
              ) -> tuple[Match, SeatView]:
    """A match of ``preset`` played by ``bots`` until ``stop`` decisions were made (or its first
    deal ended), returned with the view of the seat to act."""
    match = Match(make_rules(preset))
    players = [make_bot(b, seed=seed + i) for i, b in enumerate(bots)]
    for made, (seat, view) in enumerate(decisions(match, Dealer(seed))):
        if made >= stop or match.deal_number > 1:
            return match, view
        match.apply(players[seat].decide(view, 1.0).action)
    raise AssertionError("the match ended before its first deal did")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preset=st.sampled_from(sorted(PRESETS)), seed=st.integers(0, 10_000),
       rotate=st.integers(0, 3))
def test_every_style_plays_only_legal_actions_in_every_preset(preset: str, seed: int,
                                                              rotate: int) -> None:
    seats = STYLES[rotate:] + STYLES[:rotate]
    match = Match(make_rules(preset))
    players = [make_bot(b, seed=seed + i) for i, b in enumerate(seats)]
    for seat, view in decisions(match, Dealer(seed), 2):
        action = players[seat].decide(view, 1.0).action
        assert action in view.legal, (seats[seat], action, view.legal)
        match.apply(action)


def _other_deal(match: Match, seat: int, rng: random.Random) -> Match:
    """The same match with the cards the seat cannot see dealt differently among the others,
    consistently with everything public (voids, caps), replayed through the same actions."""
    view = match.view(seat)
    hands = list(HandSampler(view).sample(rng))
    for trick in (*view.tricks, None):
        cards, seats = (view.trick, view.trick_seats) if trick is None else (trick.cards, trick.seats)
        for card, who in zip(cards, seats, strict=True):
            hands[who] |= 1 << card
    deal_at = max(i for i, a in enumerate(match.history) if isinstance(a, Deal))
    deal = Deal(tuple(tuple(Card(c) for c in range(52) if h >> c & 1) for h in hands))
    other = Match(match.rules)
    for i, action in enumerate(match.history):
        other.apply(deal if i == deal_at else action)
    return other


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preset=st.sampled_from(["callbreak", "no-trump", "partnership", "call-bridge",
                               "nepal-traditional"]),
       seed=st.integers(0, 10_000), stop=st.integers(0, 56), other_seed=st.integers(0, 10_000))
def test_decisions_do_not_depend_on_the_cards_a_seat_cannot_see(preset: str, seed: int, stop: int,
                                                                other_seed: int) -> None:
    match, view = _position(preset, seed, stop)
    seat = view.seat
    assert seat is not None and view.phase in (Phase.CALL, Phase.PLAY)
    other = _other_deal(match, seat, random.Random(other_seed))
    assert other.view(seat) == view  # the seat sees exactly the same
    for spec in ("greedy", "ismcts:iterations=60", "heuristic-overcall", "heuristic-undercall"):
        mine = make_bot(spec, seed=7).decide(view, 1.0).action
        theirs = make_bot(spec, seed=7).decide(other.view(seat), 1.0).action
        assert mine == theirs, spec


def _cost(card: int, trump: int) -> tuple[bool, int]:
    return (card // 13 == trump, card % 13)


@settings(max_examples=60, deadline=None)
@given(preset=st.sampled_from(["callbreak", "call-bridge", "nepal-traditional", "no-trump"]),
       seed=st.integers(0, 10_000), stop=st.integers(4, 56))
def test_greedy_wins_as_cheaply_as_it_can_and_else_throws_its_lowest_card(preset: str, seed: int,
                                                                         stop: int) -> None:
    _, view = _position(preset, seed, stop, bots=("heuristic",) * 4)
    if view.phase is not Phase.PLAY or not view.trick:
        return
    trump = int(view.trump) if view.trump is not None else -1
    legal = [a.card for a in view.legal if isinstance(a, Play)]

    def wins(card: int) -> bool:  # judged by the engine's own trick rule
        return trick_winner([*view.trick, card], trump) == len(view.trick)

    chosen = GreedyBot().decide(view, 1.0).action
    assert isinstance(chosen, Play)
    winners = [c for c in legal if wins(c)]
    if winners:
        assert wins(chosen.card)
        assert _cost(chosen.card, trump) == min(_cost(c, trump) for c in winners)
    else:
        assert _cost(chosen.card, trump) == min(_cost(c, trump) for c in legal)


def test_sure_winners_counts_runs_from_the_ace_and_long_trumps() -> None:
    hand = mask_of(parse_cards("AS KS QS 2S 3S 4S AH KH QH AC 2D 3D 4D"))
    # spades: a run of 3, 6 long (2 beyond the fourth) -> 3; hearts: A K (Q is the third round) -> 2;
    # clubs: A -> 1; diamonds: none
    assert sure_winners(hand, trump=0) == 6
    assert sure_winners(mask_of(parse_cards("KS QH JC TD")), trump=0) == 0


def test_ismcts_is_deterministic_for_a_seed() -> None:
    for stop in (8, 20, 33):
        _, view = _position("callbreak", 11, stop, bots=("heuristic",) * 4)
        assert view.phase is Phase.PLAY
        a = IsmctsBot(seed=5, iterations=200)
        b = IsmctsBot(seed=5, iterations=200)
        ra, rb = a.search(view), b.search(view)
        assert {c: (n.visits, n.total) for c, n in ra.children.items()} == \
               {c: (n.visits, n.total) for c, n in rb.children.items()}
        assert a.decide(view, 1.0) == b.decide(view, 1.0)


def test_ismcts_spends_its_iterations_on_the_legal_cards() -> None:
    _, view = _position("callbreak", 3, 14, bots=("heuristic",) * 4)
    legal = {a.card for a in view.legal if isinstance(a, Play)}
    root = IsmctsBot(seed=1, iterations=300).search(view)
    assert set(root.children) == legal
    assert sum(n.visits for n in root.children.values()) == 300


def test_call_styles_shift_the_heuristic_call_by_one() -> None:
    seen = 0
    for seed in range(30):
        _, view = _position("callbreak", seed, seed % 4, bots=("heuristic",) * 4)
        if view.phase is not Phase.CALL:
            continue
        base = HeuristicBot().decide(view, 1.0).action
        over = make_bot("heuristic-overcall").decide(view, 1.0).action
        under = make_bot("heuristic-undercall").decide(view, 1.0).action
        assert isinstance(base, Call) and isinstance(over, Call) and isinstance(under, Call)
        assert over.tricks == min(base.tricks + 1, view.rules.max_call)
        assert under.tricks == max(base.tricks - 1, view.rules.min_call)
        seen += 1
    assert seen >= 20


def test_the_styles_are_registered_for_call_break_and_call_bridge() -> None:
    from callbreak.bots import bots_for

    for game in ("callbreak", "call-bridge"):
        assert {"greedy", "ismcts", "heuristic-overcall", "heuristic-undercall"} <= set(bots_for(game))
    assert make_bot("ismcts:iterations=50").iterations == 50  # type: ignore[attr-defined]
