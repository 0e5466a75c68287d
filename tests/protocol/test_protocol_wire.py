"""Protocol bodies without HTTP: views rebuilt from requests, fixtures, answers, rules refusal."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import pytest
from protocol_helpers import NOBODY_HOLDS_THEM, TOO_MANY_FOR_ONE_HAND, play_to

from callbreak.core import CHANCE, Dealer, Match, Phase, Play, make_rules
from callbreak.core.cards import from_protocol, to_protocol
from callbreak.protocol import RemoteBot, RulesNotSupportedError
from callbreak.protocol.wire import (
    ProtocolError,
    action_from_answer,
    check_rules,
    kind_for,
    parse_request,
    request_from_view,
)

FIXTURES = sorted((Path(__file__).parent / "fixtures").glob("*.json"))


def _body_cards(body: dict) -> set[str]:
    cards = set(body["cards"]) | set(body.get("played", []))
    for _, trick, _ in body.get("history", []):
        cards |= set(trick)
    return cards


@pytest.mark.parametrize("preset_overrides", [{}, {"first_dealer": "random"}])
def test_a_request_rebuilds_exactly_the_seats_view(preset_overrides: dict) -> None:
    """Stateless: the server's view from a body equals the match's view of that seat, at every
    decision of whole matches (caps, legal moves and trick leaders included)."""
    checked = 0
    for seed in range(4):
        rng = random.Random(seed)
        match = Match(make_rules("bhoos-tournament", **preset_overrides))
        dealer = Dealer(seed)
        while not match.is_over:
            if match.to_act == CHANCE:
                match.apply(dealer.chance(match))
                continue
            view = match.view(match.to_act)
            body = json.loads(json.dumps(request_from_view(view, time_budget_ms=1000)))
            rebuilt = parse_request(kind_for(view), body).view
            if not preset_overrides:
                # Earlier deals' details are not in the protocol; everything else must match.
                assert rebuilt == dataclasses.replace(view, results=())
            else:
                # Seats are renumbered so the dealer sits where the protocol expects it.
                shift = int(body["playerIds"][0][1:])
                assert rebuilt.seat == (view.seat - shift) % 4
                assert rebuilt.legal_cards == view.legal_cards
                assert rebuilt.hand == view.hand
                assert [t.cards for t in rebuilt.tricks] == [t.cards for t in view.tricks]
            checked += 1
            match.apply(rng.choice(match.legal_actions()))
    assert checked == 4 * 5 * (4 + 52)


def test_a_request_shows_no_card_the_seat_may_not_see() -> None:
    """Only the seat's own hand and cards already played ever appear in a body."""
    rng = random.Random(3)
    match = Match(make_rules("bhoos-tournament"))
    dealer = Dealer(3)
    while not match.is_over:
        if match.to_act == CHANCE:
            match.apply(dealer.chance(match))
            continue
        seat = match.to_act
        view = match.view(seat)
        body = request_from_view(view, time_budget_ms=500)
        visible = {c for c in view.hand or ()} | set(view.played)
        assert {from_protocol(c) for c in _body_cards(body)} == visible
        match.apply(rng.choice(match.legal_actions()))


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_fixture_bodies_give_the_hand_checked_legal_answers(path: Path) -> None:
    fixture = json.loads(path.read_text())
    kind = fixture["endpoint"].strip("/")
    view = parse_request(kind, fixture["body"]).view
    if kind == "bid":
        assert [a.tricks for a in view.legal] == fixture["legal"]
        assert view.phase is Phase.CALL
    else:
        assert sorted(view.legal_cards) == sorted(from_protocol(c) for c in fixture["legal"])


def test_fixtures_cover_the_edge_cases() -> None:
    names = {p.stem for p in FIXTURES}
    assert {"play_first_lead", "play_last_trick", "play_trumped_follow_any", "play_void_overtrump",
            "bid_dealer_all_others_in", "bid_first_caller", "play_must_beat",
            # written by hand rather than by our client: other seat orders and ids, round 5
            "play_first_lead_ids_out_of_order", "bid_round5_dealer_last_ids_out_of_order",
            "play_round5_overtrump_named_ids"} <= names
    last = json.loads((Path(__file__).parent / "fixtures" / "play_last_trick.json").read_text())
    view = parse_request("play", last["body"]).view
    assert len(view.tricks) == 12 and len(view.hand or ()) == 1
    # Totals arrive as points with tenths and are kept as whole tenths.
    assert view.totals == tuple(round(last["body"]["context"]["players"][p]["totalPoints"] * 10)
                                for p in last["body"]["playerIds"])


def test_answers_are_read_and_illegal_ones_refused() -> None:
    # A position where the rules forbid some of the cards held.
    match = play_to(11, lambda m: m.phase is Phase.PLAY
                    and len(m.legal_cards()) < len(m.view(m.to_act).hand or ()))
    view = match.view(match.to_act)
    legal = view.legal_cards[0]
    assert action_from_answer(view, {"value": to_protocol(legal)}) == Play(view.seat, legal)
    not_legal = next(c for c in view.hand or () if c not in view.legal_cards)
    with pytest.raises(ProtocolError, match="not a legal card"):
        action_from_answer(view, {"value": to_protocol(not_legal)})
    unplayed = next(c for c in view.unseen)  # held by someone else, or already gone
    with pytest.raises(ProtocolError, match="not a legal card"):
        action_from_answer(view, {"value": to_protocol(unplayed)})
    for bad in ({"value": "XX"}, {"value": 3}, {"card": "QS"}, ["QS"], {"value": None}):
        with pytest.raises(ProtocolError):
            action_from_answer(view, bad)


def test_calls_outside_one_to_eight_are_refused() -> None:
    match = Match(make_rules("bhoos-tournament"))
    match.apply(Dealer(1).chance(match))
    view = match.view(match.to_act)
    assert action_from_answer(view, {"value": 8}).tricks == 8  # type: ignore[union-attr]
    assert action_from_answer(view, {"value": 3.0}).tricks == 3  # type: ignore[union-attr]
    for bad in (0, 9, 13, True, "3", 2.5, 9.0, float("nan")):
        with pytest.raises(ProtocolError):
            action_from_answer(view, {"value": bad})


@pytest.mark.parametrize("preset", ["callbreak", "567", "nepal-traditional", "call-bridge"])
def test_other_rules_are_refused_clearly(preset: str) -> None:
    with pytest.raises(ProtocolError, match="only plays the bhoos-tournament rules"):
        check_rules(make_rules(preset))
    match = Match(make_rules(preset))
    dealer = Dealer(2)
    while match.to_act == CHANCE:
        match.apply(dealer.chance(match))
    # Refused before any network traffic: nothing listens on this port.
    with RemoteBot("http://127.0.0.1:9") as bot, pytest.raises(RulesNotSupportedError):
        bot.decide(match.view(match.to_act), 0.1)


def test_a_bhoos_table_with_a_random_first_dealer_is_accepted() -> None:
    check_rules(make_rules("bhoos-tournament", first_dealer="random", turn_timer=15))


@pytest.mark.parametrize("module", ["wire", "server", "players"])
def test_the_docstring_examples_hold(module: str) -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(f"callbreak.protocol.{module}"))
    assert result.attempted > 0 and result.failed == 0


def _paths(node: object, prefix: tuple = ()) -> list[tuple]:
    """Every path to a value inside a JSON document."""
    out = [prefix]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, prefix + (i,))
    return out


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_any_damaged_body_is_refused_with_a_protocol_error_or_still_consistent(path: Path) -> None:
    """Replace any one value of a real body by a value of another shape: the result is either a
    clean :class:`ProtocolError` or a request that still adds up (never another exception)."""
    import copy

    fixture = json.loads(path.read_text())
    kind = fixture["endpoint"].strip("/")
    rng = random.Random(path.stem)
    junk = [None, -1, 0, 3, 13, 10**20, 2.5, float("nan"), True, "", "x", "1S", "TD", [], {},
            [0, ["1S"], 0], {"bid": 1}]
    paths = _paths(fixture["body"])[1:]
    refused = 0
    for _ in range(400):
        body = copy.deepcopy(fixture["body"])
        where = rng.choice(paths)
        node = body
        for key in where[:-1]:
            node = node[key]
        if rng.random() < 0.2 and isinstance(node, (dict, list)):
            del node[where[-1]]
        else:
            node[where[-1]] = rng.choice(junk)
        try:
            request = parse_request(kind, body)
        except ProtocolError as e:
            refused += 1
            assert str(e)
            continue
        # Accepted: it must still be a position with something legal to do.
        assert request.view.legal
    assert refused > 300


def test_a_history_that_leaves_unseen_cards_fitting_no_hand_is_refused() -> None:
    """Each trick adds up on its own, but together the shown voids leave cards nobody can hold:
    no deal agrees with such a history, so it is refused rather than handed to a bot."""
    with pytest.raises(ProtocolError, match=r"does not add up: no player may hold the unseen "
                                            r"card\(s\) 2S 3S 5H 6H"):
        parse_request("play", NOBODY_HOLDS_THEM)
    with pytest.raises(ProtocolError, match=r"only P1 may hold the unseen card\(s\) 2S 3S 4S 5S "
                                            r"6H 8H .* 1H, but they hold 10 card\(s\)"):
        parse_request("play", TOO_MANY_FOR_ONE_HAND)
    # P0 holding two more of those spades leaves exactly 10 for P1: that deal is possible.
    fits = json.loads(json.dumps(TOO_MANY_FOR_ONE_HAND))
    fits["cards"][-2:] = ["5S", "4S"]
    assert parse_request("play", fits).view.legal_cards


def test_whole_numbers_written_with_a_decimal_point_are_read_as_numbers() -> None:
    """JSON has one number type: a sender that writes 5.0 means 5 (2.5 and "5" are refused)."""
    fixture = json.loads((Path(__file__).parent / "fixtures" / "play_trumped_follow_any.json").read_text())
    body = fixture["body"]
    as_floats = json.loads(json.dumps(body))
    as_floats["context"]["round"] = 1.0
    as_floats["context"]["players"]["P0"]["bid"] = 5.0
    as_floats["context"]["players"]["P0"]["won"] = 2.0
    as_floats["history"] = [[float(s), cards, float(w)] for s, cards, w in body["history"]]
    assert parse_request("play", as_floats) == parse_request("play", body)
    for path, value in ((("context", "round"), 1.5), (("context", "round"), "1")):
        bad = json.loads(json.dumps(body))
        bad[path[0]][path[1]] = value
        with pytest.raises(ProtocolError, match="context.round must be a whole number"):
            parse_request("play", bad)
    bad = json.loads(json.dumps(body))
    bad["history"][0][0] = 1.5
    with pytest.raises(ProtocolError, match=r"history\[0\]: startIdx must be an index 0..3"):
        parse_request("play", bad)


def test_a_call_request_sent_to_play_is_named_as_such() -> None:
    fixture = json.loads((Path(__file__).parent / "fixtures" / "bid_first_caller.json").read_text())
    with pytest.raises(ProtocolError, match=r"missing fields 'history' and 'played'.*POST /bid"):
        parse_request("play", fixture["body"])
