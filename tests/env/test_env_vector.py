"""The batched environment against the engine: on the same seeded deals, every observation,
legal mask, trick winner, reward and score equals what :class:`Match` gives, step for step."""

from __future__ import annotations

import numpy as np
import pytest

from callbreak.core.actions import Call, Deal, Stop
from callbreak.core.cards import cards_of
from callbreak.core.match import Match
from callbreak.core.rules import PRESETS
from callbreak.core.scoring import deal_points
from callbreak.env.vector import VectorEnv, start_match
from callbreak.games.spaces import CALLBREAK_FAMILY, LOOK, Encoder, MaskedActionError, action_mask, legal_ids

ENC = Encoder(CALLBREAK_FAMILY, 4)

CASES = [(p, {}) for p in PRESETS] + [
    ("callbreak", {"no_wasting_trumps": True}),
    ("callbreak", {"void_rule": "free", "side_off_declaration": True, "redeal_one_suit_hand": True}),
    ("nepal-traditional", {"redeal_weak_hand": "no_spade", "dealer_rotation": "left"}),
    ("callbreak", {"tie_break": "extra_deal", "scoring": "at_least", "bonus_call": "5:9"}),
]


def _feed(vec: VectorEnv, t: int, match: Match | None) -> Match:
    for kind, value in vec.chance_events(t):
        if kind == "dealer":
            assert match is None or match.is_over
            match = start_match(vec.rules, value)
        else:
            assert match is not None and match.to_act == -1
            match.apply(Deal(hands=tuple(cards_of(m) for m in value)))
    assert match is not None
    return match


@pytest.mark.parametrize("preset,options", CASES, ids=lambda v: str(v) if isinstance(v, str) else
                         ",".join(f"{k}={x}" for k, x in v.items()) or "-")
@pytest.mark.parametrize("reward", ["deal", "match"])
def test_the_batched_tables_follow_the_engine_step_for_step(preset: str, options: dict[str, object],
                                                             reward: str) -> None:
    extra = {} if PRESETS[preset].rules.deals is None and "deals" not in options else {"deals": 2}
    vec = VectorEnv(num_tables=6, preset=preset, seed=17, reward=reward, max_deals=2,
                    **options, **extra)
    vec.reset()
    matches = [_feed(vec, t, None) for t in range(vec.num_tables)]
    rng = np.random.default_rng(3)
    finished = tricks = 0
    for _ in range(260):
        for t, m in enumerate(matches):
            seat = m.to_act
            assert seat == vec.to_act[t]
            view = m.view(seat)
            assert np.array_equal(vec.mask[t], action_mask(view, 83))
            assert np.array_equal(vec.obs[t], ENC.encode(view))
            assert vec.totals[t].tolist() == m.totals
        actions = vec.sample_actions(rng)
        step = vec.step(actions)
        for t, m in enumerate(matches):
            scored, done_tricks = len(m.results), len(m.tricks)
            m.apply(legal_ids(m.view(m.to_act))[int(actions[t])])
            if vec.trick_winner[t] >= 0:
                tricks += 1
                assert m.tricks[-1].winner == vec.trick_winner[t]
            else:
                assert len(m.tricks) == done_tricks or m.phase.value != "play"  # none completed
            want = np.zeros(4)
            if reward == "deal" and len(m.results) > scored:
                want = np.array(m.results[-1].points) / 10
            if step.done[t]:
                finished += 1
                if not m.is_over:
                    m.apply(Stop())  # unlimited deals: the table stops after max_deals
                assert m.is_over
                assert vec.final_totals[t].tolist() == m.totals
                assert vec.winners[t] == sum(1 << s for s in m.winners)
                if reward == "match":
                    want = np.array([1 / len(m.winners) if s in m.winners else 0 for s in range(4)])
            assert np.allclose(step.rewards[t], want)
            matches[t] = _feed(vec, t, m)
    assert tricks > 100 and finished >= 1


def test_seeded_and_refuses_actions_outside_the_mask() -> None:
    a, b = VectorEnv(num_tables=4, seed=5), VectorEnv(num_tables=4, seed=5)
    oa, _ = a.reset()
    ob, _ = b.reset()
    assert np.array_equal(oa, ob)
    for _ in range(30):
        acts = a.sample_actions(9)
        sa, sb = a.step(acts), b.step(acts.copy())
        assert np.array_equal(sa.obs, sb.obs) and np.array_equal(sa.mask, sb.mask)
    assert not np.array_equal(VectorEnv(num_tables=4, seed=6).reset()[0], VectorEnv(num_tables=4, seed=5).reset()[0])
    before = a.state.copy()
    bad = a.sample_actions(1)
    bad[2] = int(np.flatnonzero(a.mask[2] == 0)[0])
    with pytest.raises(MaskedActionError, match=r"tables \[2\]"):
        a.step(bad)
    with pytest.raises(MaskedActionError):
        a.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(MaskedActionError):
        a.step(np.full(4, 1000))
    assert np.array_equal(a.state, before)


def test_blind_calls_are_offered_until_the_seat_looks_and_score_double() -> None:
    vec = VectorEnv(num_tables=3, preset="567", seed=2)
    obs, mask = vec.reset()
    hand = vec.encoder.blocks["hand"]
    looked = vec.encoder.offset("looked")
    assert (mask[:, 52 + 1:52 + 9] == 1).all() and (mask[:, 66 + 1:66 + 9] == 1).all()
    assert (mask[:, LOOK] == 1).all()
    assert obs[:, hand.offset:hand.offset + hand.size].sum() == 0 and (obs[:, looked] == 0).all()
    step = vec.step(np.full(3, LOOK))  # the same seats, now seeing their cards
    assert (step.obs[:, hand.offset:hand.offset + hand.size].sum(axis=1) == 13).all()
    assert (step.obs[:, looked] == 1).all() and step.mask[:, 66:81].sum() == 0
    table = VectorEnv(num_tables=1, preset="567", seed=4)
    table.reset()
    first = int(table.to_act[0])
    table.step(np.array([66 + 1]))  # a blind call of 1
    for _ in range(3):  # the others call 1 after looking
        table.step(np.array([LOOK]))
        table.step(np.array([52 + 1]))
    blind = table.encoder.offset("blind")
    assert table.obs[0, blind + (first - int(table.to_act[0])) % 4] == 1
    while True:  # play to the end of the deal, counting the tricks
        won = table.won[0].copy()
        step = table.step(table.sample_actions(1))
        if table.trick_winner[0] >= 0:
            won[table.trick_winner[0]] += 1
        if won.sum() == 13:
            break
    rules = table.rules
    for s in range(4):
        want = deal_points(1, int(won[s]), rules, blind=s == first) / 10
        assert step.rewards[0, s] == pytest.approx(want)
    assert deal_points(1, int(won[first]), rules, blind=True) == 2 * deal_points(1, int(won[first]), rules)
    assert Call(0, 3, True).blind
