"""The bot catalog: every bot people can seat says in one line what it is, and a bot whose
optional extra is missing is listed but never offered."""

from __future__ import annotations

import pytest

from callbreak.bots import BotError, bots_for, describe, make_bot, register
from callbreak.bots import base as bot_base
from callbreak.bots.base import catalog
from callbreak.games import games


def test_every_bot_says_what_it_is_for_every_game_it_plays() -> None:
    for info in games():
        offered = bots_for(info.name)
        assert "random" in offered
        for entry in catalog(info.name):
            text = describe(entry.name, info.name)
            assert text == entry.description
            assert text and "\n" not in text and len(text) <= 100, (entry.name, text)


def test_the_same_name_is_described_per_game() -> None:
    # heuristic is one bot for Call Break and another for the related games
    assert describe("heuristic", "callbreak") != describe("heuristic", "donut")
    assert describe("expert:budget=0.1") == describe("expert")
    with pytest.raises(BotError, match="no bot 'expert' plays donut"):
        describe("expert", "donut")


def test_a_bot_whose_extra_is_missing_is_listed_not_offered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bot_base, "_REGISTRY", dict(bot_base._REGISTRY))

    @register("needs-extra", requires="no_such_module_for_callbreak", extra="no-such-extra")
    def _factory(seed: str | None = None) -> object:
        """Needs a library this installation lacks."""
        raise AssertionError("never made without its extra")

    listed = {e.name: e for e in catalog("callbreak")}
    assert not listed["needs-extra"].installed and listed["heuristic"].installed
    assert "needs-extra" not in bots_for("callbreak")
    with pytest.raises(BotError, match=r"needs the no-such-extra extra.*pip install 'callbreak\[no-such-extra\]'"):
        make_bot("needs-extra")


def test_a_bot_without_a_docstring_says_where_it_comes_from(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bot_base, "_REGISTRY", dict(bot_base._REGISTRY))
    register("silent")(lambda seed=None: None)
    assert describe("silent") == f"A bot from {__name__} (it says no more)."
