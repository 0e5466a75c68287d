"""Reading the other seats' styles from their play (callbreak.bots.reading)."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from _dealing import decisions, heuristic_positions
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_styles import _other_deal

from callbreak.bots import make_bot
from callbreak.bots.heuristic import classic_steps
from callbreak.bots.kernel import Kernel, get_kernel, options_array
from callbreak.bots.kernel_classic import S_CARD, S_SEAT, greedy_card
from callbreak.bots.kernel_sampling import WorldSampler
from callbreak.bots.reading import (
    CLASSIC,
    FLOOR,
    GREEDY,
    RANDOM,
    SEARCH,
    STYLES,
    StyleBook,
    call_likelihoods,
    calls_as_read,
    carry,
    classic_mismatch_weights,
    mismatch_factors,
    read_styles,
    uniform,
)
from callbreak.bots.styles import GreedyBot, sure_winners
from callbreak.core import Dealer, Match, Phase, Play, SeatView, make_rules
from callbreak.core.cards import mask_of
from callbreak.core.sampling import CALL_SPREAD, estimated_tricks

WORLDS = 96


def _sure(style: int) -> np.ndarray:
    """A reading certain of one style."""
    return np.eye(len(STYLES))[style]


def _moves(kernel: Kernel, view: SeatView, seed: int = 0
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(steps, classic, greedy, legal counts, weights) over sampled deals of ``view``."""
    steps = classic_steps(view)
    worlds, weights = WorldSampler(view, kernel).draw(WORLDS, random.Random(seed))
    out = [np.zeros((len(worlds), len(steps)), dtype=np.int64) for _ in range(3)]
    trump = -1 if view.trump is None else int(view.trump)
    kernel.style_moves(worlds, steps, trump, options_array(view.rules), *out)
    return steps, out[0], out[1], out[2], weights


def _table(bots: tuple[str, str, str], seed: int, deals: int) -> list[SeatView]:
    """Seat 0 (a heuristic bot) at a table of ``bots``: its view after the last card of each of
    the first ``deals`` deals but one (the last trick's last card is not needed)."""
    match = Match(make_rules("callbreak"))
    players = [make_bot("heuristic", seed=seed)] + [make_bot(b, seed=seed + i + 1)
                                                     for i, b in enumerate(bots)]
    views: list[SeatView] = []
    for seat, view in decisions(match, Dealer(seed), deals):
        if view.phase is Phase.PLAY and len(view.tricks) == 12 and seat == 0:
            views.append(match.view(0))
        match.apply(players[seat].decide(view, 1.0).action)
    return views


def test_the_kernels_greedy_card_is_the_greedy_bots(kernel: Kernel) -> None:
    checked = 0
    for _, view in heuristic_positions("callbreak", 5, 2):
        plays = [a for a in view.legal if isinstance(a, Play)]
        if len(plays) < 2:
            continue
        trick = [int(c) for c in view.trick] + [0, 0, 0]
        hand = mask_of(view.hand or ())
        legal = sum(1 << int(a.card) for a in plays)
        played = mask_of(view.played)
        want = GreedyBot().decide(view, 1.0).action
        assert isinstance(want, Play)
        got = greedy_card(hand, legal, len(view.trick), *trick[:3], int(view.trump or 0), played)
        assert got == int(want.card)
        checked += 1
    assert checked > 50


def test_style_moves_agree_between_backends(kernel: Kernel) -> None:
    views = _table(("greedy", "random", "heuristic"), 11, 1)
    python = get_kernel("python")
    for view in views:
        a = _moves(kernel, view)
        b = _moves(python, view)
        for x, y in zip(a, b, strict=True):
            assert np.array_equal(x, y)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), worlds=st.integers(1, 6), moves=st.integers(1, 12),
       prior=st.lists(st.floats(0.01, 1), min_size=len(STYLES), max_size=len(STYLES)))
def test_every_posterior_sums_to_one(seed: int, worlds: int, moves: int, prior: list[float]) -> None:
    rng = np.random.default_rng(seed)
    steps = np.zeros((moves, 17), dtype=np.int64)
    steps[:, S_SEAT] = rng.integers(1, 4, moves)
    steps[:, S_CARD] = rng.integers(0, 52, moves)
    classic = rng.integers(-1, 52, (worlds, moves))
    greedy = rng.integers(0, 52, (worlds, moves))
    nlegal = rng.integers(1, 14, (worlds, moves))
    p = np.array(prior) / sum(prior)
    got = read_styles(steps, classic, greedy, nlegal, rng.random(worlds), {1: p})
    for post in got.values():
        assert post.shape == (len(STYLES),)
        assert post.sum() == pytest.approx(1.0)
        assert (post > 0).all()  # no style ruled out
    assert set(got) >= {1}


def test_a_greedy_seat_reads_greedy_a_random_one_random_or_searching_a_classic_one_classic(
        kernel: Kernel) -> None:
    views = _table(("greedy", "random", "heuristic"), 3, 2)
    assert len(views) == 2
    priors: dict[int, np.ndarray] = {}
    for k, view in enumerate(views):
        steps, classic, greedy, nlegal, weights = _moves(kernel, view, seed=k)
        post = read_styles(steps, classic, greedy, nlegal, weights, priors)
        priors = {s: carry(p) for s, p in post.items()}
    assert post[1][GREEDY] > 0.9
    # From play alone a random player and a searching one look alike: only calls tell them apart.
    assert post[2][RANDOM] + post[2][SEARCH] > 0.9
    assert post[2][RANDOM] == pytest.approx(post[2][SEARCH])
    assert post[3][CLASSIC] > 0.9


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), other_seed=st.integers(0, 10_000))
def test_the_reading_does_not_depend_on_the_cards_the_reader_cannot_see(
        kernel: Kernel, seed: int, other_seed: int) -> None:
    match = Match(make_rules("callbreak"))
    players = [make_bot(b, seed=seed + i) for i, b in
               enumerate(("heuristic", "greedy", "random", "heuristic"))]
    stop = seed % 40 + 8
    for seat, view in decisions(match, Dealer(seed)):
        if match.phase is Phase.PLAY and seat == 0 and stop <= 0:
            break
        stop -= match.phase is Phase.PLAY
        match.apply(players[seat].decide(view, 1.0).action)
    other = _other_deal(match, 0, random.Random(other_seed))
    assert other.view(0) == match.view(0)
    mine = read_styles(*_moves(kernel, match.view(0), seed=1)[:4],
                       _moves(kernel, match.view(0), seed=1)[4], {})
    theirs = read_styles(*_moves(kernel, other.view(0), seed=1)[:4],
                         _moves(kernel, other.view(0), seed=1)[4], {})
    assert mine.keys() == theirs.keys()
    for s in mine:
        assert np.array_equal(mine[s], theirs[s])


def test_a_seat_read_as_classic_weighs_deals_as_the_classic_inference_does(kernel: Kernel) -> None:
    view = _table(("heuristic", "heuristic", "heuristic"), 8, 1)[0]
    steps, classic, _, nlegal, weights = _moves(kernel, view)
    worlds, _ = WorldSampler(view, kernel).draw(WORLDS, random.Random(0))
    sure = {s: _sure(CLASSIC) for s in (1, 2, 3)}
    ours = classic_mismatch_weights(steps, classic, nlegal, mismatch_factors(sure, 0.2))
    theirs = np.ones(len(worlds))
    kernel.classic_weights(worlds, steps, int(view.trump or 0), options_array(view.rules), 0.2,
                           theirs)
    assert np.allclose(ours, theirs)
    assert (ours < 1).any()  # the test means something: some deals are weighed down
    not_classic = {s: (_sure(RANDOM) + _sure(GREEDY)) / 2 for s in (1, 2, 3)}
    assert (classic_mismatch_weights(steps, classic, nlegal,
                                     mismatch_factors(not_classic, 0.2)) == 1).all()


class _Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_the_style_book_keeps_at_most_its_capacity_dropping_the_least_recent() -> None:
    book = StyleBook(capacity=3, idle=100, clock=_Clock())
    for m in ("a", "b", "c"):
        book.priors(m, 1)
        book.record(m, 1, {"p1": np.array([0.1, 0.8, 0.1, 0.0])})
    book.priors("a", 1)  # a used again: b is now the least recent
    book.priors("d", 1)
    assert len(book) == 3
    book.priors("b", 2)  # b was dropped: nothing carried
    assert book.priors("b", 2) == {}
    assert "p1" in book.priors("a", 2)


def test_the_style_book_drops_a_match_idle_too_long_and_carries_readings_to_the_next_deal() -> None:
    clock = _Clock()
    book = StyleBook(capacity=10, idle=30 * 60, clock=clock)
    assert book.priors("m", 1) == {}
    book.record("m", 1, {"p1": _sure(GREEDY)})
    assert book.priors("m", 1) == {}  # within a deal the request's own history suffices
    clock.now = 29 * 60
    carried = book.priors("m", 2)["p1"]
    assert carried[GREEDY] == max(carried) and carried.sum() == pytest.approx(1.0)
    assert carried.min() >= FLOOR * 0.9  # every style kept
    clock.now += 30 * 60  # idle 30 minutes
    assert book.priors("m", 3) == {}
    assert len(book) == 1  # only the fresh entry
    book.record("gone", 1, {"p1": uniform()})  # never asked for: ignored
    assert len(book) == 1
    with pytest.raises(ValueError):
        StyleBook(capacity=0)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_greedy_seats_in_the_playouts_play_as_the_greedy_bot(kernel: Kernel, seed: int) -> None:
    from _dealing import dealt

    from callbreak.bots.heuristic import classic_table
    from callbreak.bots.kernel import POLICY_HEURISTIC, make_position
    from callbreak.bots.kernel_classic import STYLE_GREEDY, STYLE_RANDOM, T_STYLE

    rules = make_rules("callbreak")
    match = dealt(rules, seed)
    view = match.view(0)
    worlds = np.array([[mask_of(match.view(s).hand or ()) for s in range(4)]], dtype=np.int64)
    assert view.leader is not None
    pos = make_position((), view.leader, int(view.trump or 0), 0, (0, 0, 0, 0))
    table = classic_table(view)
    table[:, T_STYLE] = STYLE_GREEDY
    out = np.zeros((1, 1, 1, 4), dtype=np.int64)
    opts = options_array(rules, noise=0)
    cands = np.array([-1], dtype=np.int64)
    for k in (kernel, get_kernel("python")):
        k.classic_evaluate(worlds, pos.trick, pos.state, pos.won, opts, cands, 1, POLICY_HEURISTIC,
                           seed, -1, table, out)
        bot = GreedyBot()
        played = Match(rules)
        for action in match.history:
            played.apply(action)
        while played.phase is Phase.PLAY:
            seat = played.to_act
            assert seat is not None
            played.apply(bot.decide(played.view(seat), 1.0).action)
        assert list(out[0, 0, 0]) == list(played.results[0].won)
    table[:, T_STYLE] = STYLE_RANDOM  # random seats: a legal deal still, 13 tricks shared
    kernel.classic_evaluate(worlds, pos.trick, pos.state, pos.won, opts, cands, 1,
                            POLICY_HEURISTIC, seed, -1, table, out)
    assert out[0, 0, 0].sum() == 13


def test_an_expert_kept_for_a_match_starts_each_deal_from_the_last_deals_reading() -> None:
    rules = make_rules("callbreak")
    expert = make_bot("expert:samples=30,read=play", seed=1)
    players = [expert] + [make_bot("greedy", seed=s) for s in (2, 3, 4)]
    for _ in range(2):  # the same bot object for a second match: nothing carried into it
        match = Match(rules)
        before: dict[int, np.ndarray] = {}
        for seat, view in decisions(match, Dealer(5), 2):
            first_of_deal = seat == 0 and view.phase is Phase.CALL
            if first_of_deal:
                before = {s: p.copy() for s, p in expert.reading.items()}  # type: ignore[attr-defined]
            match.apply(players[seat].decide(view, 1.0).action)
            if first_of_deal:
                prior = expert.style_prior  # type: ignore[attr-defined]
                if view.deal_number == 1:
                    assert prior == {}
                else:  # deal 2: the greedy seats as read at the end of deal 1, floored
                    assert before.keys() == prior.keys() == {1, 2, 3}
                    for s in prior:
                        assert np.allclose(prior[s], carry(before[s]))
                        assert np.argmax(prior[s]) == GREEDY



# --- calls read by style (read=calls) ----------------------------------------------------------


def _normal(x: float, spread: float) -> float:
    return math.exp(-x * x / (2 * spread * spread)) / (spread * math.sqrt(2 * math.pi))


def test_a_calls_fit_is_the_classic_count_and_the_greedy_sure_winners_on_both_backends(
        kernel: Kernel) -> None:
    from callbreak.bots.kernel_sampling import GREEDY_CALL_SPREAD

    view = _table(("greedy", "random", "heuristic"), 4, 1)[0]
    sampler = WorldSampler(view, kernel)
    worlds, _ = sampler.draw(20, random.Random(2), weigh=False)
    fits = sampler.call_fits(worlds)
    python = WorldSampler(view, get_kernel("python")).call_fits(worlds)
    assert np.allclose(fits, python)
    rules = view.rules
    for i in range(len(worlds)):
        for s in (1, 2, 3):
            call = view.calls[s]
            assert call is not None
            hand = int(worlds[i, s] | sampler.played_by[s])
            classic = _normal(call - estimated_tricks(hand, rules), CALL_SPREAD)
            greedy = _normal(call - max(sure_winners(hand, 0), rules.min_call), GREEDY_CALL_SPREAD)
            assert fits[i, s, 0] == pytest.approx(classic)
            assert fits[i, s, 1] == pytest.approx(greedy)
    assert (fits[:, 0, :] == 1).all()  # the reader's own seat: nothing to judge


def test_a_call_read_as_random_says_nothing_of_the_hand_and_one_read_as_classic_what_it_did(
        kernel: Kernel) -> None:
    match = Match(make_rules("callbreak"))
    bot = make_bot("heuristic", seed=6)
    for seat, view in decisions(match, Dealer(6)):
        if view.phase is Phase.PLAY and seat == 0:
            break  # seat 0's first card: the others' hands mostly unseen
        match.apply(bot.decide(view, 1.0).action)
    sampler = WorldSampler(view, kernel)
    worlds, plain = sampler.draw(200, random.Random(3), weigh=False)
    assert (plain == 1).all()
    like = call_likelihoods(sampler.call_fits(worlds), [1, 2, 3], len(view.rules.call_range))
    classic = {s: _sure(CLASSIC) for s in (1, 2, 3)}
    # Every seat read as classic: the deals weigh as the calls always weighed them.
    old = np.ones(len(worlds))
    kernel.call_weights(worlds, sampler.played_by, sampler.calls, sampler.spread,
                        np.zeros(0), 0, old)
    new = calls_as_read(like, classic)
    assert np.allclose(new / new.sum(), old / old.sum())
    # Seat 2 read as a random caller: its call no longer moves any deal's weight.
    random_two = {**classic, 2: _sure(RANDOM)}
    without_two = sampler.calls.copy()
    without_two[2] = -1
    ignored = np.ones(len(worlds))
    kernel.call_weights(worlds, sampler.played_by, without_two, sampler.spread, np.zeros(0), 0,
                        ignored)
    got = calls_as_read(like, random_two)
    assert np.allclose(got / got.sum(), ignored / ignored.sum())
    assert not np.allclose(ignored / ignored.sum(), old / old.sum())  # the call did count before


def test_random_callers_read_as_random_from_their_calls_alone(kernel: Kernel) -> None:
    """Over a match, from their calls alone (read at the first trick of each deal), the random
    seat reads as random and the greedy seat as greedy; the heuristic seat is not taken for a
    random one (its calls fit a greedy count as well as a classic one: its play tells them
    apart, not its calls)."""
    match = Match(make_rules("callbreak"))
    players = [make_bot("heuristic", seed=1)] + [make_bot(b, seed=k) for k, b in
                                                  enumerate(("greedy", "random", "heuristic"), 2)]
    priors: dict[int, np.ndarray] = {}
    empty = np.zeros((0, 17), dtype=np.int64)
    for seat, view in decisions(match, Dealer(12)):
        if view.phase is Phase.PLAY and seat == 0 and not view.tricks:
            sampler = WorldSampler(view, kernel)
            worlds, ones = sampler.draw(WORLDS, random.Random(view.deal_number), weigh=False)
            like = call_likelihoods(sampler.call_fits(worlds), [1, 2, 3],
                                    len(view.rules.call_range))
            none = np.zeros((len(worlds), 0), dtype=np.int64)
            post = read_styles(empty, none, none, none, ones, priors, like)
            priors = {s: carry(p) for s, p in post.items()}
        match.apply(players[seat].decide(view, 1.0).action)
    assert np.argmax(post[2]) == RANDOM
    assert np.argmax(post[1]) == GREEDY
    assert post[3][CLASSIC] > post[3][RANDOM]


def test_an_expert_reading_calls_plays_a_match_and_reads_each_style() -> None:
    rules = make_rules("callbreak")
    expert = make_bot("expert:samples=60,read=calls", seed=1)
    players = [expert] + [make_bot(b, seed=k) for k, b in
                          enumerate(("greedy", "random", "heuristic"), 2)]
    match = Match(rules)
    for seat, view in decisions(match, Dealer(5), 2):
        action = players[seat].decide(view, 1.0).action
        assert action in view.legal
        match.apply(action)
    reading = expert.reading  # type: ignore[attr-defined]
    assert np.argmax(reading[1]) == GREEDY
    assert np.argmax(reading[2]) == RANDOM
    assert np.argmax(reading[3]) == CLASSIC


def test_deals_whose_calls_are_all_implausible_still_count_alike() -> None:
    """A call no sampled hand explains (every density underflowed to 0) must not leave the
    search with no deal to count."""
    calls = np.ones((5, 4, len(STYLES)))
    calls[:, 1, :] = 0.0
    sure = {1: _sure(CLASSIC)}
    assert (calls_as_read(calls, sure) == 1).all()
    calls[2, 1, CLASSIC] = 0.5  # one deal explains it: it alone counts
    assert list(calls_as_read(calls, sure)) == [0, 0, 0.5, 0, 0]


def test_a_seat_that_plays_at_random_but_calls_by_its_hand_reads_as_a_searching_player() -> None:
    """IS-MCTS players' cards follow no model the reader has (they read as random from their
    play alone), but they call by their hands: over a match their calls tell them from random
    players, whose calls are anything."""
    expert = make_bot("expert:samples=60,read=calls", seed=1)
    players = [expert] + [make_bot(b, seed=k) for k, b in
                          enumerate(("ismcts:iterations=100", "random", "heuristic"), 2)]
    match = Match(make_rules("callbreak"))
    for seat, view in decisions(match, Dealer(9), 3):
        match.apply(players[seat].decide(view, 1.0).action)
    reading = expert.reading  # type: ignore[attr-defined]
    assert np.argmax(reading[1]) == SEARCH
    assert np.argmax(reading[2]) == RANDOM
    assert np.argmax(reading[3]) == CLASSIC


def test_the_expert_calls_with_less_bias_at_a_table_read_as_searching_players() -> None:
    """The call's simulated distribution is shifted up by ``call_bias`` (0.4 of a trick), and by
    ``search_call_bias`` (0.1) once the other three are read as searching players."""
    match = Match(make_rules("callbreak"))
    for seat, view in decisions(match, Dealer(4)):
        if view.phase is Phase.CALL and view.hand is not None and seat == 0:
            break
        match.apply(make_bot("heuristic").decide(view, 1.0).action)

    def mean_tricks(prior: dict[int, np.ndarray]) -> float:
        bot = make_bot("expert:samples=400", seed=3)
        bot.style_prior = prior  # type: ignore[attr-defined]
        outlook, _ = bot.call_outlook(view)  # type: ignore[attr-defined]
        return float(np.dot(outlook, np.arange(len(outlook))))

    unread = mean_tricks({})
    assert mean_tricks({s: _sure(CLASSIC) for s in (1, 2, 3)}) == pytest.approx(unread)
    assert mean_tricks({s: _sure(SEARCH) for s in (1, 2, 3)}) == pytest.approx(unread - 0.3)
    one = mean_tricks({1: _sure(SEARCH), 2: _sure(GREEDY), 3: _sure(CLASSIC)})
    assert one == pytest.approx(unread - 0.1)
    off = make_bot("expert:samples=400,read=off", seed=3)
    off.style_prior = {s: _sure(SEARCH) for s in (1, 2, 3)}  # type: ignore[attr-defined]
    assert off.table_call_bias() == 0.4  # type: ignore[attr-defined]


def test_the_playouts_play_a_seat_as_it_is_read_and_a_searching_one_as_classic() -> None:
    from callbreak.bots.expert import play_as_read
    from callbreak.bots.heuristic import classic_table
    from callbreak.bots.kernel_classic import STYLE_CLASSIC, STYLE_GREEDY, STYLE_RANDOM, T_STYLE

    view = _table(("greedy", "random", "heuristic"), 3, 1)[0]
    table = classic_table(view)
    unsure = (_sure(RANDOM) + _sure(SEARCH)) / 2  # a random player before its first call
    play_as_read(table, {1: _sure(GREEDY), 2: _sure(RANDOM), 3: _sure(SEARCH)})
    assert list(table[1:, T_STYLE]) == [STYLE_GREEDY, STYLE_RANDOM, STYLE_CLASSIC]
    table = classic_table(view)
    play_as_read(table, {1: unsure, 2: _sure(CLASSIC)})
    assert list(table[1:, T_STYLE]) == [STYLE_CLASSIC] * 3
