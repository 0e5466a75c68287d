"""Public inference: what a play tells every seat about the player's remaining cards.

The facts used are public (the trick so far, the rules, the card played), so anyone who watched
the play can compute them: the match state keeps them for its views, and the bot-tournament
protocol rebuilds them from a request's history. A seat's "caps" hold, per suit, the highest card
index the seat may still hold; a cap below the suit's lowest card means the seat is void in it.

>>> from callbreak.core.cards import parse_cards
>>> from callbreak.core.rules import make_rules
>>> caps = fresh_caps()
>>> lead, follow = parse_cards("KH 3C")
>>> infer_play(caps, [lead], follow, trump=0, rules=make_rules("callbreak"), first_trick=False)
>>> caps[1] < 13  # showed void in hearts
True
"""

from __future__ import annotations

from collections.abc import Sequence

from callbreak.core.rules import Rules, SpadeLead, VoidRule


def fresh_caps() -> list[int]:
    """Caps of a seat nothing is known about yet: any card of any suit."""
    return [s * 13 + 12 for s in range(4)]


def infer_play(caps: list[int], trick: Sequence[int], card: int, trump: int, rules: Rules,
               first_trick: bool) -> None:
    """Narrow ``caps`` (one seat's, changed in place) after that seat plays ``card`` to ``trick``.

    ``trick`` holds the cards played before ``card``; ``trump`` is the trump suit or a negative
    number when there is none yet; ``first_trick`` says whether this is the deal's first trick.
    """
    cs = card // 13
    if not trick:
        if first_trick and rules.spade_lead_first_trick is SpadeLead.FORBIDDEN and cs == 0:
            for s in (1, 2, 3):  # led a spade to trick 1: holds nothing else
                caps[s] = s * 13 - 1
        return
    ls = trick[0] // 13
    hi_lead, hi_trump = trick[0], -1
    for c in trick:
        if c // 13 == ls and c > hi_lead:
            hi_lead = c
        if c // 13 == trump and c > hi_trump:
            hi_trump = c
    trumped = ls != trump and hi_trump >= 0
    if cs == ls:
        if rules.follow_must_beat and not trumped and card < hi_lead:
            caps[ls] = min(caps[ls], hi_lead)
        return
    caps[ls] = ls * 13 - 1  # shown void in the led suit
    if trump < 0 or ls == trump:
        return
    rule = rules.void_rule
    if cs == trump:
        if trumped and card < hi_trump:  # a losing trump
            if rule is not VoidRule.FREE:
                caps[trump] = min(caps[trump], hi_trump)
            # Under ``free`` a seat able to overtrump may still underplay a spade, so only
            # ``trump_if_winning`` makes an underplayed spade mean "holds nothing else".
            if rules.no_wasting_trumps and rule is VoidRule.TRUMP_IF_WINNING:
                for s in range(4):
                    if s != trump:
                        caps[s] = s * 13 - 1
        return
    if rule is VoidRule.MUST_TRUMP or (rule is VoidRule.TRUMP_IF_WINNING and not trumped):
        caps[trump] = trump * 13 - 1
    elif rule is VoidRule.TRUMP_IF_WINNING:
        caps[trump] = min(caps[trump], hi_trump)
