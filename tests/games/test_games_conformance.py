"""Random-playout conformance for every related game of seed 000 at every player count.

Each game is played out with random legal actions while independent reference checks run after
every step: cards are conserved, every play obeys the game's obligations (written out again here,
not taken from the engine), each trick has one winner recomputed by hand, hand points and scores
are recomputed, views show a seat nothing of other seats' cards, refused actions change nothing,
and replaying the record reproduces every state.
"""

from __future__ import annotations

import random

import pytest
from games_helpers import RELATED, random_playout, trick_game

from callbreak.core.actions import Bid, Deal, Exchange, Join, NameTrump, Pass, Play, Settle
from callbreak.core.cards import FULL_DECK, Card, Suit
from callbreak.core.dealing import Dealer
from callbreak.core.errors import IllegalActionError
from callbreak.core.game import Phase
from callbreak.core.scoring import tenths
from callbreak.games import CHANCE, ContractGame, game_info
from callbreak.record import dumps, loads, record_of, replay_states

CONFIGS = [(name, n) for name in RELATED for n in game_info(name).seats]


def mask(cards: object) -> int:
    return sum(1 << c for c in cards)  # type: ignore[attr-defined]


def rank_power(card: int, low_high: bool) -> int:
    return -(card % 13) if low_high else card % 13


def reference_winner(cards: list[Card], trump: int, low_high: bool) -> int:
    trumps = [i for i, c in enumerate(cards) if c.suit == trump]
    pool = trumps or [i for i, c in enumerate(cards) if c.suit == cards[0].suit]
    return max(pool, key=lambda i: rank_power(cards[i], low_high))


def check_play(g: ContractGame, seat: int, card: Card) -> None:
    """The obligations of RULES.md section 4, restated."""
    hand = [c for c in range(52) if g.hands[seat] >> c & 1]
    assert card in hand
    trick = g.trick
    if not trick:
        if g.NAME.startswith("batak") and not g.trump_broken and card.suit == g.trump:
            assert all(c // 13 == g.trump for c in hand), "trump led before it was broken"
        return
    led = trick[0].suit
    follow = [c for c in hand if c // 13 == led]
    if follow:
        assert card.suit == led, "did not follow suit"
    if not g.NAME.startswith("batak"):
        return
    trumps_in = [c for c in trick if c.suit == g.trump]
    if follow:
        if led != g.trump and trumps_in:
            return
        top = max(c for c in trick if c.suit == led)
        if any(c > top for c in follow):
            assert card > top, "did not beat the trick though able"
        return
    my_trumps = [c for c in hand if c // 13 == g.trump]
    if my_trumps:
        assert card.suit == g.trump, "void but did not trump"
        if trumps_in and any(c > max(trumps_in) for c in my_trumps):
            assert card > max(trumps_in), "did not overtrump though able"


def reference_points(g: ContractGame, before: list[int], deal: Deal) -> list[int]:
    """Hand points by the scoring rules of section 4, from the finished hand's public state."""
    n, won, act = g.players, g.won, g.active
    if g.NAME == "batak-ihaleli":
        d, bid = g.declarer, g.contract
        assert d is not None and bid is not None
        return [(bid if won[s] >= bid else -bid) if s == d else (won[s] or -bid) for s in range(n)]
    if g.NAME == "batak-koz-maca":
        return [b if won[s] >= b else -b for s, b in enumerate(x or 0 for x in g.bids)]
    if g.NAME == "donut":
        if sum(act) == 1 and not any(won):
            return [-3 if s == g.results[-1].dealer else 0 for s in range(n)]
        return [(-won[s] if won[s] else 3) if act[s] else 0 for s in range(n)]
    if g.NAME == "horsethief":
        if sum(act) == 1 and not any(won):
            return [5 if act[s] else 0 for s in range(n)]
        return [(won[s] or -5) if act[s] else 0 for s in range(n)]
    assert g.NAME == "snarples"
    d, bid = g.declarer, g.contract
    assert d is not None and bid is not None
    pts = [1 if g.joined[s] is False and before[s] <= 3 else 0 for s in range(n)]
    settle = g.history[-1]
    if isinstance(settle, Settle):  # everyone sat out: the bidder's choice
        if settle.penalize_others:
            pts = [p + 5 if s != d and deal.hands[s] else p for s, p in enumerate(pts)]
        else:
            pts[d] -= 5
        return pts
    for s in range(n):
        if act[s]:
            pts[s] += (-won[s] if won[s] >= bid else 5) if s == d else (-won[s] if won[s] else 5)
    return pts


def check_cards(g: ContractGame, deal: Deal) -> None:
    dealt = mask(c for h in deal.hands for c in h)
    played = mask(c for t in g.tricks for c in t.cards) | mask(g.trick)
    held = 0
    for h in g.hands:
        assert not held & h
        held |= h
    assert not held & played
    if g.NAME == "horsethief":
        discards = 0
        for d in g.discards:
            discards |= d
        parts = [held, played, discards, mask(g.stock), 1 << deal.upcard]  # type: ignore[operator]
        total = 0
        for p in parts:
            assert not total & p, "a card is in two places"
            total |= p
        assert total == FULL_DECK
    elif g.phase is Phase.PLAY:
        assert held | played == dealt & ~_out_cards(g, deal)


def _out_cards(g: ContractGame, deal: Deal) -> int:
    """Cards of seats that sat out or dropped (set aside, unplayed)."""
    out = 0
    for s in range(g.players):
        if not g.active[s]:
            out |= mask(deal.hands[s]) & ~g.hands[s]
    return out


def check_views(g: ContractGame, rng: random.Random) -> None:
    """A seat's view is the same whatever the other seats hold, whatever they discarded, and
    whatever the stock holds; a spectator's view is the same whatever anyone holds."""
    if g.phase is Phase.OVER or g.phase is Phase.DEAL:
        return
    seat = rng.randrange(g.players)
    v = g.view(seat)
    assert mask(v.hand) == g.hands[seat]
    spectator = g.view(None)
    assert spectator.hand is None and spectator.discards == () and spectator.legal == ()
    others = [s for s in range(g.players) if s != seat]
    twin = g.clone()
    twin.discards = list(g.discards)
    # Every card hidden from ``seat`` goes into one pool, which is dealt back in the same sizes.
    pool = [c for s in others for c in range(52) if (g.hands[s] | g.discards[s]) >> c & 1]
    pool += list(g.stock)
    rng.shuffle(pool)
    for s in others:
        for part in ("hands", "discards"):
            k = getattr(g, part)[s].bit_count()
            getattr(twin, part)[s] = mask(pool[:k])
            pool = pool[k:]
    twin.stock = [Card(c) for c in pool]
    assert len(twin.stock) == len(g.stock)
    assert twin.view(seat) == v
    assert twin.view(None) == spectator


def check_refusals(g: ContractGame, rng: random.Random) -> None:
    """Bad input is refused and changes nothing."""
    before = g.snapshot()
    seat = g.turn if g.turn >= 0 else 0
    other = (seat + 1) % g.players
    held = [c for c in range(52) if g.hands[seat] >> c & 1]
    bad = [Play(other, Card(0)), Bid(seat, 99), Pass(7), Join(other, True), NameTrump(other, Suit.SPADES),
           Exchange(seat, (Card(0), Card(0))), Deal(hands=())]
    # Malformed values in every field (what a careless client or a bad bot might send).
    bad += [Play(seat, "AS"), Play(seat, 51), Play(True, Card(0)), Bid(seat, "5"), Bid(seat, 5.0),
            Bid(seat, True), Pass("0"), Pass(None), NameTrump(seat, 3), NameTrump(seat, "S"),
            Join(seat, 1), Join(seat, None), Settle(seat, "yes"), Exchange(seat, [Card(0)]),
            Exchange(seat, (0,)), Exchange(-1, ()), "play AS", None,
            Deal(hands=tuple(() for _ in range(g.players)))]
    if g.phase is Phase.PLAY:
        legal = g.play_mask()
        bad += [Play(seat, Card(c)) for c in held if not legal >> c & 1]
        bad += [Play(seat, Card(c)) for c in range(52) if not g.hands[seat] >> c & 1][:2]
    for action in bad:
        if g.is_legal(action):
            continue
        with pytest.raises(IllegalActionError):
            g.apply(action)  # type: ignore[arg-type]
        assert g.snapshot() == before


def check_inference(g: ContractGame) -> None:
    """What the play so far shows a seat cannot hold is never a card it holds (the facts the
    search bot samples by must be true)."""
    if g.phase is not Phase.PLAY:
        return
    absent = type(g).shown_absent(g.view(None))
    assert all(not absent[s] & g.hands[s] for s in range(g.players))


def check_from_view(g: ContractGame) -> None:
    """Rebuilding the state from a view plus the true hidden cards gives the same game."""
    if g.phase in (Phase.OVER, Phase.DEAL):
        return
    v = g.view(g.turn)
    twin = type(g).from_view(v, list(g.hands), list(g.stock))
    assert twin.legal_actions() == g.legal_actions()
    assert twin.view(g.turn) == v


@pytest.mark.parametrize("name, players", CONFIGS)
def test_seed000_random_playouts_keep_every_invariant(name: str, players: int) -> None:
    games = 2 if players <= 5 else 1
    for seed in range(games):
        g = trick_game(name, players, max_hands=12)
        rng = random.Random(seed)
        dealer = Dealer(seed)
        snaps = [g.snapshot()]
        deal: Deal | None = None
        totals_before = list(g.totals)
        hand_start = list(g.scores)
        while not g.is_over:
            if g.to_act == CHANCE:
                deal = dealer.chance(g)
                g.apply(deal)
                hand_start = list(g.scores)
            else:
                action = rng.choice(g.legal_actions())
                if isinstance(action, Play):
                    check_play(g, action.seat, action.card)
                    check_inference(g)
                    trick_before = list(g.trick)
                    tricks_before = len(g.tricks)
                g.apply(action)
                if isinstance(action, Play) and len(g.tricks) > tricks_before:
                    t = g.tricks[-1]
                    cards = [*trick_before, action.card]
                    assert list(t.cards) == cards and len(cards) == sum(g.active)
                    assert t.winner == t.seats[reference_winner(cards, g.trump, g.low_high)]
                    assert sum(g.won) == len(g.tricks)
            assert deal is not None
            if len(g.results) and g.results[-1].number == g.deal_number - (0 if g.is_over else 1) \
                    and g.phase in (Phase.DEAL, Phase.OVER) and g.scores != hand_start:
                assert g.results[-1].points == tenths(reference_points(g, hand_start, deal))
                hand_start = list(g.scores)
            if g.phase not in (Phase.DEAL, Phase.OVER):
                check_cards(g, deal)
            if g.to_act is not None and g.to_act >= 0:
                assert g.is_legal(g.default_action())  # the turn timer's choice is always legal
            if rng.random() < 0.2:
                check_views(g, rng)
                check_refusals(g, rng)
                check_from_view(g)
            snaps.append(g.snapshot())
        totals = [totals_before[s] + sum(r.points[s] for r in g.results) for s in range(players)]
        assert totals == g.totals and g.scores == tuple(t / 10 for t in totals)
        assert g.winners and g.phase is Phase.OVER and g.to_act is None
        record = loads(dumps(record_of(g)))
        replayed = [s.snapshot() for s in replay_states(record)]
        assert [_no_history(s) for s in replayed] == [_no_history(s) for s in snaps]


def _no_history(snap: tuple[object, ...]) -> tuple[object, ...]:
    return tuple(kv for kv in snap if kv[0] != "history")  # type: ignore[index]


def test_seed000_every_game_finishes_without_a_hand_limit() -> None:
    for name, players in CONFIGS:
        g = trick_game(name, players)
        random_playout(g, seed=11)
        assert g.is_over and g.winners
