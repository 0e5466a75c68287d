"""Rule options and named presets (in words: ``callbreak rules``, games/rules/callbreak.md).

Variants are data: one frozen :class:`Rules` value holds every option; presets are named values;
overrides are applied on top with :func:`make_rules`. Invalid values and combinations are refused
when the value is built, so a :class:`Rules` that exists is always playable.

>>> rules = make_rules("callbreak", max_call=8)
>>> rules.max_call, rules.scoring
(8, <Scoring.TENTHS: 'tenths'>)
>>> make_rules("callbreak", min_call=9, max_call=8)
Traceback (most recent call last):
...
callbreak.core.errors.RulesError: min_call (9) must not exceed max_call (8)
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from callbreak.core.errors import RulesError
from callbreak.core.options import Options


class VoidRule(str, Enum):
    """What a player who cannot follow suit must play."""

    TRUMP_IF_WINNING = "trump_if_winning"  # catsatcards, the Call Break app, pagat.com, the 567 platform
    MUST_TRUMP = "must_trump"  # Nepali house rules
    FREE = "free"  # a rare variant in the pagat.com rules


class SpadeLead(str, Enum):
    ALLOWED = "allowed"
    FORBIDDEN = "forbidden"  # no spade lead to the first trick (Nepali house rules, a pagat.com variant)


class Scoring(str, Enum):
    # call + 0.1 per overtrick, else -call (catsatcards, Nepali house rules, the 567 platform)
    TENTHS = "tenths"
    EXACT_OR_ONE_OVER = "exact_or_one_over"  # call or call+1 scores call (pagat.com)
    AT_LEAST = "at_least"  # won >= call scores call (the Call Break app rules)


class WeakHand(str, Enum):
    OFF = "off"
    NO_SPADE_OR_NO_FACE = "no_spade_or_no_face"  # catsatcards: the holder may claim a redeal
    NO_SPADE = "no_spade"  # a pagat.com variant, the Nepali house rules' misdeal: redealt automatically


class TieBreak(str, Enum):
    SHARED = "shared"
    EXTRA_DEAL = "extra_deal"  # Nepali house rules


class FirstDealer(str, Enum):
    RANDOM = "random"  # the 567 platform
    DRAW_LOWEST = "draw_lowest"  # catsatcards
    DRAW_HIGHEST = "draw_highest"  # Nepali house rules
    SEAT_0 = "seat_0"  # the public bot tournament: dealer of deal r is seat (r-1) mod 4


class Rotation(str, Enum):
    RIGHT = "right"  # same direction as play: next dealer is dealer + 1
    LEFT = "left"  # against play: next dealer is dealer - 1


class Trump(str, Enum):
    SPADES = "spades"
    # The Nepali house rules' "No-trump Call Break": the first card led in the deal sets trump.
    FIRST_LED = "first_led"


@dataclass(frozen=True, slots=True, kw_only=True)
class BonusCall:
    """A made call of ``threshold`` or more scores a flat ``points`` (pagat.com: 8 -> 13)."""

    threshold: int = 8
    points: int = 13


@dataclass(frozen=True, slots=True, kw_only=True)
class Stakes:
    """Chips each player puts in; winners share the losers' stakes less commission (the 567 platform)."""

    stake: int = 10
    commission: float = 0.05


@dataclass(frozen=True, slots=True, kw_only=True)
class Rules(Options):
    """Every rule option of Call Break's house rules. Defaults are the ``callbreak`` preset."""

    min_call: int = 1
    max_call: int = 13
    follow_must_beat: bool = True
    void_rule: VoidRule = VoidRule.TRUMP_IF_WINNING
    no_wasting_trumps: bool = False
    spade_lead_first_trick: SpadeLead = SpadeLead.ALLOWED
    scoring: Scoring = Scoring.TENTHS
    bonus_call: BonusCall | None = None
    blind_call: bool = False
    redeal_weak_hand: WeakHand = WeakHand.OFF
    redeal_one_suit_hand: bool = False
    min_call_total: int | None = None
    side_off_declaration: bool = False
    deals: int | None = 5  # None: unlimited, until the table stops
    tie_break: TieBreak = TieBreak.SHARED
    first_dealer: FirstDealer = FirstDealer.RANDOM
    dealer_rotation: Rotation = Rotation.RIGHT
    turn_timer: float | None = None  # seconds; the engine supplies the default action
    partnership: bool = False
    trump: Trump = Trump.SPADES
    stakes: Stakes | None = None

    def __post_init__(self) -> None:
        self.check_types()
        if not 1 <= self.min_call <= 13:
            raise RulesError(f"min_call must be 1..13, got {self.min_call}")
        if not 1 <= self.max_call <= 13:
            raise RulesError(f"max_call must be 1..13, got {self.max_call}")
        if self.min_call > self.max_call:
            raise RulesError(f"min_call ({self.min_call}) must not exceed max_call ({self.max_call})")
        if self.deals is not None and not 1 <= self.deals <= 100:
            raise RulesError(f"deals must be 1..100 or unlimited, got {self.deals}")
        if self.min_call_total is not None and not 4 * self.min_call < self.min_call_total <= 52:
            raise RulesError(
                f"min_call_total must be above 4 x min_call ({4 * self.min_call}) and at most 52, "
                f"got {self.min_call_total}")
        if self.min_call_total is not None and self.min_call_total > 4 * self.max_call:
            raise RulesError(f"min_call_total {self.min_call_total} can never be reached with "
                             f"max_call {self.max_call}")
        if self.bonus_call is not None:
            b = self.bonus_call
            if not self.min_call <= b.threshold <= 13 or b.points < 1:
                raise RulesError(f"bonus_call threshold must be {self.min_call}..13 and points "
                                 f"positive, got {b.threshold} -> {b.points}")
        if self.turn_timer is not None and not 1 <= self.turn_timer <= 600:
            raise RulesError(f"turn_timer must be 1..600 seconds, got {self.turn_timer}")
        if self.stakes is not None and (self.stakes.stake < 1 or not 0 <= self.stakes.commission < 1):
            raise RulesError("stakes need a positive stake and a commission in [0, 1)")
        # Combinations that contradict each other.
        if self.no_wasting_trumps and self.void_rule is VoidRule.MUST_TRUMP:
            raise RulesError("no_wasting_trumps contradicts void_rule=must_trump (must_trump obliges "
                             "a lower spade that no_wasting_trumps forbids)")
        if self.spade_lead_first_trick is SpadeLead.FORBIDDEN and self.trump is Trump.FIRST_LED:
            raise RulesError("spade_lead_first_trick=forbidden needs trump=spades: with trump="
                             "first_led spades are not trump")
        if self.blind_call and self.redeal_weak_hand is WeakHand.NO_SPADE_OR_NO_FACE:
            raise RulesError("blind_call cannot be combined with redeal_weak_hand="
                             "no_spade_or_no_face: a redeal claim needs every hand looked at")
        if self.blind_call and self.partnership:
            raise RulesError("blind_call cannot be combined with partnership: blind doubling is "
                             "per player and partnership scores the pair")

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed (values may be text, as from a command line)."""
        return make_rules(self, **changes)

    @classmethod
    def from_dict(cls, data: Any) -> Rules:
        """Inverse of :meth:`to_dict`; refuses unknown options."""
        if not isinstance(data, dict):
            raise RulesError(f"rules must be an object of options, got {type(data).__name__}")
        return make_rules(Rules(), **data)

    @property
    def deal_limit(self) -> int | None:
        """The deals a match has (None: unlimited, until the table stops); the options
        protocol's name for :attr:`deals`."""
        return self.deals

    @property
    def dealer_step(self) -> int:
        """To the right is the way Call Break is played: the next seat."""
        return 1 if self.dealer_rotation is Rotation.RIGHT else -1

    def with_deal_limit(self, deals: int) -> Rules:
        return self.replace(deals=deals)

    @property
    def call_range(self) -> range:
        return range(self.min_call, self.max_call + 1)


@dataclass(frozen=True, slots=True)
class Preset:
    """A named rule set: ``name`` is what is typed (``--preset 567``), ``title`` what a player
    reads in a list."""

    name: str
    title: str
    description: str
    rules: Rules = field(repr=False)


def make_rules(base: str | Rules = "callbreak", **overrides: Any) -> Rules:
    """Rules from a preset name (or a Rules value) with options overridden.

    Raises :class:`RulesError` naming the unknown preset, unknown option, bad value or bad combination.
    """
    if isinstance(base, str):
        rules = preset(base).rules
    else:
        rules = base
    if not overrides:
        return rules
    return Rules.build(overrides, base=rules)


_CB = Rules()

PRESETS: dict[str, Preset] = {
    p.name: p
    for p in (
        Preset("callbreak", title="Call Break",
               description="Modern Nepali Call Break (catsatcards, Nepali house rules, the 567 "
                           "platform): calls 1-13, must beat, tenths, 5 deals",
               rules=_CB),
        Preset("nepal-traditional", title="Nepali house rules",
               description="The Nepali house rules as written: calls 2-13, must trump when void, no "
                           "spade lead to trick 1, ties broken by an extra deal",
               rules=dataclasses.replace(_CB, min_call=2, void_rule=VoidRule.MUST_TRUMP,
                                         spade_lead_first_trick=SpadeLead.FORBIDDEN,
                                         tie_break=TieBreak.EXTRA_DEAL,
                                         first_dealer=FirstDealer.DRAW_HIGHEST)),
        Preset("catsatcards", title="Catsatcards Call Break",
               description="The catsatcards rules as written: weak-hand redeal claims, calls "
                           "totalling under 8 redealt, lowest draw deals",
               rules=dataclasses.replace(_CB, redeal_weak_hand=WeakHand.NO_SPADE_OR_NO_FACE,
                                         min_call_total=8, first_dealer=FirstDealer.DRAW_LOWEST,
                                         dealer_rotation=Rotation.LEFT)),
        Preset("call-bridge", title="Call Bridge (pagat.com)",
               description="The pagat.com rules (Bangladesh): calls 2-12, follow freely, call or "
                           "one over scores, 8+ scores 13, no fixed end",
               rules=dataclasses.replace(_CB, min_call=2, max_call=12, follow_must_beat=False,
                                         scoring=Scoring.EXACT_OR_ONE_OVER, bonus_call=BonusCall(),
                                         deals=None)),
        Preset("call-bridge-simple", title="Call Bridge, simple (pagat.com)",
               description="The pagat.com rules' common variant: calls 2-8, at least the call "
                           "scores, 8 scores 13, calls under 10 redealt, no spade lead to trick 1",
               rules=dataclasses.replace(_CB, min_call=2, max_call=8, follow_must_beat=False,
                                         scoring=Scoring.AT_LEAST, bonus_call=BonusCall(),
                                         min_call_total=10, spade_lead_first_trick=SpadeLead.FORBIDDEN,
                                         deals=None)),
        Preset("567", title="567 platform",
               description="The 567 platform's rules: calls 1-8, blind calls doubled, turn timer "
                           "plays the biggest card, chip stakes with 5% commission",
               rules=dataclasses.replace(_CB, max_call=8, blind_call=True, turn_timer=15.0,
                                         stakes=Stakes())),
        Preset("bhoos-tournament", title="Public bot tournament",
               description="The public bot tournament's rules: calls 1-8, tenths, 5 deals, "
                           "dealer of deal r is seat (r-1) mod 4",
               rules=dataclasses.replace(_CB, max_call=8, first_dealer=FirstDealer.SEAT_0)),
        Preset("partnership", title="Partnership",
               description="A Nepali house rules variation: partners sit opposite and score their "
                           "summed calls against their summed tricks",
               rules=dataclasses.replace(_CB, partnership=True)),
        Preset("no-trump", title="No-trump",
               description="A Nepali house rules variation: no permanent trump; the first card led "
                           "in a deal sets trump for that deal",
               rules=dataclasses.replace(_CB, trump=Trump.FIRST_LED)),
    )
}


def preset(name: str) -> Preset:
    """Look up a preset by name; the error lists the names that exist."""
    try:
        return PRESETS[name]
    except KeyError:
        raise RulesError(f"unknown preset {name!r}; presets are: {', '.join(PRESETS)}") from None
