"""`callbreak replay FILE` reads the related games' records too (dispatch on their "game" field)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from callbreak.cli.main import app
from callbreak.cli.tui.game_session import GameSession
from callbreak.games import CHANCE, Bid, GameDealer, Join, make_trick_game
from callbreak.games.record import dumps_game, game_record_of

runner = CliRunner()


def _record_file(tmp_path: Path, game: str, players: int) -> tuple[Path, list[int]]:
    g = make_trick_game(game, players, max_hands=2)
    dealer = GameDealer(3)
    rng = random.Random(3)
    while not g.is_over:
        if g.to_act == CHANCE:
            g.apply(dealer.chance(g))
            continue
        legal = g.legal_actions()
        # Everyone bids and plays, so that tricks are played and narrated.
        keen = [x for x in legal if isinstance(x, Bid) or (isinstance(x, Join) and x.playing)]
        g.apply(keen[0] if keen else rng.choice(legal))
    path = tmp_path / f"{game}.json"
    path.write_text(dumps_game(game_record_of(g, seats=[f"p{i}" for i in range(players)])))
    return path, list(g.scores)


@pytest.mark.parametrize(("game", "players"), [("batak-ihaleli", 4), ("snarples", 5), ("horsethief", 3)])
def test_replay_narrates_a_related_game_record(tmp_path: Path, game: str, players: int) -> None:
    path, scores = _record_file(tmp_path, game, players)
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    assert "Hand 1 (dealer" in result.output and "Trick 1:" in result.output
    last_scores = [line for line in result.output.splitlines() if line.strip().startswith("Scores:")][-1]
    assert last_scores.strip() == "Scores: " + ", ".join(f"p{s} {scores[s]}" for s in range(players))
    assert "Winner" in result.output


def test_replay_refuses_a_tampered_game_record_naming_the_problem(tmp_path: Path) -> None:
    path, _ = _record_file(tmp_path, "donut", 4)
    data = json.loads(path.read_text())
    data["result"]["scores"] = [0, 0, 0, 0]
    path.write_text(json.dumps(data))
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2
    assert "do not match the replayed scores" in result.output
    data = json.loads(path.read_text())
    first_play = next(i for i, a in enumerate(data["actions"]) if a["type"] == "play")
    data["actions"][first_play]["seat"] = (data["actions"][first_play]["seat"] + 1) % 4
    path.write_text(json.dumps(data))
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2 and f"action {first_play}" in result.output


def test_replay_step_says_it_reads_call_break_records_only(tmp_path: Path) -> None:
    path, _ = _record_file(tmp_path, "horsethief", 4)
    result = runner.invoke(app, ["replay", str(path), "--step"])
    assert result.exit_code == 2 and "Call Break records only" in result.output


def test_replay_finds_a_saved_terminal_game_by_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CALLBREAK_DATA_DIR", str(tmp_path))
    session = GameSession.new("snarples", players=3, opponents=["random"], seed=1)
    session.apply(session.chance_action())
    assert session.save_path is not None
    result = runner.invoke(app, ["replay", session.save_path.name])
    assert result.exit_code == 0, result.output
    assert "Snarples record: 0=you" in result.output


def test_saved_games_list_names_the_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from callbreak.cli.tui.saves import list_saved

    monkeypatch.setenv("CALLBREAK_DATA_DIR", str(tmp_path))
    session = GameSession.new("horsethief", players=3, opponents=["random"], seed=1, options={"max_hands": "1"})
    while not session.is_over:
        g = session.game
        session.apply(session.chance_action() if g.to_act == CHANCE else g.legal_actions()[0])
    (saved,) = list_saved()
    assert saved.game == "horsethief" and saved.finished and saved.deals_played == 1
    assert saved.seats == ("you", "random", "random")
    result = CliRunner().invoke(app, ["games"], env={"COLUMNS": "200"})
    assert result.exit_code == 0 and "horsethief" in result.output
