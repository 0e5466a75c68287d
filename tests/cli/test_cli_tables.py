"""Every table the CLI prints fits 60, 80 and 120 columns with no word or number cut or split
(cli/tables.py): as columns where they fit, else a block per row."""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console
from rich.text import Text
from typer.testing import CliRunner

from callbreak.bots import make_bot
from callbreak.cli import games as cli_games
from callbreak.cli import main as cli_main
from callbreak.cli import play as cli_play
from callbreak.cli import review as cli_review
from callbreak.cli.main import app
from callbreak.cli.tables import Grid, show
from callbreak.core.actions import CHANCE
from callbreak.games import game_info, new_game
from callbreak.record import dumps, record_of
from callbreak.review import ReviewSettings, review_record

WIDTHS = (60, 80, 120)


def rendered(grid: Grid, width: int) -> list[str]:
    out = Console(width=width, file=io.StringIO(), color_system=None, legacy_windows=False)
    show(out, grid)
    return out.file.getvalue().splitlines()  # type: ignore[attr-defined]


def assert_whole(lines: list[str], width: int, cells: list[str], whole: list[str]) -> None:
    """No line wider than ``width``, nothing cut (no ellipsis), each word of ``cells`` on one
    line, and each of ``whole`` (a number with its unit, a name) on one line entire."""
    assert all(len(line.rstrip()) <= width for line in lines), "\n".join(lines)
    text = "\n".join(lines)
    assert "…" not in text, text
    for cell in cells:
        for word in cell.split():
            assert any(word in line for line in lines), (word, text)
    for cell in whole:
        assert any(cell in line for line in lines), (cell, text)


WORD = st.text(st.sampled_from("abcdefghijklmnopqrstuvwxyz0123456789♠♥.%-"), min_size=1, max_size=12)
CELL = st.lists(WORD, min_size=1, max_size=3).map(" ".join)
LONG = st.lists(WORD, min_size=1, max_size=30).map(" ".join)


@settings(max_examples=60, deadline=None)
@given(rows=st.lists(st.tuples(CELL, CELL, CELL, LONG), min_size=1, max_size=5),
       width=st.sampled_from(WIDTHS))
def test_any_table_fits_its_width_with_every_word_and_short_cell_whole(
        rows: list[tuple[str, str, str, str]], width: int) -> None:
    grid = Grid(["name", "count", "score of stake", "description"], title="A table", wrap=["description"])
    for row in rows:
        grid.add(*row)
    lines = rendered(grid, width)
    short = [cell for row in rows for cell in row[:3]]
    assert_whole(lines, width, [row[3] for row in rows], short)


def test_columns_where_they_fit_and_blocks_where_they_do_not() -> None:
    grid = Grid(["seat", "points lost", "description"], wrap=["description"])
    grid.add("Seat 1 · you", "5.43 of 31.93", "calls every high card, leads its biggest")
    assert rendered(grid, 120)[0].split() == ["seat", "points", "lost", "description"]  # a header row
    narrow = rendered(grid, 30)
    assert narrow[0] == "Seat 1 · you"  # the row's first cell heads its block
    assert narrow[1].strip() == "points lost: 5.43 of 31.93"
    assert narrow[2].startswith("  description: calls every")
    assert narrow[3].startswith("    ")  # a long value's later lines hang under it


def test_a_row_of_the_wrong_length_is_refused() -> None:
    with pytest.raises(ValueError, match="a row of 2 cells in a table of 3 columns"):
        Grid(["a", "b", "c"]).add("1", Text("2"))


@pytest.fixture(scope="module")
def review_of_a_game(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    g = new_game("callbreak", preset="bhoos-tournament")
    chance = game_info("callbreak").dealer(11)
    bots = [make_bot("heuristic", seed=i) for i in range(4)]
    while not g.is_over:
        g.apply(chance.chance(g) if g.to_act == CHANCE else bots[g.to_act].decide(g.view(g.to_act), 1.0).action)
    record = dumps(record_of(g, seats=["you", "expert", "expert", "expert"]))
    folder = tmp_path_factory.mktemp("saved")
    (folder / "games").mkdir()
    (folder / "games" / "20261207-170000.json").write_text(record)
    return review_record(record, ReviewSettings(samples=4, call_samples=8, seed=0)), folder


@pytest.mark.parametrize("width", WIDTHS)
def test_the_review_fits(width: int, review_of_a_game, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    review, _ = review_of_a_game
    out = Console(width=width, file=io.StringIO(), color_system=None)
    monkeypatch.setattr(cli_review, "console", out)
    cli_review.print_review(review, every=True)
    lines = out.file.getvalue().splitlines()  # type: ignore[attr-defined]
    stakes = [f"{s.lost:.2f} of {s.at_stake:.2f}" for s in review.summary()]
    assert_whole(lines, width, ["accuracy", "inaccuracy", "blunder", "position"],
                 [*stakes, "You · Seat 1", "West · Seat 4 · expert"])


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("command", [["presets"], ["presets", "callbreak"], ["bots"], ["related-games"],
                                     ["related-games", "donut"], ["games"]])
def test_every_listing_fits(command: list[str], width: int, review_of_a_game,  # type: ignore[no-untyped-def]
                            monkeypatch: pytest.MonkeyPatch) -> None:
    _, folder = review_of_a_game
    monkeypatch.setenv("CALLBREAK_DATA_DIR", str(folder))
    for module in (cli_main, cli_games, cli_play):
        monkeypatch.setattr(module, "console", Console(width=width, color_system=None))
    result = CliRunner().invoke(app, command)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    names = {"presets": ["bhoos-tournament", "nepal-traditional", "Call Bridge, simple (pagat.com)"],
             "bots": ["heuristic-overcall", "openspiel-ismcts"],
             "related-games": ["batak-koz-maca", "Batak Koz Maca"],
             "games": ["20261207-170000.json", "2026-12-", "finished", "you, expert"]}[command[0]]
    if command == ["presets", "callbreak"]:
        names = ["follow_must_beat", "trump_if_winning"]
    if command == ["related-games", "donut"]:
        names = ["Donut"]
    assert_whole(lines, width, [], names)

