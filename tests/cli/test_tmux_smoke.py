"""`callbreak play` in a real terminal (tmux): the first screen renders and a card can be played,
by key presses and by mouse clicks."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import pytest
from _terminal import play_in_tmux

pytestmark = [pytest.mark.process, pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")]


def test_first_screen_renders_and_a_card_can_be_played(tmp_path: Path) -> None:
    with play_in_tmux(tmp_path, seed=1, label="test") as game:
        first = game.wait_for(lambda s: "Your call" in s, "the call prompt")
        hand_lines = [line for line in first.splitlines() if line.lstrip().startswith("♠")
                      or line.lstrip().startswith(("♥", "♣", "♦"))]
        assert hand_lines, first  # the hand, grouped by suit, is on screen
        assert "You" in first and "North" in first and "East" in first and "West" in first
        assert "Deal 1 of 5" in first

        assert _cards_in_hand(first) == 13
        game.press("Enter")  # take the suggested call
        game.wait_for(lambda s: "Your turn" in s, "the play prompt")
        game.press("Enter")  # play the selected (legal) card
        after = game.wait_for(lambda s: _cards_in_hand(s) == 12, "the hand one card shorter")
        assert "Not allowed" not in after

        saved = next((tmp_path / "games").glob("*.json"))
        actions = json.loads(saved.read_text())["actions"]
        assert any(a["type"] == "play" and a["seat"] == 0 for a in actions)


def _cards_in_hand(screen: str) -> int:
    """The highest card number shown over the hand (cards are numbered 1..n)."""
    lines = screen.splitlines()
    for i, line in enumerate(lines):
        if line.lstrip().startswith(("♠", "♥", "♣", "♦")) and i > 0:
            numbers = [int(t) for t in lines[i - 1].split() if t.isdigit()]
            return max(numbers, default=0)
    return 0


def test_mouse_clicks_in_a_real_terminal_make_the_call_and_play_a_card(tmp_path: Path) -> None:
    """tmux forwards SGR mouse reports (as a terminal with a mouse sends them) to the game."""
    with play_in_tmux(tmp_path, seed=2, label="mouse") as game:
        first = game.wait_for(lambda s: "Your call" in s, "the call prompt")
        lines = first.splitlines()
        picker = next(i for i, line in enumerate(lines) if "Your call" in line) + 1
        game.click(lines[picker].index(" 5 ") + 1, picker)  # the call 5
        game.wait_for(lambda s: "You call 5" in s, "the call made by a click")
        playing = game.wait_for(lambda s: "Your turn" in s, "the play prompt")
        saved = next((tmp_path / "games").glob("*.json"))
        assert _human_plays(saved) == 0
        rows = playing.splitlines()
        faces = next(i for i, line in enumerate(rows) if line.lstrip().startswith(("♠", "♥", "♣", "♦")))
        numbers = rows[faces - 1]
        for n in range(1, _cards_in_hand(playing) + 1):  # click every card: only a legal one plays
            column = numbers.index(f"{n:>2} ") + 1 if n > 9 else numbers.index(f" {n} ") + 1
            game.click(column, faces)
            time.sleep(0.3)
            if _human_plays(saved) == 1:
                break
        game.wait_for(lambda s: _cards_in_hand(s) == 12, "the hand one card shorter")
        assert _human_plays(saved) == 1


def _human_plays(saved: Path) -> int:
    try:
        actions = json.loads(saved.read_text())["actions"]
    except (OSError, ValueError):
        return -1
    return sum(1 for a in actions if a["type"] == "play" and a["seat"] == 0)
