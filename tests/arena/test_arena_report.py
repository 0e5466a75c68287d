"""The arena's results on screen: a table that fits the terminal, faults said, a fair estimate."""

from __future__ import annotations

import io
from types import SimpleNamespace

import pytest
from rich.console import Console

from callbreak.arena import ArenaPlan, Fault, run_sets, summarise
from callbreak.arena.report import results_table
from callbreak.cli.arena import TimeLeftColumn, _fault_line
from callbreak.cli.base import fail
from callbreak.core import make_rules


@pytest.fixture(scope="module")
def report():  # type: ignore[no-untyped-def]
    plan = ArenaPlan(("heuristic", "random", "http://127.0.0.1:7000"), make_rules("callbreak").replace(deals=1),
                     seed=1, sets=2, names=("heuristic", "random", "http://127.0.0.1:7000"))
    plan_local = ArenaPlan(("heuristic", "random", "random"), plan.options, seed=1, sets=2)
    # The URL player is only a name here: the tables are played by local bots.
    return summarise(plan, "callbreak", run_sets(plan_local), names=plan.display_names)


def _render(table: object, width: int) -> list[str]:
    console = Console(width=width, file=io.StringIO(), color_system=None)
    console.print(table)
    return console.file.getvalue().splitlines()  # type: ignore[attr-defined]


@pytest.mark.parametrize("width", [60, 80, 110, 120])
def test_the_table_fits_the_terminal_without_cutting_names_or_numbers(report, width: int) -> None:  # type: ignore[no-untyped-def]
    table, dropped = results_table(report, width)
    lines = _render(table, width)
    assert all(len(line.rstrip()) <= width for line in lines)
    text = "\n".join(lines)
    assert "…" not in text
    for p in report.players:
        assert p.name in text
        assert f"{p.mean_score_per_deal:+.2f}" in text and f"{p.margin_per_deal:+.2f}" in text
    for column in ("wins", "faults"):  # kept from 80 columns up; narrower, named as left out
        assert column in text if width >= 80 else (column in text or column in dropped), (column, dropped)
    assert dropped and "p99 ms" in dropped  # the rest is behind --wide and in the JSON
    if width == 110:
        assert "calls made" in text


def test_every_column_without_a_width(report) -> None:  # type: ignore[no-untyped-def]
    table, dropped = results_table(report)
    text = "\n".join(_render(table, 250))
    assert not dropped
    assert "p99 ms" in text and "rating" in text and "score/match (95% CI)" in text
    assert "2 duplicate sets" in text


def test_a_fault_says_the_default_was_played() -> None:
    line = _fault_line(Fault(1, "http://x:7000", 3, "timeout", "took 1.200 s of a 1 s budget", 1.2))
    assert line.startswith("fault: http://x:7000 (Seat 2, deal 3): timeout")
    assert "the default action was played" in line


def test_the_time_left_counts_the_time_before_the_first_table() -> None:
    column = TimeLeftColumn()
    # 2 of 20 tables in 60 s: 18 more at the same pace take 9 minutes.
    task = SimpleNamespace(elapsed=60.0, completed=2, total=20)
    assert column.render(task).plain == "0:09:00"  # type: ignore[arg-type]
    assert column.render(SimpleNamespace(elapsed=5.0, completed=0, total=20)).plain == "-:--:--"  # type: ignore[arg-type]


def test_fail_keeps_brackets(capsys: pytest.CaptureFixture[str]) -> None:
    import typer

    with pytest.raises(typer.Exit):
        fail("needs the openspiel extra: pip install 'callbreak[openspiel]'")
    assert "pip install 'callbreak[openspiel]'" in " ".join(capsys.readouterr().err.split())
