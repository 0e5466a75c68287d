"""One name for each seat (i18n/seats.py): the terminal game, its saved record's narration and
its review name every seat the same way, in every language."""

from __future__ import annotations

import random

import pytest

from callbreak.cli.tui import language
from callbreak.cli.tui.session import Session
from callbreak.core import CHANCE
from callbreak.i18n import LANGUAGES
from callbreak.i18n.seats import seat_name, seat_names, short_name
from callbreak.record import dumps, loads, narrate, record_of, seat_labels
from callbreak.review import Review, ReviewSettings, review_words


def _terminal_game() -> Session:
    session = Session.new(opponents=["expert", "random", "heuristic"], seed=4, save=False)
    rng = random.Random(4)
    while len(session.game.results) < 1:
        g = session.game
        session.apply(session.chance_action() if g.to_act == CHANCE else rng.choice(g.legal_actions()))
    return session


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_the_terminal_game_its_replay_and_its_review_name_each_seat_alike(lang: str) -> None:
    session = _terminal_game()
    record = loads(dumps(record_of(session.game, seats=session.seat_labels())))
    language.use(lang)
    try:
        at_the_table = session.names()
    finally:
        language.use("en")
    review = Review(game="callbreak", seats=record.seats, settings=ReviewSettings(), decisions=(),
                    record_digest="")
    assert at_the_table == review_words(review, lang)["labels"] == seat_names(record.seats, lang)
    assert len({short_name(n) for n in at_the_table}) == 4  # a sentence's short names tell seats apart
    if lang == "en":
        assert at_the_table == seat_labels(record) == review.labels
        assert at_the_table[0] == "You · Seat 1"
        assert at_the_table[2].startswith("North · Seat 3 · ")  # the seat across the table
        assert next(narrate(record)).endswith(", ".join(at_the_table))


def test_without_a_person_seats_are_numbered_and_positions_left_out() -> None:
    assert seat_names(["ann", "bo", "cy", "di"]) == ("Seat 1 · ann", "Seat 2 · bo", "Seat 3 · cy", "Seat 4 · di")
    assert seat_names(["you", "a", "b"]) == ("You · Seat 1", "Seat 2 · a", "Seat 3 · b")  # 3 seats: no compass
    assert seat_name(1, "seat 2", "bn") == "সিট ২"
    assert seat_names(["x", "y", "z", "w"], viewer=2)[0] == "North · Seat 1 · x"  # a replay watched from seat 3
