"""Every Call Break rule option is accounted for by the expert's compiled kernel.

``bots.kernel.options_array`` is written by hand from :class:`Rules`, so a rule option added
tomorrow could be silently ignored by the expert. This file states, for every field of ``Rules``,
how the kernel's bots honour it, and checks each claim: a field missing from the table (or a
table entry naming a field that no longer exists) fails the first test.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pytest

import callbreak.bots.expert as expert_module
import callbreak.core.scoring as scoring_module
from callbreak.bots import make_bot
from callbreak.bots.kernel import options_array
from callbreak.core import CHANCE, Call, Match, Rules, make_rules
from callbreak.core.dealing import Dealer

# How each option reaches the kernel's bots:
#   "kernel": the kernel's option array carries it (its rollouts and exact search obey it);
#   "scoring": the expert values calls and deals with core.scoring.deal_points under the view's
#              rules (its call table and playout values), so the engine's scoring is its scoring;
#   "view": the expert reads it from what the view shows (legal actions, trump, publicly known voids);
#   "match": it shapes the match around the deal (redeals, number of deals, dealer, timers, chips),
#            which the engine runs; the deal the expert searches is the same whatever it says.
HOW: dict[str, str] = {
    "follow_must_beat": "kernel",
    "void_rule": "kernel",
    "no_wasting_trumps": "kernel",
    "spade_lead_first_trick": "kernel",
    "partnership": "kernel",
    "min_call": "view",
    "max_call": "view",
    "blind_call": "view",
    "scoring": "scoring",
    "bonus_call": "scoring",
    "trump": "view",
    "side_off_declaration": "view",
    "redeal_weak_hand": "match",
    "redeal_one_suit_hand": "match",
    "min_call_total": "match",
    "deals": "match",
    "tie_break": "match",
    "first_dealer": "match",
    "dealer_rotation": "match",
    "turn_timer": "match",
    "stakes": "match",
}

# A value other than the default for each field (any value the rules accept).
OTHER: dict[str, Any] = {
    "follow_must_beat": False, "void_rule": "must_trump", "no_wasting_trumps": True,
    "spade_lead_first_trick": "forbidden", "partnership": True, "min_call": 2, "max_call": 8,
    "blind_call": True, "scoring": "at_least", "bonus_call": "8:13", "trump": "first_led",
    "side_off_declaration": True, "redeal_weak_hand": "no_spade", "redeal_one_suit_hand": True,
    "min_call_total": 10, "deals": 3, "tie_break": "extra_deal", "first_dealer": "draw_lowest",
    "dealer_rotation": "left", "turn_timer": 15, "stakes": "10:0.05",
}


def test_every_rule_option_is_accounted_for() -> None:
    fields = {f.name for f in dataclasses.fields(Rules)}
    assert set(HOW) == fields, f"account for: {sorted(fields - set(HOW))}; gone: {sorted(set(HOW) - fields)}"
    assert set(OTHER) == fields


@pytest.mark.parametrize("name", sorted(n for n, how in HOW.items() if how == "kernel"))
def test_kernel_options_reach_the_option_array(name: str) -> None:
    base = make_rules("callbreak")
    assert not np.array_equal(options_array(base), options_array(base.replace(**{name: OTHER[name]})))


@pytest.mark.parametrize("name", sorted(n for n, how in HOW.items() if how != "kernel"))
def test_other_options_leave_the_option_array_alone(name: str) -> None:
    # If one of these starts to matter inside the kernel, it must move to "kernel" above.
    base = make_rules("callbreak")
    assert np.array_equal(options_array(base), options_array(base.replace(**{name: OTHER[name]})))


def _calling_view(rules: Rules) -> Any:
    m = Match(rules)
    d = Dealer(11)
    while m.to_act == CHANCE or (m.to_act is not None and not any(isinstance(a, Call) for a in m.legal_actions())):
        m.apply(d.chance(m) if m.to_act == CHANCE else m.legal_actions()[0])
    return m.view(m.to_act)


@pytest.mark.parametrize("name", sorted(n for n, how in HOW.items() if how == "scoring"))
def test_scoring_options_reach_the_expert_through_the_engines_scoring(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    rules = make_rules("bhoos-tournament", **{name: OTHER[name]})
    seen: list[Rules] = []
    real = expert_module.deal_points

    def spy(call: int, won: int, r: Rules, **kw: Any) -> int:
        seen.append(r)
        return real(call, won, r, **kw)

    monkeypatch.setattr(expert_module, "deal_points", spy)
    monkeypatch.setattr(scoring_module, "deal_points", spy)  # expected_deal_points' own use
    make_bot("expert:samples=8,seed=1").decide(_calling_view(rules), 5.0)
    assert seen and all(r == rules for r in seen)


def test_call_range_and_blind_calls_reach_the_expert_through_the_legal_actions() -> None:
    rules = make_rules("callbreak", min_call=2, max_call=8)
    view = _calling_view(rules)
    decision = make_bot("expert:samples=8,seed=1").decide(view, 5.0)
    assert isinstance(decision.action, Call) and 2 <= decision.action.tricks <= 8
    assert decision.action in view.legal
