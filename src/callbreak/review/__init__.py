"""Game review: the strongest bot that plays a game judges every decision of a finished one,
from the seat's view: the expert in Call Break, the search bot in the related games.

Each decision is judged only from what its seat could see at that moment (the game's view for
that seat, never the hidden hands): the expert's search values every legal card
(:meth:`~callbreak.bots.expert.ExpertBot.appraise`) and, for a call, simulates the deal from
this hand to get the distribution of tricks it takes and the expected score of each call
(:meth:`~callbreak.bots.expert.ExpertBot.call_outlook`). The points lost by a decision are
the best value less the chosen one's, and its class follows :data:`THRESHOLDS`.

Accuracy is the share of what was at stake that a seat kept: over its judged decisions, one
less the points it lost divided by the points a random legal choice would have lost on average
(the best value less the mean of all legal choices' values), as a percentage, never below 0.
A random choice keeps 0% in expectation and a perfect one 100%, whatever the mix of
easy and hard decisions; the calibration on arena games of random, beginner, heuristic and
expert players is in benchmarks/RESULTS.md (``benchmarks/review_accuracy.py``). The old
figure, the share of decisions classed best or good, is kept as ``agreement``: it hardly tells
play apart, since most cards in a deal cost nothing whichever is played.

Units: a card's value is the seat's expected deal points less its opponents' mean (what the
expert plays for, judged on the deal's score alone, also on a match's last deal, so that a
point means the same everywhere); a call's value is the expected deal points of that call.
Both in points.

Reproducible: each decision is searched with a fixed number of sampled deals and its own seed
derived from ``seed`` and the decision's place in the record, so the same record, seed and
settings give the same review, on a busy machine as on an idle one.

The related games (Batak Ihaleli, Batak Koz Maca, Donut, Horsethief, Snarples: every
:class:`~callbreak.games.base.ContractGame`) are judged by their search bot
(:meth:`~callbreak.bots.games_bots.GameSearchBot.appraise`): each choice (a card, a bid or a pass,
a trump, in or out, an exchange) is played out to the end of the hand over deals the others could
hold, the same deals for every choice, and is worth the hand's points for the seat less the
others' mean (a race-down game's points come down: its sign is flipped, so more is better). Its
search is pure Python, so it looks at fewer deals (:func:`trick_game_samples`). A bid, a trump,
in or out and an exchange count as calls in the summary, cards as cards.

A game no search bot plays (one registered by a plug-in that is not a trick game) is refused
with :class:`ReviewUnavailable`.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any, cast

from callbreak.core.actions import (
    CHANCE,
    Bid,
    Call,
    Exchange,
    Join,
    Look,
    NameTrump,
    Pass,
    Play,
    Redeal,
    Settle,
)
from callbreak.core.cards import Card, Suit
from callbreak.core.errors import CallbreakError
from callbreak.core.scoring import expected_deal_points
from callbreak.core.view import SeatView
from callbreak.core.words import N_  # (the one marker the catalog tools read)
from callbreak.games import game_info
from callbreak.games.base import ContractView
from callbreak.i18n import DEFAULT, gettext_for, native_digits
from callbreak.i18n.cards import card_name, suit_name
from callbreak.i18n.seats import seat_names
from callbreak.record import Record, loads, replay, replay_states, seat_label

__all__ = ["CLASSES", "accuracy", "assemble", "position_text", "pretty_card", "check_reviewable", "decisions_to_judge", "THRESHOLDS", "Decision", "Review", "ReviewError", "ReviewSettings",
           "ReviewUnavailable", "SeatSummary", "choice_text", "choice_words", "class_name", "classify", "judge_decision", "judge_for", "judge_of", "review_record",
           "review_text", "review_words", "trick_game_samples"]

# Points lost at most for each class (the first that holds): about a tenth of a point is
# within the search's own noise at the default settings; a point lost is a call made or broken.
THRESHOLDS: tuple[tuple[str, float], ...] = (
    ("best", 0.05), ("good", 0.25), ("inaccuracy", 0.6), ("mistake", 1.5),
)
CLASSES = ("best", "good", "inaccuracy", "mistake", "blunder")
FORMAT = "callbreak-review"
VERSION = 1


class ReviewError(CallbreakError, ValueError):
    """A review that cannot be made: the record is bad or the game is not finished."""


class ReviewUnavailable(ReviewError):
    """No search bot plays this game, so there is no one to judge its decisions."""


def classify(lost: float) -> str:
    """The class of a decision that lost ``lost`` points against the best one.

    >>> [classify(x) for x in (0.0, 0.1, 0.4, 1.0, 2.0)]
    ['best', 'good', 'inaccuracy', 'mistake', 'blunder']
    """
    for name, most in THRESHOLDS:
        if lost <= most:
            return name
    return "blunder"


@dataclass(frozen=True, slots=True, kw_only=True)
class ReviewSettings:
    """How hard the expert looks: sampled deals per card decision and per call decision, the
    seed, and a time limit per decision that only matters on a very slow machine."""

    samples: int = 384  # benchmarks/review_speed.py: a 5-deal game in a few seconds on 2 cores
    call_samples: int = 1536
    seed: int = 0
    budget: float = 30.0

    def scaled(self, factor: float) -> ReviewSettings:
        return ReviewSettings(samples=int(self.samples * factor),
                              call_samples=int(self.call_samples * factor),
                              seed=self.seed, budget=self.budget)


@dataclass(frozen=True, slots=True, kw_only=True)
class Decision:
    """One judged decision. ``values`` maps each legal choice (its text: ``AS``, ``call 3``) to
    its value in points; ``tricks`` is a call's distribution of tricks (empty for a card)."""

    index: int  # the action's place in the record
    deal: int
    trick: int  # 1..13 for a card, 0 for a call
    seat: int
    kind: str  # "call" or "play"
    chosen: str
    best: str
    value: float
    best_value: float
    lost: float
    label: str  # one of CLASSES, or "forced" (one legal choice) or "not judged"
    values: dict[str, float] = field(default_factory=dict)
    tricks: tuple[float, ...] = ()
    deals_searched: int = 0
    hand: tuple[str, ...] = ()  # the seat's cards before deciding (empty before it looked)
    trick_cards: tuple[str, ...] = ()  # the trick so far, in play order (a card's decision)
    trick_seats: tuple[int, ...] = ()  # who played each of them

    @property
    def better(self) -> str | None:
        """The choice to show as better, or None: only where the chosen one lost more than a
        best move's margin (a "best" decision is within the search's noise of the top value,
        so naming another choice as better would contradict its class)."""
        if self.label in ("best", "forced", "not judged") or self.best == self.chosen:
            return None
        return self.best

    @property
    def at_stake(self) -> float:
        """What a random legal choice loses here on average: the best value less the mean."""
        if self.label not in CLASSES or len(self.values) < 2:
            return 0.0
        return max(0.0, self.best_value - sum(self.values.values()) / len(self.values))

    def top_values(self, count: int = 3) -> list[tuple[str, float]]:
        """The ``count`` best choices with their values, and the chosen one if it is not among
        them (a call's line shows these, not all 13)."""
        ranked = sorted(self.values.items(), key=lambda kv: (-kv[1], kv[0]))
        top = ranked[:count]
        if self.chosen in self.values and all(k != self.chosen for k, _ in top):
            top.append((self.chosen, self.values[self.chosen]))
        return top


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatSummary:
    seat: int
    name: str
    judged: int
    accuracy: float  # percent of the points at stake kept (module docstring); random play ~15%
    lost: float
    counts: dict[str, int]
    agreement: float = 100.0  # percent of judged decisions classed best or good
    call_accuracy: float = 100.0
    card_accuracy: float = 100.0
    at_stake: float = 0.0  # points a random choice would have lost at the same decisions

    @property
    def label(self) -> str:
        """``Seat 2 · random``: two seats may have the same player."""
        return seat_label(self.seat, self.name)


def accuracy(decisions: Sequence[Decision]) -> float:
    """Percent of the points at stake that ``decisions`` kept (100 when nothing was at stake).

    >>> d = Decision(index=0, deal=1, trick=1, seat=0, kind="play", chosen="AS", best="AS",
    ...              value=1.0, best_value=1.0, lost=0.0, label="best",
    ...              values={"AS": 1.0, "2S": 0.0})
    >>> accuracy([d])
    100.0
    """
    stake = sum(d.at_stake for d in decisions)
    if stake <= 0:
        return 100.0
    lost = sum(d.lost for d in decisions if d.label in CLASSES)
    return round(max(0.0, 100.0 * (1 - lost / stake)), 1)


@dataclass(frozen=True, slots=True, kw_only=True)
class Review:
    game: str
    seats: tuple[str, ...]
    settings: ReviewSettings
    decisions: tuple[Decision, ...]
    record_digest: str  # sha256 of the record's JSON: the review is of this record
    judge: str = "expert"  # the bot that judged it: expert (Call Break) or search

    def summary(self, deal: int | None = None) -> tuple[SeatSummary, ...]:
        """Each seat's accuracy and points lost, over the match or one deal."""
        out = []
        for seat, name in enumerate(self.seats):
            mine = [d for d in self.decisions if d.seat == seat and d.label in CLASSES
                    and (deal is None or d.deal == deal)]
            counts = {c: sum(d.label == c for d in mine) for c in CLASSES}
            good = counts["best"] + counts["good"]
            out.append(SeatSummary(
                seat=seat, name=name, judged=len(mine), accuracy=accuracy(mine),
                agreement=round(100.0 * good / len(mine), 1) if mine else 100.0,
                call_accuracy=accuracy([d for d in mine if d.kind == "call"]),
                card_accuracy=accuracy([d for d in mine if d.kind == "play"]),
                at_stake=round(sum(d.at_stake for d in mine), 2),
                lost=round(sum(d.lost for d in mine), 2), counts=counts))
        return tuple(out)

    def key_moments(self, count: int = 5) -> tuple[Decision, ...]:
        """The decisions that lost the most, worst first (mistakes and blunders only)."""
        bad = [d for d in self.decisions if d.label in ("mistake", "blunder")]
        return tuple(sorted(bad, key=lambda d: (-d.lost, d.index))[:count])

    @property
    def deals(self) -> tuple[int, ...]:
        return tuple(sorted({d.deal for d in self.decisions}))

    @property
    def labels(self) -> tuple[str, ...]:
        """Every seat as ``Seat 2 · random`` (two seats may have the same player), or in a
        terminal game's review as the person saw it, ``North · Seat 3 · expert``."""
        return seat_names(self.seats)

    def deal_starts(self) -> list[tuple[int, int]]:
        """(deal, its first decision's place on :meth:`running_loss`'s x axis), for the chart."""
        out: list[tuple[int, int]] = []
        for i, d in enumerate(self.decisions):
            if not out or out[-1][0] != d.deal:
                out.append((d.deal, i))
        return out

    def running_loss(self) -> list[list[float]]:
        """Per seat, the points lost so far after each of the record's judged decisions (for the
        chart: the expected score a seat gave away over the game)."""
        totals = [0.0] * len(self.seats)
        series: list[list[float]] = [[0.0] for _ in self.seats]
        for d in self.decisions:
            if d.label in CLASSES:
                totals[d.seat] += d.lost
            for s in range(len(self.seats)):
                series[s].append(round(-totals[s], 3))
        return series

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT, "version": VERSION, "game": self.game, "title": _title(self.game),
            "judge": self.judge,
            "seats": list(self.seats),
            "settings": asdict(self.settings), "record_digest": self.record_digest,
            "thresholds": dict(THRESHOLDS),
            "labels": list(self.labels),
            "deal_starts": [i for _, i in self.deal_starts()],
            "decisions": [{**asdict(d), "tricks": list(d.tricks), "hand": list(d.hand),
                           "trick_cards": list(d.trick_cards), "trick_seats": list(d.trick_seats),
                           "better": d.better, "top": [list(kv) for kv in d.top_values()]}
                          for d in self.decisions],
            "summary": [{**asdict(s), "label": s.label} for s in self.summary()],
            "key_moments": [d.index for d in self.key_moments()],
        }

    @classmethod
    def from_json(cls, data: Any) -> Review:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ReviewError("not a review (format is not callbreak-review)")
        if data.get("version") != VERSION:
            raise ReviewError(f"review version {data.get('version')!r} is not {VERSION}")
        try:
            return cls(game=data["game"], seats=tuple(data["seats"]),
                       settings=ReviewSettings(**data["settings"]),
                       record_digest=data["record_digest"], judge=data.get("judge", "expert"),
                       decisions=tuple(_decision_from_json(d) for d in data["decisions"]))
        except (KeyError, TypeError) as e:
            raise ReviewError(f"a broken review: {e}") from None


_DERIVED = ("better", "top")  # written for readers of the JSON, computed again on reading


def _title(game: str) -> str:
    try:
        return game_info(game).title
    except CallbreakError:  # a review of a game no longer registered still reads
        return game


def _decision_from_json(d: dict[str, Any]) -> Decision:
    fields = {k: v for k, v in d.items() if k not in _DERIVED}
    for key in ("tricks", "hand", "trick_cards", "trick_seats"):
        fields[key] = tuple(fields.get(key, ()))
    return Decision(**fields)


def _digest(record: Record) -> str:
    body = {k: v for k, v in record.to_json().items() if k != "meta"}
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()


def _decision_seed(seed: int, index: int) -> int:
    return int.from_bytes(hashlib.sha256(f"{seed}:{index}".encode()).digest()[:4], "big")


def choice_text(action: Any) -> str:
    """A choice as the review names it: unique among one decision's legal choices.

    >>> from callbreak.core.cards import Card, Suit
    >>> [choice_text(a) for a in (Play(0, Card.parse("QH")), Call(0, 3, blind=True), Bid(1, 5),
    ...                           NameTrump(1, Suit.HEARTS), Exchange(2, (Card.parse("2C"),)))]
    ['QH', 'blind call 3', 'bid 5', 'trump ♥', 'exchange 2C']
    """
    if isinstance(action, Play):
        return str(action.card)
    if isinstance(action, Call):
        return f"{'blind ' if action.blind else ''}call {action.tricks}"
    if isinstance(action, Bid):
        return f"bid {action.tricks}"
    if isinstance(action, Pass):
        return "pass"
    if isinstance(action, NameTrump):
        return f"trump {action.suit.symbol}"
    if isinstance(action, Join):
        return "play the hand" if action.playing else "sit out"
    if isinstance(action, Exchange):
        return f"exchange {' '.join(str(c) for c in action.cards)}" if action.cards else "keep the hand"
    if isinstance(action, Settle):
        return "give the others 5" if action.penalize_others else "take -5"
    if isinstance(action, Redeal):
        return "claim a redeal" if action.claim else "keep the hand"
    if isinstance(action, Look):
        return "look"
    return type(action).__name__.lower()


JUDGES = ("expert", "search")
"""The bots that can judge a decision, strongest first: the expert (Call Break), the related
trick games' search."""


def judge_for(game: str) -> str | None:
    """The strongest judge that plays ``game`` (asked of the bots: each says which games it
    plays), None for a game none of them plays (no review).

    >>> judge_for("callbreak"), judge_for("call-bridge"), judge_for("donut")
    ('expert', 'expert', 'search')
    """
    from callbreak.bots import plays

    return next((judge for judge in JUDGES if plays(judge, game)), None)


def judge_of(record: Record) -> str | None:
    """The bot that judges ``record``'s game (:func:`judge_for`)."""
    return judge_for(record.game)


def check_reviewable(record: Record) -> None:
    """Raise :class:`ReviewUnavailable` or :class:`ReviewError` if ``record`` cannot be reviewed."""
    if judge_of(record) is None:
        raise ReviewUnavailable(f"a review is not available for {record.title}: no search bot "
                                "plays it (the expert plays Call Break, the search bot the "
                                "related trick games)")


def decisions_to_judge(record: Record) -> Iterator[tuple[int, Any, Any]]:
    """Each seat decision of the record: its index, the seat's view just before it, the action."""
    states = replay_states(record)
    before = next(states)
    for i, (action, after) in enumerate(zip(record.actions, states, strict=True)):
        seat = before.to_act
        if seat is not None and seat != CHANCE:
            yield i, before.view(seat), action
        before = after
    if not before.is_over:
        raise ReviewError("the game is not finished: a review judges a whole game, so finish "
                          "it (or resume it) first")


def review_record(record: Record | str | bytes, settings: ReviewSettings | None = None,
                  progress: Callable[[int, int], None] | None = None, workers: int = 1) -> Review:
    """Review a finished record (a :class:`Record`, or its JSON text). ``progress(done, total)``
    is called after each decision; ``workers`` > 1 judges decisions in that many processes
    (the same review)."""
    from callbreak.bots.expert import ExpertBot

    if not isinstance(record, Record):
        record = loads(record)
    settings = settings or ReviewSettings()
    check_reviewable(record)
    if not replay(record).is_over:
        raise ReviewError("the game is not finished: a review judges a whole game, so finish "
                          "it (or resume it) first")
    todo = list(decisions_to_judge(record))
    out: list[Decision] = []
    if workers > 1:
        # Each decision has its own seed, so the order the workers finish in changes nothing.
        with ProcessPoolExecutor(workers) as pool:
            futures = [pool.submit(judge_decision, i, v, a, settings) for i, v, a in todo]
            for n, future in enumerate(futures):
                out.append(future.result())
                if progress is not None:
                    progress(n + 1, len(todo))
    else:
        for n, (index, view, action) in enumerate(todo):
            out.append(judge_decision(index, view, action, settings, ExpertBot))
            if progress is not None:
                progress(n + 1, len(todo))
    return assemble(record, settings, out)


def assemble(record: Record, settings: ReviewSettings, decisions: Sequence[Decision]) -> Review:
    """The review of ``record`` from its judged decisions (in the record's order)."""
    return Review(game=record.game, seats=tuple(record.seats), settings=settings,
                  decisions=tuple(sorted(decisions, key=lambda d: d.index)),
                  record_digest=_digest(record), judge=judge_of(record) or "expert")


def judge_decision(index: int, view: SeatView | ContractView, action: Any, settings: ReviewSettings,
                   expert: Any = None) -> Decision:
    """Judge one seat's decision (``action``, the record's ``index``-th) from its ``view`` alone,
    by the strongest judge of its game (:func:`judge_for`): the expert in Call Break, else the
    related games' search."""
    if judge_for(view.game) != "expert":
        return _judge_trick_game(index, cast(ContractView, view), action, settings)
    view = cast(SeatView, view)  # the expert plays Call Break alone
    if expert is None:
        from callbreak.bots.expert import ExpertBot as expert
    seat = view.seat
    assert seat is not None
    trick = len(view.tricks) + 1 if isinstance(action, Play) else 0
    base: dict[str, Any] = dict(index=index, deal=view.deal_number, trick=trick, seat=seat,
                chosen=choice_text(action), hand=_hand_text(view.hand))
    if isinstance(action, Play):
        base.update(trick_cards=tuple(str(c) for c in view.trick), trick_seats=view.trick_seats)
    legal = view.legal
    if len(legal) < 2:
        return Decision(**base, kind="play" if isinstance(action, Play) else "call",
                        best=base["chosen"], value=0.0, best_value=0.0, lost=0.0, label="forced")
    seed = _decision_seed(settings.seed, index)
    if isinstance(action, Play):
        bot = expert(samples=settings.samples, seed=seed, settle=0, match_weight=0)
        appraisal = bot.appraise(view, settings.budget)
        values = {str(p.card): round(v, 3) for p, v in zip(appraisal.plays, appraisal.values, strict=True)}
        return _judged(base, "play", values, str(action.card), (), appraisal.deals)
    if isinstance(action, Call) and not action.blind and view.hand is not None:
        bot = expert(samples=settings.call_samples, seed=seed)
        tricks, deals = bot.call_outlook(view, settings.budget)
        partner = view.calls[(seat + 2) % 4] if view.rules.partnership else None
        values = {}
        for a in legal:
            if isinstance(a, Call) and not a.blind:
                total = a.tricks + (partner or 0)
                ev = expected_deal_points(total, tricks, view.rules)
                values[choice_text(a)] = round(ev / 10, 3)
        return _judged(base, "call", values, choice_text(action), tricks, deals)
    if view.hand is None and any(isinstance(a, Call) and a.blind for a in legal):
        return _judge_blind(base, view, action, settings, seed, expert)
    # Redeal claims are match-situation gambles the expert does not value.
    return Decision(**base, kind="call", best=base["chosen"], value=0.0, best_value=0.0, lost=0.0,
                    label="not judged")


def trick_game_samples(settings: ReviewSettings) -> tuple[int, int]:
    """Deals the related games' search plays out per card and per other decision: a twelfth of
    the expert's card samples and a twenty-fourth of its call samples (32 and 64 at the
    defaults), since each of its playouts is pure Python (a whole Batak Koz Maca hand judged at
    those counts takes about 4 s on one core).

    >>> trick_game_samples(ReviewSettings())
    (32, 64)
    """
    return max(4, settings.samples // 12), max(4, settings.call_samples // 24)


MAX_CHOICES = 40  # more legal choices (a big exchange) than this: the search's candidates


def _judge_trick_game(index: int, view: ContractView, action: Any, settings: ReviewSettings) -> Decision:
    """A related game's decision judged by its search bot (:func:`judge_decision`)."""
    from callbreak.bots.games_bots import GameSearchBot

    seat = view.seat
    assert seat is not None
    play = isinstance(action, Play)
    base: dict[str, Any] = dict(index=index, deal=view.deal_number, trick=len(view.tricks) + 1 if play else 0,
                                seat=seat, chosen=choice_text(action), hand=_hand_text(view.hand))
    if play:
        base.update(trick_cards=tuple(str(c) for c in view.trick), trick_seats=view.trick_seats)
    kind = "play" if play else "call"
    legal = list(view.legal)
    if len(legal) < 2:
        return Decision(**base, kind=kind, best=base["chosen"], value=0.0, best_value=0.0, lost=0.0,
                        label="forced")
    bot = GameSearchBot(seed=_decision_seed(settings.seed, index))
    if len(legal) > MAX_CHOICES:
        bot.max_candidates = MAX_CHOICES - 1
        legal = [*bot.candidates(view)]
        if action not in legal:
            legal.append(action)
    cards, others = trick_game_samples(settings)
    values, deals = bot.appraise(view, legal, cards if play else others, settings.budget)
    scored = {choice_text(a): round(v, 3) for a, v in zip(legal, values, strict=True)}
    return _judged(base, kind, scored, base["chosen"], (), deals)


BLIND_HANDS = 8  # hands the seat might hold, sampled to judge a call made before looking


def _judge_blind(base: dict[str, Any], view: SeatView, action: Any, settings: ReviewSettings,
                 seed: int, expert: Any) -> Decision:
    """A choice made before looking (a blind call, a call unseen, or looking first) judged on
    the hands the seat might hold: for each of :data:`BLIND_HANDS` sampled hands the expert
    simulates the deal as for a call; a call is worth its expected score over those hands
    (doubled if blind), looking first the expected score of the best call made after seeing
    each hand."""
    import dataclasses
    import random

    rng = random.Random(seed)
    seen = {c for t in view.tricks for c in t.cards} | set(view.trick)
    unseen = [Card(i) for i in range(52) if Card(i) not in seen]
    calls = [a for a in view.legal if isinstance(a, Call)]  # blind, or unseen but not doubled
    seat = view.seat
    assert seat is not None
    normal = tuple(Call(seat, k) for k in range(view.rules.min_call, view.rules.max_call + 1))
    call_values = {a: 0.0 for a in calls}
    look_value, deals = 0.0, 0
    tricks_sum: list[float] = []
    per_hand = max(1, settings.call_samples // 4)
    for h in range(BLIND_HANDS):
        hand = tuple(sorted(rng.sample(unseen, 13)))
        seen_view = dataclasses.replace(view, hand=hand, legal=normal)
        bot = expert(samples=per_hand, seed=seed + h)
        tricks, n = bot.call_outlook(seen_view, settings.budget)
        deals += n
        tricks_sum += [0.0] * (len(tricks) - len(tricks_sum))
        for w, p in enumerate(tricks):
            tricks_sum[w] += p / BLIND_HANDS
        for a in call_values:
            call_values[a] += expected_deal_points(a.tricks, tricks, view.rules, blind=a.blind) / 10 / BLIND_HANDS
        look_value += max(expected_deal_points(a.tricks, tricks, view.rules) for a in normal) / 10 / BLIND_HANDS
    values = {choice_text(a): round(v, 3) for a, v in call_values.items()}
    if any(a.kind == "look" for a in view.legal):
        values["look"] = round(look_value, 3)
    chosen = choice_text(action)
    while tricks_sum and tricks_sum[-1] == 0:
        tricks_sum.pop()
    return _judged(base, "call", values, chosen, tuple(tricks_sum), deals)


def _hand_text(hand: Any) -> tuple[str, ...]:
    """A hand as card texts, by suit (spades first) and from the highest card down."""
    if hand is None:
        return ()
    return tuple(str(c) for c in sorted(hand, key=lambda c: (c.suit, -c.rank)))


def _judged(base: dict[str, Any], kind: str, values: dict[str, float], chosen: str,
            tricks: tuple[float, ...], deals: int) -> Decision:
    best = max(values, key=lambda k: (values[k], k))
    lost = round(max(0.0, values[best] - values[chosen]), 3)
    return Decision(**base, kind=kind, best=best, value=values[chosen], best_value=values[best],
                    lost=lost, label=classify(lost), values=values,
                    tricks=tuple(round(p, 4) for p in tricks), deals_searched=deals)


# --- the review in words, in any of the languages (callbreak.i18n) -------------------------------

DOMAIN = "review"



_CLASS_NAMES = {"best": N_("best"), "good": N_("good"), "inaccuracy": N_("inaccuracy"),
                "mistake": N_("mistake"), "blunder": N_("blunder"), "forced": N_("forced"),
                "not judged": N_("not judged")}


def class_name(label: str, lang: str = DEFAULT) -> str:
    """A decision's class as a person reads it in ``lang`` (``mistake``, ``गल्ती``).

    >>> class_name("blunder"), class_name("best", "hi")
    ('blunder', 'सबसे अच्छी')
    """
    return gettext_for(lang, DOMAIN)(_CLASS_NAMES[label]) if label in _CLASS_NAMES else label


def _amount(value: float, lang: str, places: int = 2) -> str:
    """``value`` with ``places`` decimals, in ``lang``'s digits (``1.25``, ``१.२५``)."""
    return native_digits(f"{value:.{places}f}", lang)


def choice_words(text: str, lang: str = DEFAULT) -> str:
    """A choice's text (:func:`choice_text`: ``QH``, ``blind call 3``, ``trump ♥``) as ``lang``
    says it (``पानको बेगम``, ``ब्लाइन्ड कल ३``); English keeps the text itself.

    >>> choice_words("call 3", "ne"), choice_words("KS", "bn"), choice_words("KS")
    ('कल ३', 'ইস্কাপনের সাহেব', 'KS')
    """
    if lang == DEFAULT:
        return text
    _ = gettext_for(lang, DOMAIN)
    head, _sep, rest = text.rpartition(" ")
    if head in ("call", "blind call", "bid") and rest.isdigit():
        message = {"call": N_("call {number}"), "blind call": N_("blind call {number}"),
                   "bid": N_("bid {number}")}[head]
        return _(message).format(number=native_digits(rest, lang))
    if text.startswith("trump "):
        suit = next((s for s in Suit if s.symbol == text.removeprefix("trump ")), None)
        if suit is not None:
            return _("trump {suit}").format(suit=suit_name(suit, lang))
    if text.startswith("exchange "):
        cards = [choice_words(c, lang) for c in text.removeprefix("exchange ").split()]
        return _("exchange {cards}").format(cards=", ".join(cards))
    fixed = {"pass": N_("pass"), "play the hand": N_("play the hand"), "sit out": N_("sit out"),
             "keep the hand": N_("keep the hand"), "give the others 5": N_("give the others 5"),
             "take -5": N_("take -5"), "claim a redeal": N_("claim a redeal"), "look": N_("look")}
    if text in fixed:
        return _(fixed[text])
    try:
        return card_name(Card.parse(text), lang)
    except CallbreakError:
        return text


def review_text(review: Review, lang: str = DEFAULT) -> Iterator[str]:
    """A short plain account: each seat's accuracy and the key moments, each with its position,
    in ``lang``."""
    _ = gettext_for(lang, DOMAIN)
    labels = seat_names(review.seats, lang)
    for s in review.summary():
        yield _("{seat}: accuracy {accuracy}% (calls {calls}%, cards {cards}%), {lost} points lost "
                "of {stake} at stake").format(
            seat=labels[s.seat], accuracy=_amount(s.accuracy, lang, 0),
            calls=_amount(s.call_accuracy, lang, 0), cards=_amount(s.card_accuracy, lang, 0),
            lost=_amount(s.lost, lang), stake=_amount(s.at_stake, lang))
    for d in review.key_moments():
        fill = dict(deal=native_digits(str(d.deal), lang), trick=native_digits(str(d.trick), lang),
                    seat=labels[d.seat], choice=choice_words(d.chosen, lang),
                    label=class_name(d.label, lang), lost=_amount(d.lost, lang))
        if d.kind == "play":
            line = _("deal {deal} trick {trick}: {seat} played {choice} ({label}, -{lost})")
        else:
            line = _("deal {deal} call: {seat} chose {choice} ({label}, -{lost})")
        better = _("; {choice} was better").format(choice=choice_words(d.better, lang)) if d.better else ""
        yield line.format(**fill) + better
        yield f"  {position_text(d, labels, lang)}"


def review_words(review: Review, lang: str = DEFAULT) -> dict[str, Any]:
    """Everything a review page shows in words, in ``lang``, beside the review's JSON (which
    keeps its English keys: ``label``, ``chosen``): the seats, each class, and for each decision
    (in the review's order) its class, choice, better choice and position."""
    labels = seat_names(review.seats, lang)
    return {
        "lang": lang, "labels": labels,
        "classes": {label: class_name(label, lang) for label in _CLASS_NAMES},
        "account": list(review_text(review, lang)),
        "decisions": [{"index": d.index, "label": class_name(d.label, lang),
                       "chosen": choice_words(d.chosen, lang),
                       "better": choice_words(d.better, lang) if d.better else None,
                       "position": position_text(d, labels, lang)} for d in review.decisions],
    }


def pretty_card(text: str) -> str:
    """A card's text with its suit symbol (``QH`` -> ``Q♥``); anything else as it is."""
    try:
        return Card.parse(text).pretty
    except CallbreakError:
        return text


def position_text(d: Decision, labels: Sequence[str] | None = None, lang: str = DEFAULT) -> str:
    """Where a decision was made: the trick so far (or that it led) and the hand, in ``lang``
    (the cards as printed on them: ``Q♥``).

    >>> d = Decision(index=9, deal=1, trick=2, seat=1, kind="play", chosen="KH", best="AH",
    ...              value=0.0, best_value=1.0, lost=1.0, label="mistake",
    ...              hand=("AH", "KH", "2C"), trick_cards=("QH",), trick_seats=(0,))
    >>> position_text(d)
    'trick so far: Seat 1 Q♥; hand: A♥ K♥ 2♣'
    """
    _ = gettext_for(lang, DOMAIN)
    hand = (_("hand: {cards}").format(cards=" ".join(map(pretty_card, d.hand))) if d.hand
            else _("hand not looked at"))
    if d.kind != "play":
        return hand
    if not d.trick_cards:
        return _("leads; {hand}").format(hand=hand)
    played = ", ".join(_("Seat {number}").format(number=native_digits(str(s + 1), lang))
                       + f" {pretty_card(c)}" for s, c in zip(d.trick_seats, d.trick_cards, strict=True))
    return _("trick so far: {cards}; {hand}").format(cards=played, hand=hand)
