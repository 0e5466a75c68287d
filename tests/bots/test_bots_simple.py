"""The random and beginner bots: legal under every preset, and the beginner's habits."""

from __future__ import annotations

import statistics

import pytest

from callbreak.bots.base import BotError, available, make_bot
from callbreak.bots.simple import BeginnerBot
from callbreak.core import (
    CHANCE,
    PRESETS,
    Call,
    ChooseDealer,
    Deal,
    Dealer,
    Look,
    Match,
    Play,
    Redeal,
    Rules,
    make_rules,
    parse_cards,
)
from callbreak.core.cards import DECK


def dealt(rules: Rules | str, hands: dict[int, str], dealer: int = 0) -> Match:
    """Dealer ``dealer``; seats in ``hands`` hold those cards, the pack fills the other places."""
    r = make_rules(rules) if isinstance(rules, str) else rules
    m = Match(make_rules(r, first_dealer="random"))
    m.apply(ChooseDealer(dealer))
    cards = [list(parse_cards(hands.get(s, ""))) for s in range(4)]
    used = {c for h in cards for c in h}
    rest = [c for c in DECK if c not in used]
    for h in cards:
        while len(h) < 13:
            h.append(rest.pop(0))
    m.apply(Deal(hands=tuple(tuple(sorted(h)) for h in cards)))
    return m


def play_match(rules: Rules, lineup: list[str], seed: int) -> Match:
    bots = [make_bot(name, seed=seed * 10 + s) for s, name in enumerate(lineup)]
    m = Match(rules)
    dealer = Dealer(seed)
    while not m.is_over:
        seat = m.to_act
        if seat == CHANCE:
            m.apply(dealer.chance(m, stop=len(m.results) >= 3))
            continue
        assert seat is not None
        view = m.view(seat)
        d = bots[seat].decide(view, 1.0)
        assert d.action in view.legal, f"{lineup[seat]} chose {d.action}, not in {view.legal}"
        assert d.reason
        m.apply(d.action)
    return m


def test_both_are_registered() -> None:
    assert {"random", "beginner", "heuristic"} <= set(available())


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_random_and_beginner_are_always_legal(preset: str) -> None:
    rules = make_rules(preset)
    for i in range(6):
        m = play_match(rules, ["beginner", "random", "beginner", "random"], seed=300 + i)
        assert m.is_over


def test_bad_beginner_options_are_refused() -> None:
    with pytest.raises(BotError, match="slip"):
        make_bot("beginner:slip=2")
    with pytest.raises(BotError, match="beginner"):
        make_bot("beginner:style=wild")


def beginner(slip: float = 0.0) -> BeginnerBot:
    return BeginnerBot(seed=1, slip=slip)


def test_beginner_overcalls_by_counting_every_high_card() -> None:
    # Six queens/kings/aces, most of them losers: a new player calls six.
    m = dealt("callbreak", {1: "QH KH QC KC QD KD 2S 3S 2H 3H 2C 3C 2D"})
    d = beginner().decide(m.view(1), 1.0)
    assert d.action == Call(1, 6)
    assert d.reason.startswith("call 6")


def test_beginner_plays_its_highest_card_of_the_suit_led() -> None:
    m = dealt("callbreak", {3: "2H 9H KH 2S 3S 4S 2C 3C 4C 2D 3D 4D 5D", 1: "AH", 2: "3H"})
    for n in (3, 3, 3, 3):
        m.apply(Call(m.turn, n))
    m.apply(Play(1, parse_cards("AH")[0]))
    m.apply(Play(2, parse_cards("3H")[0]))
    d = beginner().decide(m.view(3), 1.0)
    assert d.action == Play(3, parse_cards("KH")[0])  # thrown under the ace


def test_beginner_trumps_eagerly_with_its_biggest_spade() -> None:
    rules = make_rules("callbreak", void_rule="free")
    m = dealt(rules, {0: "3S 9S AS 2C 3C 4C 5C 6C 2D 3D 4D 5D 6D", 1: "5H", 2: "10H", 3: "2H"})
    for n in (3, 3, 3, 3):
        m.apply(Call(m.turn, n))
    for text in ("5H", "10H", "2H"):
        m.apply(Play(m.turn, parse_cards(text)[0]))
    d = beginner().decide(m.view(0), 1.0)
    assert d.action == Play(0, parse_cards("AS")[0])  # the 3 would have done


def test_beginner_looks_and_claims_redeals() -> None:
    m = dealt("567", {})
    assert isinstance(beginner().decide(m.view(1), 1.0).action, Look)
    m = dealt("catsatcards", {1: "2H 3H 4H 5H 6H 7H 8H 9H 10H 2C 3C 4C 5C"})
    assert beginner().decide(m.view(1), 1.0).action == Redeal(1, True)


def test_random_never_calls_blind_but_is_otherwise_uniform() -> None:
    m = dealt("567", {})
    bot = make_bot("random", seed=4)
    chosen = {bot.decide(m.view(1), 1.0).action for _ in range(200)}
    assert all(isinstance(a, Call) and not a.blind for a in chosen)
    assert len(chosen) >= 7  # calls 1..8 all turn up


def test_beginner_beats_random_on_the_same_deals() -> None:
    margins = []
    for i in range(15):
        total = 0.0
        for seat in range(4):
            lineup = ["random"] * 4
            lineup[seat] = "beginner"
            m = play_match(make_rules("callbreak"), lineup, seed=700 + i)
            others = statistics.fmean(m.totals[o] for o in range(4) if o != seat)
            total += (m.totals[seat] - others) / 10 / len(m.results)
        margins.append(total / 4)
    # Measured about +4.5 points per deal: random calls far too much.
    assert statistics.fmean(margins) > 2.0
