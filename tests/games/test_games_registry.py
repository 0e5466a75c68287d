"""The games registry: every game's entry, options and player counts (RULES.md section 4, seed
000), the one game protocol every registered game implements, and properties of random play of
every game at every table size (cards conserved, one winner a trick, a legal action whenever a
seat is to act, records that replay exactly, redaction that shows a seat only what it saw)."""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Iterator
from enum import Enum
from typing import Any

import pytest
from games_helpers import RELATED, random_playout, trick_game
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from callbreak.core.actions import CHANCE, Deal, Stop
from callbreak.core.cards import Card, Suit, cards_of, parse_cards
from callbreak.core.errors import RulesError
from callbreak.core.game import Game, GameView
from callbreak.core.match import Match
from callbreak.core.rules import Rotation, Rules, make_rules
from callbreak.core.scoring import deal_points
from callbreak.core.tricks import legal_mask
from callbreak.games import GameOptions, game_info, games, new_game
from callbreak.games.registry import option_names
from callbreak.record import HIDDEN, dumps, loads, record_of, redact, replay, replay_states

BUILTIN = ("callbreak", "batak-ihaleli", "batak-koz-maca", "donut", "horsethief", "snarples")


def test_seed000_registry_lists_the_games_with_their_player_counts() -> None:
    listed = {info.name: info.seats for info in games()[:len(BUILTIN)]}  # built-ins register first
    assert listed == {"callbreak": (4,), "batak-ihaleli": (4,),
                      "batak-koz-maca": (4,), "snarples": (3, 4, 5, 6, 7, 8), "donut": (4, 5, 6),
                      "horsethief": (3, 4, 5)}
    assert list(listed) == list(BUILTIN)  # Call Break leads every list
    assert all(info.description for info in games())
    assert [info.name for info in games() if issubclass(info.options_type, GameOptions)
            ][:len(RELATED)] == list(RELATED)


@pytest.mark.parametrize("name", BUILTIN)
def test_every_game_has_a_title_description_seats_and_titled_presets(name: str) -> None:
    info = game_info(name)
    assert info.name == name and info.title.strip() and info.description.strip()
    assert info.seats and list(info.seats) == list(range(info.seats[0], info.seats[-1] + 1))
    assert info.default_seats in info.seats
    assert info.presets and info.default_preset == info.presets[0].name
    for p in info.presets:
        assert p.name and p.title.strip() and p.description.strip(), p
        assert info.preset(p.name) == p
        game = info.new(preset=p.name)
        assert game.players == info.default_seats
        assert isinstance(game.options, info.options_type)
        # The options round-trip through the form a record stores.
        assert info.load_options(game.options.to_dict()) == game.options
    assert len({p.name for p in info.presets}) == len(info.presets)
    assert option_names(info)  # every game has options to name
    assert info.low_wins == (name in ("donut", "snarples"))  # the race-down games


def test_seed000_new_game_refuses_unknown_games_players_and_options_clearly() -> None:
    refusals: list[tuple[dict[str, Any], str]] = [
        ({"name": "whist"}, r"unknown game 'whist'; games are: callbreak, batak-ihaleli"),
        ({"name": "snarples", "players": 9}, r"^Snarples is for 3 to 8 players, not 9$"),
        ({"name": "snarples", "players": 2}, r"^Snarples is for 3 to 8 players, not 2$"),
        ({"name": "callbreak", "players": 5}, r"^Call Break is for 4 players, not 5$"),
        ({"name": "call-bridge", "players": 5}, r"^Call Break is for 4 players, not 5$"),
        ({"name": "donut", "players": True}, r"^Donut is for 4 to 6 players, not True$"),
        ({"name": "donut", "players": "5"}, r"^Donut is for 4 to 6 players, not '5'$"),
        ({"name": "donut", "colour": "red"}, r"unknown option 'colour'; options are: dealer_rotation"),
        ({"name": "callbreak", "colour": "red"}, r"unknown option 'colour'; options are: blind_call"),
        ({"name": "callbreak", "preset": "nope"}, r"Call Break has no preset 'nope'; presets are: callbreak,"),
        ({"name": "donut", "preset": "callbreak"}, r"^Donut has no preset 'callbreak'; presets are: donut$"),
        ({"name": "call-bridge", "preset": "nope"}, r"Call Break has no preset 'nope'; presets are: call-bridge,"),
        ({"name": "horsethief", "ties": "coin"}, r"option ties must be one of shared, play_on, got 'coin'"),
        ({"name": "batak-ihaleli", "deals": "many"}, r"option deals must be a whole number, got 'many'"),
        ({"name": "callbreak", "max_call": 99}, r"max_call must be 1\.\.13, got 99"),
    ]
    for kwargs, words in refusals:
        with pytest.raises(RulesError, match=words):
            new_game(**kwargs)


def mask(cards: tuple[Card, ...]) -> int:
    return sum(1 << c for c in cards)


def test_seed000_call_bridge_is_the_call_bridge_preset_of_the_engine() -> None:
    game = new_game("call-bridge")
    assert type(game) is Match  # not a game of its own: Call Break under a preset
    assert game.rules == new_game("callbreak", preset="call-bridge").rules
    r = game.rules
    assert r == make_rules("call-bridge") and game.options is r
    assert r.min_call == 2 and r.max_call == 12
    assert r.deals is None  # "played for an agreed time"
    assert r.dealer_rotation is Rotation.RIGHT  # 000: the deal passes counter-clockwise, as play goes
    # Follow suit with free choice; void: trump only if a spade could win.
    hand = mask(parse_cards("2H KH 3S"))
    led_queen = [Card.parse("QH")]
    assert legal_mask(hand, led_queen, Suit.SPADES, r, first_trick=False) == mask(parse_cards("2H KH"))
    void = mask(parse_cards("3S 2C"))
    assert legal_mask(void, led_queen, Suit.SPADES, r, False) == mask(parse_cards("3S"))
    overtrumped = [Card.parse("QH"), Card.parse("5S")]
    assert legal_mask(void, overtrumped, Suit.SPADES, r, False) == void
    # Call or call+1 scores the call; a made call of 8 or more scores 13; otherwise -call.
    assert [deal_points(4, won, r) // 10 for won in (3, 4, 5, 6)] == [-4, 4, 4, -4]
    assert [deal_points(8, won, r) // 10 for won in (7, 8, 9, 10)] == [-8, 13, 13, -8]
    with pytest.raises(RulesError, match="4 players"):
        new_game("call-bridge", players=5)
    # The old game name is an alias: Call Break's entry with the Call Bridge presets first; no
    # list of games shows it.
    info = game_info("call-bridge")
    assert info.name == "callbreak" and info.options_type is Rules
    assert [p.name for p in info.presets][:2] == ["call-bridge", "call-bridge-simple"]
    assert {p.name for p in info.presets} == {p.name for p in game_info("callbreak").presets}
    assert new_game("call-bridge", preset="call-bridge-simple").options == make_rules("call-bridge-simple")
    assert "call-bridge" not in {i.name for i in games()}


def test_seed000_options_are_checked_and_named() -> None:
    with pytest.raises(RulesError, match="unknown option 'colour'"):
        new_game("donut", colour="red")
    with pytest.raises(RulesError, match="ties must be one of shared, play_on"):
        new_game("horsethief", ties="coin")
    with pytest.raises(RulesError, match="first_dealer"):
        new_game("snarples", players=3, first_dealer=3)
    with pytest.raises(RulesError, match="unknown game"):
        new_game("whist")
    assert trick_game("batak-ihaleli", deals="3").options.deals == 3  # type: ignore[attr-defined]


@pytest.mark.parametrize("rotation, step", [("with_play", 1), ("against_play", -1)])
def test_seed000_dealer_rotation_is_an_explicit_option(rotation: str, step: int) -> None:
    g = trick_game("horsethief", 4, dealer_rotation=rotation, first_dealer=2, max_hands=4)
    random_playout(g, seed=3)
    dealers = [r.dealer for r in g.results]
    assert dealers == [(2 + step * i) % 4 for i in range(len(dealers))]


def test_seed000_max_hands_ends_the_game_with_the_best_score_winning() -> None:
    g = trick_game("snarples", 5, max_hands=2)
    random_playout(g, seed=8)
    assert len(g.results) == 2 and all(sc > 0 for sc in g.scores)  # stopped by the limit
    left = [s for s in range(5) if g.in_game[s]]
    assert g.is_over
    assert g.winners == tuple(s for s in left if g.scores[s] == min(g.scores[t] for t in left))


# --- the one game protocol --------------------------------------------------------------------


@pytest.mark.parametrize("name", BUILTIN)
def test_every_game_implements_the_game_protocol_and_its_views_the_view_protocol(name: str) -> None:
    info = game_info(name)
    for players in info.seats:
        game = info.new(players)
        assert isinstance(game, Game)
        assert game.players == players and game.to_act == CHANCE and not game.is_over
        assert list(game.history) == [] and list(game.results) == []
        chance = info.dealer(players)
        rng = random.Random(players)
        while not game.is_over and len(game.results) < 1:
            for seat in [None, *range(players)]:
                view = game.view(seat)
                assert isinstance(view, GameView)
                assert view.seat == seat and view.players == players
                assert view.to_act == game.to_act and view.is_over == game.is_over
                assert (view.hand is None) if seat is None else True
            game.apply(chance.chance(game) if game.to_act == CHANCE else rng.choice(game.legal_actions()))
        assert isinstance(game.clone(), Game) and game.clone().snapshot() == game.snapshot()
        assert json.dumps(game.result_json())  # JSON-ready
    assert not isinstance(object(), Game) and not isinstance(object(), GameView)


# --- properties of random play, every game and table size ------------------------------------


def _cards_in(value: Any, out: set[Card]) -> None:
    """Every card anywhere in a view: its fields, walked whatever they hold (an allow-list built
    view is checked by what it contains, not by what it is meant to contain)."""
    if isinstance(value, Card):
        out.add(value)
    elif isinstance(value, (str, bytes, int, float, Enum)) or value is None:
        return
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            _cards_in(getattr(value, f.name), out)
    elif isinstance(value, dict):
        for v in value.values():
            _cards_in(v, out)
    elif isinstance(value, (tuple, list, set, frozenset)):
        for v in value:
            _cards_in(v, out)


def _places(game: Any) -> list[int]:
    """Where the cards of the deal in progress are, as masks: each seat's hand, the cards played
    this deal, each seat's discards, the stock (the same card in two of them is a bug)."""
    played = game.view(None).played
    parts = list(game.hands) + [mask(played)]
    parts += list(game.discards)
    parts.append(mask(tuple(game.stock)))
    return parts


def _check_cards(game: Any, deal: Deal) -> None:
    dealt = mask(tuple(c for h in deal.hands for c in h)) | mask(deal.stock)
    if deal.upcard is not None:
        dealt |= 1 << deal.upcard
    held = 0
    for part in _places(game):
        assert not held & part, "a card is in two places"
        held |= part
    assert held & ~dealt == 0, "a card appeared that was not dealt"
    face_up = mask(game.view(None).face_up)
    # Cards may leave play only with a seat that is not playing this deal (sat out, dropped).
    active = getattr(game, "active", [True] * game.players)
    set_aside = 0
    for s, h in enumerate(deal.hands):
        if not active[s]:
            set_aside |= mask(h)
    assert dealt & ~(held | face_up) & ~set_aside == 0, "a dealt card went missing"


def _options(name: str) -> dict[str, Any]:
    """Short games: a few hands (the games without a fixed end stop between deals)."""
    info = game_info(name)
    if issubclass(info.options_type, GameOptions) and "max_hands" in option_names(info):
        return {"max_hands": 3}
    return {}


def _play(game: Any, info: Any, seed: int) -> Iterator[tuple[Any, Any]]:
    """Random legal play to the end, yielding (action, game after it)."""
    chance = info.dealer(seed)
    rng = random.Random(seed)
    for _ in range(5000):
        if game.is_over:
            return
        seat = game.to_act
        if seat == CHANCE:
            action = Stop() if len(game.results) >= 3 and game.is_legal(Stop()) else chance.chance(game)
        else:
            legal = game.legal_actions()
            assert legal, f"seat {seat} is to act with no legal action ({game.phase})"
            view = game.view(seat)
            assert tuple(legal) == tuple(view.legal)  # what the seat is shown it may do
            assert game.is_legal(game.default_action())
            action = rng.choice(legal)
        game.apply(action)
        yield action, game
    raise AssertionError("the game did not end")


# Every game at every table size under each of its presets.
SETUPS = [(info.name, n, p.name) for info in games() if info.name in BUILTIN
          for n in info.seats for p in info.presets]


@pytest.mark.parametrize("name, players, preset", SETUPS)
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), cut=st.floats(0, 1))
def test_random_play_to_the_end_keeps_every_invariant(name: str, players: int, preset: str,
                                                      seed: int, cut: float) -> None:
    info = game_info(name)
    game = info.new(players, preset, **_options(name))
    deal: Deal | None = None
    snapshots = [game.snapshot()]
    for action, g in _play(game, info, seed):
        if isinstance(action, Deal):
            deal = action
        if deal is not None and g.to_act is not None and g.to_act != CHANCE:
            _check_cards(g, deal)
        _check_trick(g)
        snapshots.append(g.snapshot())
    assert game.is_over and game.winners and game.to_act is None
    assert all(0 <= w < players for w in game.winners)
    assert len(game.results) >= 1

    # The record, written and read back, replays to the same state; so does any prefix of it.
    record = loads(dumps(record_of(game, seats=[f"p{s}" for s in range(players)], name=name)))
    assert record.game == name and record.players == players and record.options == game.options
    assert replay(record).snapshot() == game.snapshot()
    k = int(cut * len(record.actions))
    part = loads(dumps(dataclasses.replace(record, actions=record.actions[:k])))
    assert replay(part).snapshot() == snapshots[k]
    # Redaction, of the whole game and of a game cut short (in Call Break every card of a
    # finished deal is played, so only an unfinished deal has cards left to hide).
    _check_redaction(record)
    _check_redaction(part)


def _seen_by_deal(record: Any) -> list[list[set[Card]]]:
    """Per deal, per viewer (the spectator last): every card in any of its views that deal."""
    seen: list[list[set[Card]]] = []
    viewers = [*range(record.players), None]
    for action, state in zip(record.actions, list(replay_states(record))[1:], strict=True):
        if isinstance(action, Deal):
            seen.append([set() for _ in viewers])
        if seen:
            for i, viewer in enumerate(viewers):
                _cards_in(state.view(viewer), seen[-1][i])
    return seen


def _check_redaction(record: Any) -> None:
    """``redact(record, seat)`` shows another seat's card only if the seat saw it that deal."""
    seen = _seen_by_deal(record)
    dealt = [a for a in record.actions if isinstance(a, Deal)]
    for viewer in [*range(record.players), -1]:
        data = redact(record, viewer)
        deals = [a for a in data["actions"] if a["type"] == "deal"]
        assert len(deals) == len(seen) == len(dealt)
        for entry, saw, original in zip(deals, (s[viewer] for s in seen), dealt, strict=True):
            for s, hand in enumerate(entry["hands"]):
                assert len(hand) == len(original.hands[s])
                if s == viewer:
                    assert hand == [c.text for c in original.hands[s]]  # its own hand, in full
                    continue
                shown = {Card.parse(c) for c in hand if c != HIDDEN}
                assert shown <= saw, f"seat {viewer} is shown {shown - saw} of seat {s}"
                assert shown == saw & set(original.hands[s])  # and all it saw of that hand
            stock = entry.get("stock", [])
            assert len(stock) == len(original.stock)
            assert {Card.parse(c) for c in stock if c != HIDDEN} <= saw
        for entry, action in zip(data["actions"], record.actions, strict=True):
            if action.kind == "exchange" and action.seat != viewer:
                assert set(entry["cards"]) <= {HIDDEN}  # another seat's discards, never


def _check_trick(g: Any) -> None:
    """One winner for every completed trick: a seat that played in it, credited once."""
    view = g.view(None)
    for t in view.tricks:
        assert isinstance(t.winner, int) and t.winner in t.seats
        assert len(set(t.seats)) == len(t.seats) == len(t.cards)
    if view.tricks and not view.is_over and view.phase.value == "play":
        assert sum(view.won) == len(view.tricks)
        wins = [0] * g.players
        for t in view.tricks:
            wins[t.winner] += 1
        assert list(view.won) == wins


def test_cards_of_a_view_are_found_wherever_they_are() -> None:
    """The walker the redaction property relies on finds cards in nested view values."""
    found: set[Card] = set()
    g = new_game("callbreak")
    chance = game_info("callbreak").dealer(1)
    while g.to_act == CHANCE:
        g.apply(chance.chance(g))
    _cards_in(g.view(0), found)
    assert found == set(cards_of(g.hands[0]))  # type: ignore[attr-defined]
    assert isinstance(g, Match)
    found_none: set[Card] = set()
    _cards_in(g.view(None), found_none)
    assert not found_none
