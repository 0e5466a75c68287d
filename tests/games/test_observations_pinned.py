"""The observations every game's encoding gives, pinned (issue 31: each game owns its encoding).

For every registered game at every seat count and every Call Break preset: two deals of a seeded
random playout, every seat's observation tensor and legal action ids at every step, hashed. The
digests were taken on 43fc602 (before the encodings moved into the games, when env/ and
games/spaces.py still branched on the engine) and are the same on this tree: a change to any
game's encoding, its blocks' order or its action ids shows here.
"""

from __future__ import annotations

import hashlib
import random

import pytest

from callbreak.core.actions import CHANCE, Stop
from callbreak.games import game_info, games
from callbreak.games.spaces import Encoder, family_of, legal_ids

PINNED: dict[tuple[str, int, str | None], str] = {
    ('callbreak', 4, None): "6b72a2b5aa84ae66",
    ('batak-ihaleli', 4, None): "9063e9afef975a4b",
    ('batak-koz-maca', 4, None): "334e4a9e79ca3a78",
    ('donut', 4, None): "6e6eea4772bb8d6e",
    ('donut', 5, None): "f16d5d59d01e47e5",
    ('donut', 6, None): "dd2b6d3c503ac3ae",
    ('horsethief', 3, None): "c8fc8560c639d11e",
    ('horsethief', 4, None): "f0d713f13fc360b5",
    ('horsethief', 5, None): "d077f6e07d23d89e",
    ('snarples', 3, None): "2e458e1e298225c6",
    ('snarples', 4, None): "23530034183f9aea",
    ('snarples', 5, None): "79a8a42a85a87383",
    ('snarples', 6, None): "15cf792deee88b1b",
    ('snarples', 7, None): "9bd4e01daecbeaf4",
    ('snarples', 8, None): "8c62e1cb101e1ed9",
    ('callbreak', 4, 'nepal-traditional'): "8b2d1fe3683a151b",
    ('callbreak', 4, 'catsatcards'): "797e6c547f58e0da",
    ('callbreak', 4, 'call-bridge'): "62da3efe331bb6ef",
    ('callbreak', 4, 'call-bridge-simple'): "2d4f807c64f01470",
    ('callbreak', 4, '567'): "a538dd665f57556b",
    ('callbreak', 4, 'bhoos-tournament'): "6a9326a3522e0b91",
    ('callbreak', 4, 'partnership'): "97dc0a4a6e4620f0",
    ('callbreak', 4, 'no-trump'): "5fa596f4b62cfbb3",
}


def observations_digest(name: str, players: int, preset: str | None, *, seed: int = 1,
                        deals: int = 2) -> str:
    info = game_info(name)
    game = info.new(players, preset)
    chance = info.dealer(seed)
    rng = random.Random(seed)
    encoder = Encoder(family_of(game), players)
    h = hashlib.sha256()
    while not game.is_over and len(game.results) < deals:
        if game.to_act == CHANCE:
            game.apply(Stop() if game.can_stop else chance.chance(game))
            continue
        for seat in range(players):
            view = game.view(seat)
            h.update(encoder.encode(view).tobytes())
            h.update(repr(sorted(legal_ids(view))).encode())
        game.apply(rng.choice(game.legal_actions()))
    return h.hexdigest()[:16]


def test_every_registered_configuration_is_pinned() -> None:
    configs = {(info.name, n, None) for info in games() for n in info.seats}
    configs |= {("callbreak", 4, p.name) for p in games()[0].presets[1:]}
    assert configs <= set(PINNED), f"not pinned yet: {sorted(configs - set(PINNED), key=str)}"


@pytest.mark.parametrize("config", list(PINNED), ids=lambda c: "-".join(str(p) for p in c if p))
def test_observations_are_the_pinned_ones(config: tuple[str, int, str | None]) -> None:
    assert observations_digest(*config) == PINNED[config]
