"""``callbreak serve --workers N`` on SQLite is refused, saying why and what to use instead."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from callbreak.cli.main import app


def test_workers_on_sqlite_are_refused_with_the_reason_and_the_way_out(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["serve", "--workers", "2", "--db", f"sqlite:///{tmp_path / 'x.db'}"])
    assert result.exit_code == 2
    text = " ".join(result.output.split())
    assert "--workers 2 needs PostgreSQL" in text and "postgresql://" in text
    assert "one process" in text
