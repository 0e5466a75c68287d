"""History, replay and statistics after finished games; a tournament-protocol bot seated by URL."""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
import time
from typing import Any

import httpx
import pytest
from server_helpers import client_fixture, create, state, store_fixture  # noqa: F401 (fixtures)
from starlette.testclient import TestClient

from callbreak.core.rules import make_rules
from callbreak.core.scoring import made
from callbreak.store import Store


def play_out(client: TestClient, code: str, token: str) -> dict:  # type: ignore[type-arg]
    """Seat 0 plays its first ordinary legal action until the game is over."""
    while True:
        s = state(client, code, token)
        view = s["view"]
        if view["phase"] == "over":
            return s
        if view["to_act"] == 0 and view["legal"]:
            ordinary = [a for a in view["legal"] if a["type"] != "look" and not a.get("blind")]
            r = client.post(f"/api/tables/{code}/action",
                            json={"token": token, "version": s["version"], "action": ordinary[0]})
            assert r.status_code == 200, r.text
        else:
            time.sleep(0.002)


def test_the_history_waits_for_the_end_of_a_game_being_stored(client: TestClient, store: Store) -> None:
    """A player sees the game end once its last move is stored; the end's own record (totals,
    winners) is written after. Asked for meanwhile, the history waits for it, not answering
    'no finished game'."""
    events: list[str] = []
    held, entered = threading.Event(), threading.Event()
    real = store.finish_game

    def slow(*args: Any, **kwargs: Any) -> Any:
        entered.set()
        assert held.wait(120)
        events.append("end stored")
        return real(*args, **kwargs)

    store.finish_game = slow  # type: ignore[method-assign]
    made_table = create(client, deals=1, bots="random")
    code, token = made_table["code"], made_table["token"]
    client.post(f"/api/tables/{code}/start", json={"token": token})
    # The game's last move (seat 0's or a bot's) is stored; its step then stores the end, held.
    player = threading.Thread(target=play_out, args=(client, code, token), daemon=True)
    player.start()
    assert entered.wait(120)
    answers: list[Any] = []

    def ask() -> None:
        answers.append(client.get(f"/api/history/{code}"))
        events.append("history answered")

    asking = threading.Thread(target=ask, daemon=True)
    asking.start()
    asking.join(1.0)  # long enough for a history that does not wait to answer before the end is stored
    held.set()
    asking.join(120)
    player.join(120)
    assert events == ["end stored", "history answered"], events
    assert answers[0].status_code == 200 and answers[0].json()["totals"] is not None
    assert [g["code"] for g in client.get("/api/history").json()["games"]] == [code]


def test_finished_games_are_listed_replayable_and_counted(client: TestClient) -> None:
    made_table = create(client, deals=2, bots="random", seed=None)  # a real table: it is counted
    code, token = made_table["code"], made_table["token"]
    client.post(f"/api/tables/{code}/start", json={"token": token})
    final = play_out(client, code, token)["view"]

    games = client.get("/api/history").json()["games"]
    assert [g["code"] for g in games] == [code]
    assert [s["total"] for s in games[0]["seats"]] == final["totals"]
    assert [s["winner"] for s in games[0]["seats"]] == [s in final["winners"] for s in range(4)]

    replay = client.get(f"/api/history/{code}").json()
    assert len(replay["frames"]) == 2 * (4 + 52)  # every call and every card
    assert replay["totals"] == final["totals"] and replay["seats"][0] == "Ann"
    first = replay["frames"][0]
    assert sum(len(h) for h in first["hands"]) == 52 and first["view"]["hand"] is None
    assert all(len(h) == 0 for h in replay["frames"][-1]["hands"])
    assert client.get("/api/history/NOSUCHGAME22").status_code == 404

    rules = make_rules("callbreak")
    ann = next(p for p in client.get("/api/stats").json()["players"] if p["name"] == "Ann")
    results = final["results"]
    assert ann["games"] == 1 and ann["wins"] == (0 in final["winners"]) and ann["deals"] == 2
    assert ann["points"] == final["totals"][0]
    assert ann["call_accuracy"] == sum(made(r["calls"][0], r["won"][0], rules) for r in results) / 2
    assert ann["avg_per_deal_tenths"] == final["totals"][0] / 2
    board = client.get("/api/stats").json()["leaderboard"]
    assert {p["name"] for p in board} == {"Ann", "Random bot"}
    bots = next(p for p in board if p["name"] == "Random bot")
    assert bots["games"] == 3 and bots["deals"] == 6  # the three bot seats, counted by level


def test_a_finished_game_still_running_is_not_in_history_and_vice_versa(client: TestClient) -> None:
    made_table = create(client, deals=1, bots="random")
    client.post(f"/api/tables/{made_table['code']}/start", json={"token": made_table["token"]})
    assert client.get("/api/history").json()["games"] == []
    assert client.get(f"/api/history/{made_table['code']}").status_code == 404


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.process
@pytest.mark.slow
def test_a_tournament_protocol_bot_is_seated_by_url(client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-c", "from callbreak.cli.main import main; main()", "bot-server",
                             "--bot", "random", "--port", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        while True:
            try:
                httpx.get(f"{url}/hi", timeout=2)
                break
            except httpx.TransportError:
                time.sleep(0.1)
        r = client.post("/api/tables", json={"name": "Ann", "settings": {
            "preset": "callbreak", "bots": ["random", "random", "random", url]}})
        assert r.status_code == 400 and "cannot play these rules" in r.json()["message"]
        made_table = create(client, preset="bhoos-tournament", bots=["random", "random", "random", url])
        code, token = made_table["code"], made_table["token"]
        seats = client.post(f"/api/tables/{code}/start", json={"token": token}).json()["seats"]
        assert seats[3]["bot"] == url and seats[3]["name"] == "Remote bot 4"
        with caplog.at_level("WARNING", logger="callbreak.server"):
            final = play_out(client, code, token)["view"]
        assert final["phase"] == "over" and len(final["results"]) == 5
        assert all(sum(r["won"]) == 13 for r in final["results"])
        # Every one of the remote seat's decisions came back legal from the remote bot.
        assert not [r for r in caplog.records if "bot failed" in r.getMessage()]
    finally:
        proc.terminate()
        proc.wait(10)
