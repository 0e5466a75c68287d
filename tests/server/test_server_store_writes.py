"""Store writes off the event loop (issue 30): a table's writes run in a writer thread, in
order, and nothing is shown before it is stored. Told by what happens while one write is held,
not by the clock: a slow commit (PostgreSQL once took 145 ms on the loop) holds up only the
table it is for."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

from server_helpers import SeatClient, create, join, state, store_fixture  # noqa: F401 (a fixture)
from sqlalchemy.exc import OperationalError
from starlette.testclient import TestClient

from callbreak.server.app import create_app
from callbreak.server.tables import TableService
from callbreak.store import Store

HANG = 60  # seconds: only a hang (the loop blocked for good) runs into it


def four_people(client: TestClient) -> tuple[str, list[str]]:
    made = create(client, deals=1)
    tokens = [made["token"]] + [join(client, made["code"], n)["token"] for n in ("Bob", "Cat", "Dan")]
    assert client.post(f"/api/tables/{made['code']}/start", json={"token": made["token"]}).status_code == 200
    return made["code"], tokens


def turn(client: TestClient, code: str, tokens: list[str]) -> tuple[str, int, dict[str, Any]]:
    """The token of the seat to act, the version, and its first legal action."""
    s = state(client, code)
    seat = s["view"]["to_act"]
    mine = state(client, code, tokens[seat])
    ordinary = [a for a in mine["view"]["legal"] if a["type"] != "look" and not a.get("blind")]
    return tokens[seat], s["version"], ordinary[0]


class Caller(threading.Thread):
    """One HTTP request in a thread of its own; ``events`` gets ``name`` once it is answered."""

    def __init__(self, client: TestClient, path: str, body: Any, name: str, events: list[str]) -> None:
        super().__init__(daemon=True)
        self.client, self.path, self.body, self.name, self.events = client, path, body, name, events
        self.answer: Any = None

    def run(self) -> None:
        r = self.client.post(self.path, json=self.body)
        self.answer = (r.status_code, r.json())
        self.events.append(self.name)


def test_a_slow_store_write_holds_up_only_its_own_table(store: Store) -> None:
    events: list[str] = []
    held, entered = threading.Event(), threading.Event()
    with TestClient(create_app(store, practice=True)) as client:
        a_code, a_tokens = four_people(client)
        b_code, b_tokens = four_people(client)
        a_id = store.load_game(a_code).id  # type: ignore[union-attr]
        a_token, a_version, a_action = turn(client, a_code, a_tokens)
        real = store.append_action
        writers: set[str] = set()

        def slow(game_id: int, seq: int, action: dict[str, Any], epoch: int | None = None,
                 memories: Any = None) -> None:
            writers.add(threading.current_thread().name)
            if game_id == a_id and seq == a_version:
                entered.set()
                assert held.wait(HANG)  # a commit that takes long
                events.append("A stored")
            real(game_id, seq, action, epoch, memories)

        store.append_action = slow  # type: ignore[method-assign]
        body = {"token": a_token, "version": a_version, "action": a_action}
        first = Caller(client, f"/api/tables/{a_code}/action", body, "A answered", events)
        first.start()
        assert entered.wait(HANG)
        # Sent again meanwhile (a page that reconnected): it waits for the table's turn.
        again = Caller(client, f"/api/tables/{a_code}/action", body, "A again answered", events)
        again.start()
        # While table A's write is held: the lobby answers, table B plays and shows its move, and
        # table A shows nothing of the action not yet stored.
        assert client.get("/api/meta").status_code == 200
        events.append("meta answered")
        b_token, b_version, b_action = turn(client, b_code, b_tokens)
        b = Caller(client, f"/api/tables/{b_code}/action",
                   {"token": b_token, "version": b_version, "action": b_action}, "B answered", events)
        b.start()
        b.join(HANG)
        assert b.answer is not None and b.answer[0] == 200, b.answer
        assert state(client, b_code)["version"] > b_version
        assert state(client, a_code)["version"] == a_version
        assert len(store.load_game(a_code).actions) == a_version  # type: ignore[union-attr]
        assert first.is_alive() and again.is_alive()
        held.set()
        first.join(HANG)
        again.join(HANG)
        assert first.answer[0] == 200 and again.answer[0] == 200, (first.answer, again.answer)
        # Then A's action is stored, once, shown, and answered; its retry is answered as played.
        assert events[:3] == ["meta answered", "B answered", "A stored"], events
        assert sorted(events[3:]) == ["A again answered", "A answered"], events
        stored = store.load_game(a_code).actions  # type: ignore[union-attr]
        assert len(stored) == a_version + 1 and stored[a_version]["type"] == a_action["type"]
        assert state(client, a_code)["version"] > a_version
    assert writers and all(name.startswith("store-write") for name in writers), writers


def test_the_plain_methods_write_on_the_calling_thread(store: Store) -> None:
    """A program that drives a TableService itself (a benchmark) runs each step to its end, the
    store writes included, with no event loop to await on."""
    service = TableService(store, practice=True)
    table, host, _ = service.create({"preset": "callbreak", "deals": 1, "timer": None}, "Ann", seed=3)
    for name in ("Bob", "Cat", "Dan"):
        service.join(table.code, name)
    stored = store.load_game(table.code)
    assert stored is not None and [s["name"] for s in stored.seats] == ["Ann", "Bob", "Cat", "Dan"]
    assert service.tables[table.code].status == "lobby"
    service.close()


def test_a_clock_firing_while_a_bots_move_is_stored_starts_no_second_decision(
        store: Store, monkeypatch: Any) -> None:
    """A bot's move is being written when something re-arms the table's clock for that same turn
    (a player's socket closing does): no second decision starts. One did, and, still thinking
    once the table had moved on, kept the next bot's clock from starting any: the table stalled
    (seen in the full suite, in the absent-player tests)."""
    asked: list[int] = []
    think = TableService.think

    async def counted(self: TableService, config: Any, spec: str, seed: int, view: Any, memory: Any = None) -> Any:
        asked.append(seed)
        return await think(self, config, spec, seed, view, memory=memory)

    monkeypatch.setattr(TableService, "think", counted)
    held, entered = threading.Event(), threading.Event()
    with TestClient(create_app(store, practice=True)) as client:
        made = create(client, deals=1, bots=["random"] * 4)
        service: TableService = client.app.state.service  # type: ignore[attr-defined]
        table = service.tables[made["code"]]
        real = store.append_action
        target: dict[str, int] = {}

        def slow(game_id: int, seq: int, action: dict[str, Any], epoch: int | None = None,
                 memories: Any = None) -> None:
            if action.get("type") == "play" and not target:  # the first card a bot plays
                target["seq"] = seq
                entered.set()
                assert held.wait(HANG)
            real(game_id, seq, action, epoch, memories)

        store.append_action = slow  # type: ignore[method-assign]
        ann = SeatClient(client, made["code"], made["token"])  # seat 0 plays its own turns
        ann.start()
        try:
            assert client.post(f"/api/tables/{made['code']}/start", json={"token": made["token"]}).status_code == 200
            assert entered.wait(HANG)
            thinks = len(asked)
            assert service.loop is not None
            service.loop.call_soon_threadsafe(service._arm, table)  # as a socket closing does
            client.get("/api/meta")  # (the loop has run the re-armed clock by the time this answers)
            client.get("/api/meta")
            assert len(asked) == thinks, "a second decision started for the turn being stored"
        finally:
            held.set()
        ann.join()  # (a table stalled here never ends: the per-test timeout reports it)
        assert ann.error is None and ann.messages[-1]["view"]["phase"] == "over", ann.error


def test_a_step_runs_to_its_end_when_its_caller_goes_away(store: Store) -> None:
    """A socket that sends an action and closes at once cancels its handler while the action is
    being written: the step still ends (the write applied and shown). Cut at its write, a start
    left its deal stored but not dealt, and the table waited for ever."""
    held, entered = threading.Event(), threading.Event()
    with TestClient(create_app(store, practice=True)) as client:
        code, tokens = four_people(client)
        token, version, action = turn(client, code, tokens)
        service: TableService = client.app.state.service  # type: ignore[attr-defined]
        real = store.append_action

        def slow(game_id: int, seq: int, data: dict[str, Any], epoch: int | None = None,
                 memories: Any = None) -> None:
            if seq == version:
                entered.set()
                assert held.wait(HANG)
            real(game_id, seq, data, epoch, memories)

        store.append_action = slow  # type: ignore[method-assign]
        assert service.loop is not None
        caller = asyncio.run_coroutine_threadsafe(service.run("act", code, token, version, action), service.loop)
        try:
            assert entered.wait(HANG)
            caller.cancel()  # the handler is cancelled while the write is under way
        finally:
            held.set()
        while state(client, code)["version"] == version:  # (a hang if the step was cut)
            entered.wait(0.05)
        assert len(store.load_game(code).actions) == version + 1  # type: ignore[union-attr]


def play_to_the_end(client: TestClient, finish: Any, store: Store) -> tuple[str, str]:
    """A one-deal table of a person and three random bots, its end written by ``finish``
    instead of the store's own method: its code, and the errors its person was told."""
    store.finish_game = finish  # type: ignore[method-assign]
    made = create(client, seed=None, bots="random", deals=1)
    ann = SeatClient(client, made["code"], made["token"])
    ann.start()
    client.post(f"/api/tables/{made['code']}/start", json={"token": made["token"]})
    ann.join()
    assert ann.error is None, ann.error
    while state(client, made["code"])["table"]["status"] != "over":
        time.sleep(0.05)  # (the end is recorded, or given up, after the last card is seen)
    return made["code"], "; ".join(m["message"] for m in ann.messages if m["type"] == "error")


def test_an_end_the_store_refuses_for_good_is_tried_once_and_said_and_counted(store: Store) -> None:
    """Issue 55: a record that can never be written (here: the database refuses its data) must
    not be retried forever; the table ends, its watchers are told, the metrics count it."""
    tries = []

    def refused(game_id: int, results: Any) -> None:
        tries.append(game_id)
        raise ValueError("the database refuses this record")

    with TestClient(create_app(store)) as client:
        code, said = play_to_the_end(client, refused, store)
        assert "could not keep it in the history" in said
        assert 'callbreak_unrecorded_games_total 1.0' in client.get("/metrics").text
    assert len(tries) == 1
    assert store.load_game(code).status == "unrecorded"  # type: ignore[union-attr]  (not resumed)


def test_an_end_not_written_while_the_store_is_away_is_written_once_it_is_back(store: Store) -> None:
    finish = store.finish_game
    tries = []

    def away_twice(game_id: int, results: Any) -> None:
        tries.append(game_id)
        if len(tries) <= 2:
            raise OperationalError("INSERT ...", {}, ConnectionError("the database is restarting"))
        finish(game_id, results)

    with TestClient(create_app(store)) as client:
        code, said = play_to_the_end(client, away_twice, store)
        assert said == ""
    assert len(tries) == 3
    assert store.load_game(code).status == "over"  # type: ignore[union-attr]
