"""Adding a game takes one module and one registry entry: a toy game registered through the
public API plays everywhere a registered game plays (rules protocol, records, bots)."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from callbreak.bots import BotError, bots_for, make_bot
from callbreak.bots.base import plays
from callbreak.core import CHANCE, IllegalActionError
from callbreak.core.game import Game, GameView
from callbreak.games import game_info, games, new_game, register_game, registry
from callbreak.record import dumps, loads, narrate, record_of, redact, replay
from toy_whist import PlainWhist, registered


@pytest.fixture(scope="module", autouse=True)
def _plain_whist_registered() -> Iterator[None]:
    # Registered for this module's tests only, not on import: importing this module at collection
    # used to leave the game in the registry for every module collected and run after it.
    with registered():
        yield


def _play_out(seed: int) -> Game:
    game = new_game("plain-whist", hands=2)
    chance = game_info("plain-whist").dealer(seed)
    bots = [make_bot("random", seed=seed + s, game="plain-whist") for s in range(2)]
    while not game.is_over:
        seat = game.to_act
        game.apply(chance.chance(game) if seat == CHANCE else bots[seat].decide(game.view(seat), 1.0).action)
    return game


def test_the_registry_lists_the_new_game_with_what_it_declared() -> None:
    info = game_info("plain-whist")
    assert info in games()
    assert (info.title, info.seats, info.default_seats) == ("Plain whist for two", (2,), 2)
    assert [p.name for p in info.presets] == ["plain-whist"]
    with pytest.raises(Exception, match="Plain whist for two is for 2 players, not 4"):
        new_game("plain-whist", players=4)


def test_the_new_game_plays_to_the_end_through_the_protocol() -> None:
    game = _play_out(seed=3)
    assert isinstance(game, Game) and isinstance(game, PlainWhist)
    assert isinstance(game.view(0), GameView)
    assert len(game.result_json()["hands"]) == 2
    assert sum(game.scores) == 26  # a point a trick, 13 tricks a hand
    assert game.winners and all(game.scores[s] == max(game.scores) for s in game.winners)


def test_an_illegal_card_is_refused_and_changes_nothing() -> None:
    game = new_game("plain-whist")
    game.apply(game_info("plain-whist").dealer(1).chance(game))
    leader = game.to_act
    assert leader is not None
    game.apply(game.legal_actions()[0])
    follower = game.to_act
    assert follower is not None and follower != leader
    held = game.view(follower).hand
    assert held is not None
    legal = set(game.view(follower).legal_cards)
    wrong = [c for c in held if c not in legal]
    if not wrong:
        pytest.skip("the follower happens to hold only legal cards")
    before = game.snapshot()
    from callbreak.core import Play

    with pytest.raises(IllegalActionError, match="does not follow suit"):
        game.apply(Play(follower, wrong[0]))
    assert game.snapshot() == before


def test_its_record_round_trips_replays_and_narrates() -> None:
    game = _play_out(seed=5)
    record = record_of(game, seats=["ann", "bob"])
    again = loads(dumps(record))
    assert again.game == "plain-whist" and again.players == 2
    assert replay(again).snapshot() == game.snapshot()
    text = "\n".join(narrate(again))
    assert "Plain whist for two record" in text and text.count("Trick 13:") == 2
    hidden = redact(record, 0)
    first_deal = next(a for a in hidden["actions"] if a["type"] == "deal")
    assert first_deal["hands"][1] and all(c != "??" for c in first_deal["hands"][1]), \
        "every card of a whist hand is played, so the redacted record shows them after the deal"


def test_bots_say_which_games_they_play() -> None:
    """The related games' bots ask a game what it is when it matters, so a game registered after
    them (this one) gets them; Call Break's own bots stay Call Break's."""
    offered = set(bots_for("plain-whist"))
    assert {"random", "heuristic", "search"} <= offered and offered <= {
        "random", "heuristic", "search", "openspiel-ismcts"}
    with pytest.raises(BotError, match="does not play plain-whist"):
        make_bot("expert", game="plain-whist")


@pytest.mark.parametrize("spec", ["heuristic", "search:samples=2"])
def test_the_related_games_bots_play_the_new_game(spec: str) -> None:
    game = new_game("plain-whist", hands=1)
    chance = game_info("plain-whist").dealer(8)
    bots = [make_bot(spec, seed=s, game="plain-whist") for s in range(2)]
    while not game.is_over:
        seat = game.to_act
        game.apply(chance.chance(game) if seat == CHANCE else bots[seat].decide(game.view(seat), 0.2).action)
    assert sum(game.scores) == 13


def test_the_arena_plays_the_new_game_in_duplicate() -> None:
    from callbreak.arena import ArenaPlan, run_arena

    plan = ArenaPlan(("random", "random"), game_info("plain-whist").make_options(None, {"hands": 1}),
                     seed=4, sets=2, keep_records=True, game="plain-whist")
    report = run_arena(plan, preset="plain-whist")
    assert len(report.tables) == 2 * 2  # two seatings a set: each player holds each hand once
    for table in report.tables:
        assert sum(table.totals) == 13 * 10  # tenths: a point a trick
        assert replay(loads(table.record or "")).is_over
    firsts = {loads(t.record or "").actions[0] for t in report.tables if t.set_index == 0}
    assert len(firsts) == 1  # the same deal at both seatings of a set


def test_a_web_table_plays_the_new_game(tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from callbreak.server.app import create_app
    from callbreak.store import Store

    store = Store(f"sqlite:///{tmp_path / 'web.db'}")
    with TestClient(create_app(store)) as client:
        meta = client.get("/api/meta").json()
        listed = next(g for g in meta["games"] if g["name"] == "plain-whist")
        assert (listed["min_players"], listed["max_players"]) == (2, 2)
        assert {"random", "heuristic", "search"} <= set(listed["bots"])
        r = client.post("/api/tables", json={"name": "Ann", "settings": {
            "game": "plain-whist", "players": 2, "bots": "random", "bot_delay": 0, "timer": None,
            "options": {"hands": 1}}})
        assert r.status_code == 200, r.text
        code, token = r.json()["code"], r.json()["token"]
        assert client.post(f"/api/tables/{code}/start", json={"token": token}).status_code == 200
        while True:
            s = client.post(f"/api/tables/{code}/state", json={"token": token}).json()
            view = s["view"]
            assert set(view) >= {"hand", "trick", "scores", "legal"} and "hands" not in view
            if view["phase"] == "over":
                break
            if view["to_act"] == 0 and view["legal"]:
                r = client.post(f"/api/tables/{code}/action", json={
                    "token": token, "version": s["version"], "action": view["legal"][0]})
                assert r.status_code == 200, r.text
            else:
                time.sleep(0.002)
        assert sum(view["scores"]) == 13
        history = client.get(f"/api/history/{code}").json()
        assert history["game"] == "plain-whist" and len(history["frames"]) == 26
    store.close()


def test_the_terminal_app_plays_the_new_game_by_keys(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import asyncio

    from callbreak.cli.tui.app import PlayApp
    from callbreak.cli.tui.session import Session

    monkeypatch.setenv("CALLBREAK_DATA_DIR", str(tmp_path))
    session = Session.new("plain-whist", options={"hands": "1"}, opponents=["random"], seed=5)
    app = PlayApp(session, delay=0.0, think=0.02)
    pressed = 0

    async def main() -> None:
        nonlocal pressed
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(4000):
                if not app.is_running or session.is_over:
                    break
                assert app.mode != "broken", app.log_lines[-3:]
                if app.mode == "act":
                    pressed += 1
                await pilot.press("enter")  # a card (the one under the cursor), or go on
                await pilot.pause(0.01)

    asyncio.run(main())
    assert session.is_over, "the game reached its end through the app"
    mine = [a for a in session.game.history if getattr(a, "seat", None) == session.human]
    assert mine and pressed >= len(mine)  # the person's cards came from key presses
    assert replay(loads(session.save_path.read_text())).scores == session.game.scores  # saved whole


def test_openspiel_ismcts_plays_the_games_that_have_an_encoding() -> None:
    """The IS-MCTS bot needs the game's own observation encoding (its OpenSpiel game is built
    on it): a game registered without one is not offered it, whatever engine it runs on."""
    bare = dataclasses.replace(game_info("plain-whist"), name="plain-whist-bare", encoding=None)
    register_game(bare)
    try:
        assert plays("openspiel-ismcts", "plain-whist")
        assert not plays("openspiel-ismcts", "plain-whist-bare")
    finally:
        del registry._GAMES["plain-whist-bare"]
