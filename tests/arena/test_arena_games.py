"""The arena plays every registered game the same way (``callbreak arena --game NAME``)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from callbreak.arena import ArenaPlan, run_arena, run_set
from callbreak.arena.duplicate import lineups, rotations, seating
from callbreak.arena.runner import DealStream, play_game
from callbreak.bots import make_bot
from callbreak.cli.main import app
from callbreak.core import CHANCE, Deal
from callbreak.games import ContractView, game_info, games, new_game
from callbreak.record import Record, loads, replay, replay_states

RELATED = [g.name for g in games() if g.name not in ("callbreak", "call-bridge")]
runner = CliRunner()


@pytest.mark.parametrize("seats", [3, 4, 5, 6, 7, 8])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_player_sits_every_seat_equally_often_at_any_table_size(seats: int, players: int) -> None:
    if players > seats:
        with pytest.raises(ValueError, match="players at a table of"):
            lineups(players, seats=seats)
        return
    per_player: dict[int, Counter[int]] = {p: Counter() for p in range(players)}
    for lineup in lineups(players, seats=seats):
        assert len(lineup) == seats and set(lineup) == set(range(players))
        for r in rotations(players, seats=seats):
            for seat, p in enumerate(seating(lineup, r)):
                per_player[p][seat] += 1
    for p, counts in per_player.items():
        assert len(set(counts[s] for s in range(seats))) == 1, (p, counts)


def _plan(game: str, players: tuple[str, ...], table: int | None = None, **options: str) -> ArenaPlan:
    return ArenaPlan(players, game_info(game).make_options(None, options), seed=5, sets=1, budget=5.0,
                     tolerance=5.0, keep_records=True, game=game, table_size=table)


@pytest.mark.parametrize("game", RELATED)
def test_each_game_runs_duplicate_and_reports(game: str) -> None:
    plan = _plan(game, ("heuristic", "random"), max_hands="2")
    report = run_arena(plan, preset=game)
    seats = new_game(game).players
    assert len(report.tables) == seats  # the first player rotated through every seat
    first_deals = []
    for table in report.tables:
        assert table.record is not None
        record = loads(table.record)  # a valid record that replays to the same scores
        finished = replay(record)
        assert finished.is_over and 1 <= len(finished.results) <= 2
        assert table.winners == finished.winners
        first_deals.append(next(a for a in record.actions if isinstance(a, Deal)))
    # Duplicate: every seating is dealt the same first hand.
    assert len(set(first_deals)) == 1
    heuristic, random_bot = report.players
    assert heuristic.name == "heuristic" and random_bot.name == "random"
    assert heuristic.seat_deals == sum(len(t.points) for t in report.tables)
    assert heuristic.faults == random_bot.faults == 0
    assert heuristic.moves > 0 and heuristic.mean_move_ms >= 0
    lo, hi = heuristic.ci95
    assert lo is None or lo <= heuristic.mean_score_per_deal <= hi  # type: ignore[operator]
    assert report.to_json()["options"]["game"] == game


def _chance_actions(record: Record) -> list[object]:
    """The chance actions of a record, found through the protocol (whatever the game)."""
    return [a for state, a in zip(replay_states(record), record.actions, strict=False)
            if state.to_act == CHANCE]


@pytest.mark.parametrize(("game", "seats"), [(g.name, n) for g in games() for n in sorted({g.seats[0], g.seats[-1]})])
def test_every_seating_of_a_set_is_dealt_the_same_chance_actions(game: str, seats: int) -> None:
    # Duplicate for any registered game: the same draw for dealer and the same deals at every
    # seating (these games keep step for 3 deals: nothing thrown in, nobody out).
    fields = game_info(game).options_type.__dataclass_fields__
    limit = {"max_hands": "3"} if "max_hands" in fields else {"deals": "3"}
    result = run_set(_plan(game, ("heuristic", "random"), seats, **limit), 0)
    streams = [_chance_actions(loads(t.record or "")) for t in result.tables]
    assert len(streams) == seats and len(streams[0]) >= 3
    assert all(stream == streams[0] for stream in streams)


def test_race_down_scores_are_flipped_so_that_higher_is_better() -> None:
    report = run_arena(_plan("snarples", ("heuristic", "random"), 3, max_hands="3"))
    for table in report.tables:
        game = replay(loads(table.record or ""))
        for seat in range(3):
            assert table.totals[seat] == -10 * (game.scores[seat] - 16)


class _Broken:
    name = "broken"

    def decide(self, view: ContractView, budget: float) -> object:
        raise RuntimeError("no idea")


def test_a_failing_game_bot_is_a_fault_and_the_game_still_ends() -> None:
    game = new_game("donut", 4, max_hands=1)
    bots = [_Broken(), *(make_bot("random", seed=s, game="donut") for s in range(3))]
    out = play_game(game, bots, chance=DealStream(1, game="donut"))
    assert out.game.is_over
    assert out.seats[0].faults and all(f.kind == "error" for f in out.seats[0].faults)
    assert not any(s.faults for s in out.seats[1:])
    assert out.record.meta["faults"][0]["player"] == "broken"


def test_cli_arena_game_prints_the_report_and_writes_json(tmp_path: Path) -> None:
    path = tmp_path / "out.json"
    result = runner.invoke(app, ["arena", "heuristic", "random", "--game", "horsethief", "--players", "3",
                                 "--matches", "1", "--option", "max_hands=1", "--seed", "2",
                                 "--workers", "1", "-q", "--json", str(path)])
    assert result.exit_code == 0, result.output
    assert "horsethief" in result.output and "score/hand" in result.output
    data = json.loads(path.read_text())
    assert data["options"]["players"] == 3 and data["options"]["max_hands"] == 1
    assert [p["name"] for p in data["players"]] == ["heuristic", "random"]
    assert data["matches"] == 3


@pytest.mark.parametrize(("args", "message"), [
    (["--game", "whist"], "unknown game"),
    (["--game", "snarples", "--players", "9"], "3 to 8 players"),
    (["--game", "horsethief", "--players", "3", "--option", "target=x"], "whole number"),
    (["--game", "donut", "--option", "nonsense=1"], "unknown option"),
    (["--game", "call-bridge", "--preset", "call-bridge-x"], "preset 'call-bridge-x'"),
    (["--game", "donut", "--preset", "callbreak"], "Donut has no preset 'callbreak'"),
])
def test_cli_arena_game_refuses_bad_settings(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["arena", "heuristic", "random", *args])
    assert result.exit_code == 2
    assert message in result.output


def test_cli_arena_game_refuses_bad_players() -> None:
    result = runner.invoke(app, ["arena", "heuristic", "expert", "--game", "donut"])
    assert result.exit_code == 2 and "bot 'expert' does not play donut" in result.output
    result = runner.invoke(app, ["arena", "heuristic", "random", "search", "search",
                                 "--game", "horsethief", "--players", "3"])
    assert result.exit_code == 2 and "at most 3" in result.output
    result = runner.invoke(app, ["arena", "http://127.0.0.1:9", "random", "--game", "donut"])
    assert result.exit_code == 2 and "plays Call Break only" in result.output


def test_cli_arena_writes_records_of_any_game_that_replay(tmp_path: Path) -> None:
    directory = tmp_path / "records"
    result = runner.invoke(app, ["arena", "search:samples=2", "random", "--game", "snarples", "--players", "5",
                                 "--option", "max_hands=1", "--matches", "1", "--seed", "4",
                                 "--workers", "1", "-q", "--records", str(directory)])
    assert result.exit_code == 0, result.output
    files = sorted(directory.glob("*.json"))
    assert len(files) == 5 and "5 records written" in result.output
    first_deals = set()
    for f in files:
        record = loads(f.read_text())
        assert record.game == "snarples" and record.players == 5 and record.options.max_hands == 1
        assert record.seats.count("search:samples=2") == 1 and record.meta["arena"]["seed"] == 4
        game = replay(record)
        assert game.is_over and len(game.results) == 1
        first_deals.add(next(a for a in record.actions if isinstance(a, Deal)))
    assert len(first_deals) == 1


def test_play_game_stops_a_game_whose_rules_never_end_it() -> None:
    out = play_game(new_game("call-bridge"), [make_bot("random", seed=s, game="call-bridge") for s in range(4)],
                    name="call-bridge", seed=2)
    # call-bridge names Call Break under the call-bridge preset: one game, recorded as Call Break's.
    assert out.game.is_over and len(out.deal_points) == 5 and out.record.game == "callbreak"
    assert out.record.rules.max_call == 12 and out.record.title == "Call Break · Call Bridge (pagat.com)"


def test_call_bridge_runs_in_the_arena_under_its_own_presets() -> None:
    report = run_arena(ArenaPlan(("heuristic", "random"), game_info("call-bridge").make_options(None, {}),
                                 seed=3, sets=1, game="call-bridge"), preset="call-bridge")
    assert report.tables and all(len(t.points) == 5 for t in report.tables)  # stopped after 5 deals
    assert report.to_json()["options"]["max_call"] == 12


class _CopiedResults:
    """A game whose ``results`` is a fresh tuple at each look (the protocol allows it)."""

    def __init__(self, game: object) -> None:
        self._game = game

    def __getattr__(self, name: str) -> object:
        return getattr(self._game, name)

    @property
    def results(self) -> tuple[object, ...]:
        return tuple(self._game.results)  # type: ignore[attr-defined]


def test_each_deal_is_scored_whatever_sequence_the_game_returns_its_results_in() -> None:
    game = _CopiedResults(new_game("donut", 4, max_hands=3))
    bots = [make_bot("random", seed=s, game="donut") for s in range(4)]
    out = play_game(game, bots, name="donut", seed=3)  # type: ignore[arg-type]
    assert len(out.deal_points) == len(out.game.results) == 3
    assert [sum(-d[s] for d in out.deal_points) for s in range(4)] == \
        [10 * (score - start) for score, start in zip(out.game.scores, new_game("donut", 4).scores, strict=True)]
