"""The expert's memory (issue 53): what it reads of the other players carries from deal to deal
of a game, and a bot built again and handed that memory (as a web table does for every decision,
and another process after a crash) decides exactly as one bot kept for the whole game."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from callbreak.bots import Remembers, make_bot
from callbreak.bots.expert import ExpertBot
from callbreak.bots.reading import carry
from callbreak.core import CHANCE, Dealer, Match, make_rules

SPEC = "expert:samples=16"  # a set number of samples: the decisions do not depend on the clock
BUDGET = 30.0  # seconds: ample for the samples on a busy machine (the budget only stops a search)

Memory = dict[str, Any]


def two_deals(seed: int, bot_for: Callable[[int, int], ExpertBot]) -> tuple[list[Any], list[tuple[int, int, Memory]]]:
    """Four experts play two deals; ``bot_for(seat, seed)`` gives the bot for each decision.
    The actions, and after each decision (seat, deal, the bot's memory)."""
    rng = random.Random(seed)
    match = Match(make_rules("callbreak"))
    actions: list[Any] = []
    memories: list[tuple[int, int, Memory]] = []
    while len(match.results) < 2:
        seat = match.to_act
        assert seat is not None
        if seat == CHANCE:
            match.apply(Dealer(rng.getrandbits(32)).chance(match))
            continue
        view = match.view(seat)
        bot = bot_for(seat, rng.getrandbits(32))
        action = bot.decide(view, BUDGET).action
        memories.append((seat, view.deal_number, bot.memory()))
        actions.append(action)
        match.apply(action)
    return actions, memories


def kept_for_the_game() -> Callable[[int, int], ExpertBot]:
    """One bot a seat for the whole game (the arena's way), seeded again for each decision."""
    bots: dict[int, ExpertBot] = {}

    def bot_for(seat: int, seed: int) -> ExpertBot:
        bot = bots.setdefault(seat, make_bot(SPEC))  # type: ignore[arg-type]
        bot.rng.seed(seed)
        return bot
    return bot_for


def built_each_time(through: Callable[[Memory], Memory]) -> Callable[[int, int], ExpertBot]:
    """A bot built for each decision (the web's way), given its seat's last memory ``through``
    a store: a JSON round trip, as a table resumed in another process reads it."""
    last: dict[int, ExpertBot] = {}

    def bot_for(seat: int, seed: int) -> ExpertBot:
        bot = make_bot(SPEC, seed=seed)
        assert isinstance(bot, ExpertBot) and isinstance(bot, Remembers)
        if seat in last:
            bot.recall(through(last[seat].memory()))
        last[seat] = bot
        return bot
    return bot_for


@pytest.mark.slow
def test_a_bot_built_again_with_its_memory_decides_as_one_kept_for_the_game() -> None:
    kept_actions, kept_memories = two_deals(7, kept_for_the_game())
    built_actions, built_memories = two_deals(7, built_each_time(lambda m: json.loads(json.dumps(m))))
    assert built_actions == kept_actions
    assert built_memories == kept_memories
    # What the memory carried: each seat starts deal 2 from its last reading of deal 1.
    for seat in range(4):
        mine = [(deal, m) for s, deal, m in built_memories if s == seat]
        end_of_first = next(m for deal, m in reversed(mine) if deal == 1)
        start_of_second = next(m for deal, m in mine if deal == 2)
        assert start_of_second["deal"] == 2 and len(start_of_second["prior"]) == 3, start_of_second
        assert start_of_second["prior"] == {s: [float(x) for x in carry(np.array(p))]
                                            for s, p in end_of_first["reading"].items()}
    # Without it, a bot built for each decision starts every deal knowing nothing.
    _, forgetful = two_deals(7, lambda seat, seed: make_bot(SPEC, seed=seed))  # type: ignore[arg-type,return-value]
    assert all(m["prior"] == {} for _, _, m in forgetful)


@pytest.mark.parametrize("memory", [
    {},
    {"deal": 1, "prior": {}},
    {"deal": 0, "prior": {}, "reading": {}},
    {"deal": "2", "prior": {}, "reading": {}},
    {"deal": 2, "prior": {"1": [0.25, 0.25, 0.5]}, "reading": {}},
    {"deal": 2, "prior": {"1": [0.25, 0.25, 0.25, float("nan")]}, "reading": {}},
    {"deal": 2, "prior": {"9": [0.25, 0.25, 0.25, 0.25]}, "reading": {}},
    {"deal": 2, "prior": {"x": [0.25, 0.25, 0.25, 0.25]}, "reading": {}},
    {"deal": 2, "prior": [], "reading": {}},
    ["deal", 2],
])
def test_recall_refuses_what_is_not_its_memory_and_keeps_its_own(memory: Any) -> None:
    bot = make_bot(SPEC, seed=1)
    assert isinstance(bot, ExpertBot)
    mine = {"deal": 3, "prior": {"1": [0.1, 0.2, 0.3, 0.4]}, "reading": {"2": [0.4, 0.3, 0.2, 0.1]}}
    bot.recall(mine)
    with pytest.raises(ValueError, match="not an expert's memory"):
        bot.recall(memory)
    assert bot.memory() == mine
