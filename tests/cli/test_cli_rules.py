"""Every game's rules are readable in the product (`callbreak rules GAME`), in the project's own
words, shipped in the package, and pointing nowhere outside the repository."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from callbreak.cli.main import app
from callbreak.core import RulesError
from callbreak.games import game_info, games, has_rules, rules_text

runner = CliRunner()
BUILT_IN = ("callbreak", "batak-ihaleli", "batak-koz-maca", "donut", "horsethief", "snarples")
ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", BUILT_IN)
def test_each_built_in_game_ships_its_rules(name: str) -> None:
    assert has_rules(name)
    text = rules_text(name)
    assert text.splitlines()[0].startswith(f"# {game_info(name).title}")
    assert "## " in text and len(text) > 1000  # sections, and more than a summary
    # nothing outside the repository, and the sources named as people know them
    assert not re.search(r"\.\./|RULES\.md|seeds?\b|\b00[0-4]\b|https?://", text)


def test_the_rule_sources_are_named_as_people_know_them() -> None:
    every = " ".join(rules_text(name) for name in BUILT_IN)
    for source in ("catsatcards", "pagat.com", "567 platform", "public bot tournament", "Nepali house rules"):
        assert source in every


def test_every_call_break_preset_is_described() -> None:
    text = rules_text("callbreak")
    for preset in game_info("callbreak").presets:
        assert f"`{preset.name}`" in text


def test_call_bridge_is_read_in_call_breaks_rules() -> None:
    """Call Bridge is two of Call Break's presets: its rules are a section of Call Break's, and
    its old game name reads them."""
    text = rules_text("callbreak")
    assert "## Call Bridge" in text and "from 2 to 12 tricks" in text and "pagat.com" in text
    assert has_rules("call-bridge") and rules_text("call-bridge") == text
    assert runner.invoke(app, ["rules", "call-bridge"]).output == text


def test_the_command_prints_a_games_rules() -> None:
    result = runner.invoke(app, ["rules", "horsethief"])
    assert result.exit_code == 0 and result.output == rules_text("horsethief")
    assert runner.invoke(app, ["rules"]).output == rules_text("callbreak")


def test_an_unknown_game_is_refused_with_the_games_there_are() -> None:
    result = runner.invoke(app, ["rules", "whist"])
    assert result.exit_code == 2 and "games are: callbreak" in result.output
    with pytest.raises(RulesError):
        rules_text("whist")


def test_a_game_registered_without_rules_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(ROOT / "tests"))
    import toy_whist  # as tests/test_adding_a_game.py registers it

    with toy_whist.registered():
        assert "plain-whist" in {info.name for info in games()}
        assert not has_rules("plain-whist")
        assert rules_text("plain-whist").startswith("# Plain whist for two\n")


def test_the_readme_sends_nobody_outside_the_repository() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "../shared" not in readme and "callbreak rules" in readme
