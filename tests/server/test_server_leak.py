"""No payload sent to a seat ever holds another seat's unplayed cards, across whole games."""

from __future__ import annotations

from typing import Any

import pytest
from server_helpers import SeatClient, cards_in, client_fixture, create, join, store_fixture  # noqa: F401 (fixtures)
from starlette.testclient import TestClient

from callbreak.core import Match
from callbreak.core.actions import action_from_json
from callbreak.core.cards import cards_of
from callbreak.server import engines
from callbreak.store import Store


def truth_by_version(store: Store, code: str) -> tuple[list[list[set[str]]], list[list[bool]]]:
    """For every state version: each seat's hand (as card texts) and whether it has looked."""
    stored = store.load_game(code)
    assert stored is not None
    config = {k: v for k, v in stored.config.items() if k not in ("seed", "host_hash")}
    match = engines.new_game(config)
    assert isinstance(match, Match)
    hands, looked = [], []
    for data in [None, *stored.actions]:
        if data is not None:
            match.apply(action_from_json(data))
        hands.append([{c.text for c in cards_of(h)} for h in match.hands])
        looked.append(list(match.looked))
    return hands, looked


@pytest.mark.parametrize("preset", ["callbreak", "567"])
def test_no_message_to_a_seat_holds_another_seats_cards(client: TestClient, store: Store, preset: str) -> None:
    made = create(client, preset=preset, deals=2, seed=11)
    code = made["code"]
    tokens = [made["token"]] + [join(client, code, n)["token"] for n in ("Bob", "Cat", "Dan")]
    seats = [SeatClient(client, code, t) for t in tokens]
    watcher = SeatClient(client, code, None, play=False)
    for c in [*seats, watcher]:
        c.start()
    client.post(f"/api/tables/{code}/start", json={"token": tokens[0]})
    for c in [*seats, watcher]:
        c.join()
        assert not c.is_alive() and c.error is None, c.error
    hands, looked = truth_by_version(store, code)
    checked = 0
    for seat, c in [*enumerate(seats), (None, watcher)]:
        assert c.messages[-1]["view"]["phase"] == "over"
        for m in c.messages:
            if m["type"] != "state" or m["view"] is None:
                assert not cards_in(m), m
                continue
            v = m["version"]
            hidden = set().union(*(hands[v][t] for t in range(4) if t != seat))
            leaked = cards_in(m) & hidden
            assert not leaked, f"seat {seat} was sent {sorted(leaked)} at version {v}"
            mine = m["view"]["hand"]
            if seat is None or not looked[v][seat]:
                assert mine is None
            else:
                assert set(mine) == hands[v][seat]
            checked += 1
    assert checked > 4 * 2 * 50  # every seat saw the whole game


def _all_texts(message: Any) -> str:
    return str(message)


def test_tokens_are_never_sent_to_other_seats(client: TestClient) -> None:
    made = create(client, deals=1, seed=3)
    code = made["code"]
    tokens = [made["token"]] + [join(client, code, n)["token"] for n in ("Bob", "Cat", "Dan")]
    seats = [SeatClient(client, code, t) for t in tokens]
    for c in seats:
        c.start()
    client.post(f"/api/tables/{code}/start", json={"token": tokens[0]})
    for c in seats:
        c.join()
        assert c.error is None
    for seat, c in enumerate(seats):
        text = "".join(_all_texts(m) for m in c.messages)
        for other, token in enumerate(tokens):
            if other != seat:
                assert token not in text
