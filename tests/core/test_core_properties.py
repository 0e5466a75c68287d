"""Property tests (hypothesis): legal moves exist, hidden cards stay hidden, inference is sound."""

from __future__ import annotations

import itertools
import random

from cbcore_helpers import random_action
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from callbreak.core import CHANCE, PRESETS, CallbreakError, Match, Rules, make_rules
from callbreak.core.actions import Deal
from callbreak.core.cards import SUIT_MASKS, cards_of
from callbreak.core.game import Phase

OPTION_VALUES: dict[str, list[object]] = {
    "follow_must_beat": [True, False],
    "void_rule": ["trump_if_winning", "must_trump", "free"],
    "no_wasting_trumps": [False, True],
    "spade_lead_first_trick": ["allowed", "forbidden"],
    "side_off_declaration": [False, True],
    "trump": ["spades", "first_led"],
    "redeal_weak_hand": ["off", "no_spade", "no_spade_or_no_face"],
    "redeal_one_suit_hand": [False, True],
}


@st.composite
def rules_strategy(draw: st.DrawFn) -> Rules:
    """A preset with some options overridden; contradictory combinations are skipped."""
    base = draw(st.sampled_from(sorted(PRESETS)))
    overrides = draw(st.dictionaries(st.sampled_from(sorted(OPTION_VALUES)), st.just(None), max_size=3))
    values = {k: draw(st.sampled_from(OPTION_VALUES[k])) for k in overrides}
    try:
        return make_rules(base, **values)
    except CallbreakError:
        assume(False)
        raise


def _advance(m: Match, rng: random.Random, steps: int) -> list[object]:
    """Apply up to ``steps`` random legal actions; return them."""
    done: list[object] = []
    for _ in range(steps):
        if m.is_over:
            break
        if m.to_act != CHANCE:
            assert m.legal_actions(), f"seat {m.to_act} must act in {m.phase} but has no legal action"
            assert m.view(m.to_act).legal == tuple(m.legal_actions())
        a = random_action(m, rng, stop_after=2)
        m.apply(a)
        done.append(a)
        _assert_caps_sound(m)
    return done


def _assert_caps_sound(m: Match) -> None:
    """The true hands always respect the public caps every view carries."""
    caps = m.view(None).caps
    for seat in range(4):
        for suit in range(4):
            own = m.hands[seat] & SUIT_MASKS[suit]
            assert own.bit_length() - 1 <= caps[seat][suit]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(rules=rules_strategy(), seed=st.integers(0, 2**32), steps=st.integers(1, 400))
def test_legal_actions_never_empty_and_caps_sound(rules: Rules, seed: int, steps: int) -> None:
    """Whenever a seat must act it has a legal action; the hands never break the public caps."""
    _advance(Match(rules), random.Random(seed), steps)


def _swapped_replay(m: Match, viewer: int) -> Match | None:
    """The same actions on a deal where two other seats swapped one card they still hold.

    Every swap of an unplayed card between two other seats is tried in a fixed order; the first
    whose replay keeps every past action legal is returned (None if none does). Under side-off
    declarations each seat's voids are announced to the table, so only swaps within a suit keep
    the public facts the same.
    """
    deal_index = max(i for i, a in enumerate(m.history) if isinstance(a, Deal))
    deal = m.history[deal_index]
    assert isinstance(deal, Deal)
    others = [s for s in range(4) if s != viewer]
    for a, b in itertools.combinations(others, 2):
        for x in cards_of(m.hands[a]):
            for y in cards_of(m.hands[b]):
                if m.rules.side_off_declaration and x.suit != y.suit:
                    continue
                hands = [list(h) for h in deal.hands]
                hands[a] = sorted([c for c in hands[a] if c != x] + [y])
                hands[b] = sorted([c for c in hands[b] if c != y] + [x])
                alt = Match(m.rules)
                try:
                    for i, act in enumerate(m.history):
                        alt.apply(Deal(hands=tuple(tuple(h) for h in hands)) if i == deal_index else act)
                except CallbreakError:
                    continue
                return alt
    return None


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(rules=rules_strategy(), seed=st.integers(0, 2**32), steps=st.integers(2, 120),
       viewer=st.integers(0, 3))
def test_views_equal_when_only_other_hidden_cards_differ(rules: Rules, seed: int, steps: int,
                                                         viewer: int) -> None:
    """Two states differing only in other seats' hidden cards give the seat equal views."""
    m = Match(rules)
    _advance(m, random.Random(seed), steps)
    assume(m.phase in (Phase.CALL, Phase.PLAY, Phase.REDEAL_CLAIM))
    alt = _swapped_replay(m, viewer)
    assume(alt is not None)
    assert alt is not None
    assert alt.hands != m.hands  # the states really differ
    assert alt.hands[viewer] == m.hands[viewer]
    assert alt.view(viewer) == m.view(viewer)
    assert alt.view(None) == m.view(None)  # and a spectator cannot tell either


def test_view_holds_no_reference_to_state() -> None:
    """A view is a copy: later play does not change it, and it holds no other seat's hand."""
    m = Match(make_rules("callbreak"))
    rng = random.Random(5)
    _advance(m, rng, 12)
    view = m.view(2)
    frozen = repr(view)
    _advance(m, rng, 20)
    assert repr(view) == frozen
    others = {c for s in (0, 1, 3) for c in cards_of(m.dealt[s])} - set(view.played)
    assert not others & set(view.hand or ())
    assert not any(isinstance(getattr(view, f), Match) for f in view.__dataclass_fields__)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(rules=rules_strategy(), seed=st.integers(0, 2**32))
def test_match_caps_equal_infer_play_on_every_card(rules: Rules, seed: int) -> None:
    """The match only calls the public inference when a play can tell something; the caps it
    keeps must equal those from running ``infer_play`` on every single card played."""
    from callbreak.core.inference import fresh_caps, infer_play

    m = Match(rules)
    rng = random.Random(seed)
    caps = [fresh_caps() for _ in range(4)]
    deals = 0
    while not m.is_over and deals < 2:
        if m.phase is Phase.PLAY:
            seat, trick = m.turn, list(m.trick)
            trump = m.trump
            first = not m.tricks
            action = random_action(m, rng)
            infer_play(caps[seat], trick, action.card, trump, rules, first)  # type: ignore[union-attr]
            m.apply(action)
            if m.phase is Phase.PLAY:
                assert [list(c) for c in m.caps] == caps
            continue
        before = len(m.results)
        m.apply(random_action(m, rng))
        if m.phase is Phase.CALL or len(m.results) > before:
            caps = [fresh_caps() for _ in range(4)]
        if m.phase is Phase.PLAY and not m.tricks and not m.trick:
            caps = [list(c) for c in m.caps]  # side-off declarations are made at this point
        deals += len(m.results) > before


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(rules=rules_strategy(), seed=st.integers(0, 2**32))
def test_match_short_paths_agree_with_the_engine(rules: Rules, seed: int) -> None:
    """Call Break's own paths for listing and applying plays, calls and deals (the hottest of any
    search) give what the one engine's general ones give: the same actions for every seat, and
    the same state after each action."""
    from callbreak.core.trick_game import TrickGame

    m = Match(rules)
    rng = random.Random(seed)
    while not m.is_over and len(m.history) < 400:
        for seat in (None, CHANCE, 0, 1, 2, 3):
            assert m.legal_actions(seat) == TrickGame.legal_actions(m, seat)
        action = random_action(m, rng)
        general = m.clone()
        TrickGame.apply(general, action)
        m.apply(action)
        assert m.snapshot() == general.snapshot()
