"""The game review: judged from the seat's view only, classes by thresholds, bad input refused."""

from __future__ import annotations

import json

import pytest

from callbreak.bots import make_bot
from callbreak.core.actions import CHANCE, Deal, Play
from callbreak.games import game_info, new_game
from callbreak.record import dumps, loads, record_of
from callbreak.review import (
    CLASSES,
    THRESHOLDS,
    Review,
    ReviewError,
    ReviewSettings,
    ReviewUnavailable,
    classify,
    judge_decision,
    review_record,
)

FAST = ReviewSettings(samples=8, call_samples=32, seed=3)


def _play(name: str = "callbreak", preset: str | None = "bhoos-tournament", seed: int = 5,
          stop_after: int | None = None):
    g = new_game(name, preset=preset)
    chance = game_info(name).dealer(seed)
    bots = [make_bot("heuristic", seed=i) for i in range(4)]
    while not g.is_over and (stop_after is None or len(g.history) < stop_after):
        if g.to_act == CHANCE:
            g.apply(chance.chance(g))
        else:
            g.apply(bots[g.to_act].decide(g.view(g.to_act), 1.0).action)
    return g


@pytest.fixture(scope="module")
def finished():
    return record_of(_play())


@pytest.fixture(scope="module")
def reviewed(finished):
    return review_record(finished, FAST)


def test_classes_follow_the_thresholds():
    for name, most in THRESHOLDS:
        assert classify(most) == name
        assert classify(most + 0.001) == CLASSES[CLASSES.index(name) + 1]
    assert classify(100.0) == "blunder"


def test_every_decision_judged_and_lost_is_best_minus_chosen(finished, reviewed):
    seat_actions = [a for a in finished.actions if not isinstance(a, Deal)]
    assert len(reviewed.decisions) == len(seat_actions)
    for d in reviewed.decisions:
        if d.label in CLASSES:
            assert d.lost == pytest.approx(max(0.0, d.best_value - d.value), abs=1e-3)
            assert d.label == classify(d.lost)
            assert d.values[d.best] == max(d.values.values())
            if d.kind == "call":
                assert sum(d.tricks) == pytest.approx(1.0, abs=1e-3)
    kinds = {d.kind for d in reviewed.decisions if d.label in CLASSES}
    assert kinds == {"call", "play"}


def test_same_record_seed_and_settings_same_review(finished, reviewed):
    again = review_record(dumps(finished), FAST)
    assert again.to_json() == reviewed.to_json()


def test_review_round_trips_through_json(reviewed):
    text = json.dumps(reviewed.to_json())
    assert Review.from_json(json.loads(text)).to_json() == reviewed.to_json()
    with pytest.raises(ReviewError, match="format"):
        Review.from_json({"format": "other"})


def _swap_hidden(deal: Deal, seat: int, a: int, b: int) -> Deal:
    """The same deal with seats ``a`` and ``b`` (not ``seat``) trading their first cards."""
    hands = [list(h) for h in deal.hands]
    hands[a][0], hands[b][0] = hands[b][0], hands[a][0]
    return Deal(tuple(tuple(sorted(h)) for h in hands))


@pytest.mark.parametrize("plays", [0, 5])
def test_a_decision_is_judged_the_same_whatever_the_hidden_cards(plays):
    """Two games differing only in cards the deciding seat cannot see: same view, same review."""
    g = _play(stop_after=1)
    deal = g.history[0]
    assert isinstance(deal, Deal)
    before_calls = _play(stop_after=1 + 4 + plays)
    actions = list(before_calls.history[1:])
    seat = before_calls.to_act
    others = [s for s in range(4) if s != seat]
    # Trade cards between two other seats that are still in their hands at this point.
    played = {a.card for a in actions if isinstance(a, Play)}
    a, b = others[0], others[1]
    swapped = _swap_hidden(deal, seat, a, b)
    if played & (set(deal.hands[a][:1]) | set(deal.hands[b][:1])):
        pytest.skip("the traded cards were played")  # pragma: no cover
    games = []
    for d in (deal, swapped):
        h = new_game("callbreak", preset="bhoos-tournament")
        h.apply(d)
        for act in actions:
            h.apply(act)
        games.append(h)
    assert games[0].view(seat).hand == games[1].view(seat).hand
    assert games[0].view(a).hand != games[1].view(a).hand
    assert games[0].view(seat) == games[1].view(seat)
    action = games[0].view(seat).legal[-1]
    judged = [judge_decision(len(actions) + 1, h.view(seat), action, FAST) for h in games]
    assert judged[0] == judged[1]
    assert judged[0].label in CLASSES


def test_an_unfinished_game_is_refused_with_a_reason():
    rec = record_of(_play(stop_after=20))
    with pytest.raises(ReviewError, match="not finished"):
        review_record(rec, FAST)


def test_a_corrupt_record_is_refused_naming_what_is_wrong(finished):
    with pytest.raises(ReviewError.__mro__[1], match="not a JSON record"):
        review_record(b"{broken", FAST)
    data = finished.to_json()
    data["actions"][3] = {"type": "play", "card": "ZZ"}
    with pytest.raises(ReviewError.__mro__[1], match="action|card"):
        review_record(json.dumps(data), FAST)
    data = finished.to_json()
    data["game"] = "no-such-game"
    with pytest.raises(ReviewError.__mro__[1], match="no-such-game"):
        review_record(json.dumps(data), FAST)


def _related(name: str, players: int, seed: int, **options: int):
    """A finished related game: heuristic bots at even seats, random ones at odd seats."""
    g = new_game(name, players=players, **options)
    chance = game_info(name).dealer(seed)
    bots = [make_bot("heuristic" if s % 2 == 0 else "random", seed=seed + s, game=name)
            for s in range(players)]
    while not g.is_over:
        g.apply(chance.chance(g) if g.to_act == CHANCE
                else bots[g.to_act].decide(g.view(g.to_act), 1.0).action)
    return record_of(g, [f"{'heuristic' if s % 2 == 0 else 'random'}" for s in range(players)])


@pytest.mark.slow
@pytest.mark.parametrize(("name", "players", "options"), [
    ("donut", 5, {}), ("batak-koz-maca", 4, {"max_hands": 1}), ("batak-ihaleli", 4, {"max_hands": 1}),
    ("horsethief", 3, {"target": 10}), ("snarples", 4, {"max_hands": 2}),
])
def test_every_related_game_is_reviewed_by_its_search_bot(name: str, players: int, options: dict) -> None:
    record = _related(name, players, 4, **options)
    review = review_record(loads(dumps(record)), FAST)
    assert review.judge == "search" and review.game == name and len(review.seats) == players
    seat_moves = sum(1 for a in record.actions if a.kind not in ("deal", "choose_dealer", "draw"))
    assert len(review.decisions) == seat_moves  # every decision of every seat
    judged = [d for d in review.decisions if d.label in CLASSES]
    assert judged and all(d.deals_searched > 0 and d.chosen in d.values for d in judged)
    assert {d.kind for d in judged} == {"call", "play"}  # bids, trumps, in or out ... and cards
    for d in judged:
        assert d.best_value == max(d.values.values()) and d.lost == round(d.best_value - d.value, 3)
        if d.kind == "play":
            assert d.trick >= 1 and d.hand and d.chosen in d.hand
    # The same record, seed and settings: the same review, also read back from its JSON.
    again = review_record(record, FAST)
    assert again.to_json() == review.to_json()
    assert Review.from_json(json.loads(json.dumps(review.to_json()))).to_json() == review.to_json()


def test_the_search_judges_a_clearly_worse_choice_worse() -> None:
    """Over the related games' reviews, the random seats lose more than the heuristic ones."""
    lost = {"heuristic": 0.0, "random": 0.0}
    for name, players in (("donut", 5), ("batak-koz-maca", 4)):
        review = review_record(_related(name, players, 9, **({"max_hands": 2} if name != "donut" else {})), FAST)
        for s in review.summary():
            lost[review.seats[s.seat]] += s.lost
    assert lost["random"] > 2 * lost["heuristic"], lost


def test_a_game_no_search_bot_plays_is_not_available(monkeypatch: pytest.MonkeyPatch) -> None:
    import callbreak.bots

    record = loads(dumps(_related("donut", 4, 1)))
    plays = callbreak.bots.plays  # the judges are asked which games they play: as a plug-in's game
    monkeypatch.setattr(callbreak.bots, "plays", lambda spec, game: spec != "search" and plays(spec, game))
    with pytest.raises(ReviewUnavailable, match="not available for Donut"):
        review_record(record, FAST)


@pytest.mark.process
def test_judged_in_two_processes_the_review_is_the_same(finished, reviewed):
    assert review_record(finished, FAST, workers=2).to_json() == reviewed.to_json()


def test_accuracy_is_the_share_of_the_stake_kept(reviewed):
    from callbreak.review import accuracy

    for s in reviewed.summary():
        mine = [d for d in reviewed.decisions if d.seat == s.seat and d.label in CLASSES]
        stake = sum(d.at_stake for d in mine)
        assert s.accuracy == pytest.approx(max(0.0, 100 * (1 - s.lost / stake)), abs=0.2)
        assert s.label == f"Seat {s.seat + 1}"  # the record's default names add nothing
    # A player that always loses what a random choice loses on average scores 0; the best, 100.
    d = next(d for d in reviewed.decisions if d.label in CLASSES and d.at_stake > 0.5)
    from dataclasses import replace

    as_random = replace(d, lost=d.at_stake)
    assert accuracy([as_random]) == 0.0
    assert accuracy([replace(d, lost=0.0)]) == 100.0
    assert accuracy([replace(d, lost=3 * d.at_stake)]) == 0.0  # worse than random: still 0


def test_no_line_contradicts_itself(reviewed):
    for d in reviewed.decisions:
        if d.label == "best":
            assert d.better is None  # within noise of the top: nothing named better
        if d.better is not None:
            assert d.lost > THRESHOLDS[0][1] and d.better != d.chosen
        if d.kind == "call" and d.values:
            top = d.top_values()
            assert 1 <= len(top) <= 4 and any(k == d.chosen for k, _ in top)
            assert top[0][0] == d.best


def test_a_judged_card_comes_with_its_position(finished, reviewed):
    states = list(__import__("callbreak.record", fromlist=["replay_states"]).replay_states(finished))
    for d in reviewed.decisions:
        if d.kind != "play":
            continue
        view = states[d.index].view(d.seat)
        assert d.chosen in d.hand and len(d.hand) == len(view.hand)
        assert d.trick_cards == tuple(str(c) for c in view.trick)
        assert d.trick_seats == view.trick_seats
    lines = list(__import__("callbreak.review", fromlist=["review_text"]).review_text(reviewed))
    assert lines[0].startswith("Seat 1: accuracy ")


def test_the_chart_knows_where_each_deal_starts(reviewed):
    starts = reviewed.deal_starts()
    assert [deal for deal, _ in starts] == list(reviewed.deals)
    assert starts[0][1] == 0
    for deal, at in starts:
        assert reviewed.decisions[at].deal == deal and (at == 0 or reviewed.decisions[at - 1].deal == deal - 1)
    assert reviewed.to_json()["deal_starts"] == [at for _, at in starts]


def test_calls_before_looking_are_judged_under_the_567_rules():
    g = new_game("callbreak", preset="567")
    chance = game_info("callbreak").dealer(3)
    bots = [make_bot("random", seed=i) for i in range(4)]
    while not g.is_over:
        g.apply(chance.chance(g) if g.to_act == CHANCE else bots[g.to_act].decide(g.view(g.to_act), 1.0).action)
    review = review_record(record_of(g), FAST)
    calls = [d for d in review.decisions if d.kind == "call"]
    unseen = [d for d in calls if not d.hand]
    assert unseen, "random players call or look before seeing their cards"
    assert all(d.label in CLASSES for d in calls)  # none "not judged"
    for d in unseen:
        assert any(k.startswith("blind call") for k in d.values) and d.chosen in d.values
        if "look" in d.values:
            # Looking first is worth the best call after seeing the hand: at least any unseen
            # call that is not doubled (the same hands, a free choice of call).
            plain = [v for k, v in d.values.items() if k.startswith("call ")]
            assert not plain or d.values["look"] >= max(plain) - 1e-6
