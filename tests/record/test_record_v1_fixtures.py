"""Records written before the games shared one format still load, with the one reader.

The fixtures (tests/record/fixtures, written by ``write_v1_fixtures.py`` with the code of commit
4278c60) are finished games in both version-1 formats: Call Break's (``"rules"``, four seats;
presets callbreak, 567 with blind calls and chips, catsatcards with redeal claims, and a Call
Bridge table stopped after three deals) and the related games' (``"game"``, ``"players"``,
``"options"``, written by the old ``dumps_game``). Beside each is its final state as the old
code computed it. Each must load with :func:`callbreak.record.loads`, replay to that state, and
dump again as a version-2 record that loads and replays to the same state.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from callbreak.core.errors import RecordError
from callbreak.core.match import Match
from callbreak.core.rules import make_rules
from callbreak.games import ContractGame, game_info
from callbreak.i18n import say
from callbreak.record import VERSION, dumps, loads, narrate, redact, replay, replay_states, seat_label

FIXTURES = Path(__file__).parent / "fixtures"
CALL_BREAK = ["callbreak", "567", "catsatcards", "call-bridge"]
RELATED = ["batak-ihaleli", "batak-koz-maca", "snarples", "donut", "horsethief"]
NAMES = CALL_BREAK + RELATED


def _fixture(name: str) -> tuple[str, dict[str, Any]]:
    text = (FIXTURES / f"v1-{name}.json").read_text()
    final = json.loads((FIXTURES / f"v1-{name}.final.json").read_text())
    return text, final


def test_there_is_a_fixture_of_each_game_and_each_is_small() -> None:
    written = sorted(p.name for p in FIXTURES.glob("v1-*.json"))
    assert written == sorted([f"v1-{n}.json" for n in NAMES] + [f"v1-{n}.final.json" for n in NAMES])
    assert all(p.stat().st_size < 40_000 for p in FIXTURES.glob("v1-*.json"))


def _check_final(game: Any, final: dict[str, Any]) -> None:
    """The replayed game's state is the one the old code computed."""
    assert game.is_over and final["finished"] is True
    assert len(game.history) == final["actions"]
    assert list(game.winners) == final["winners"]
    now = game.result_json()
    if isinstance(game, Match):
        assert [t / 10 for t in game.totals] == final["totals"]
        assert list(game.scores) == final["totals"]  # the protocol's scores: points, as floats
        assert now["deals"] == final["deals"]
        assert now["chips"] == final["chips"]
        assert len(game.results) == len(final["deals"])
    else:
        assert isinstance(game, ContractGame)
        assert list(game.scores) == final["scores"]
        assert now["hands"] == final["hands"]
        assert len(game.results) == len(final["hands"])
    assert {k: now[k] for k in final if k in now} == {k: final[k] for k in final if k in now}


def test_an_old_records_hand_notes_are_said_in_each_language() -> None:
    """The notes are derived on replay, not stored: an old record's hands have their words too,
    a list of seats said seat by seat."""
    game = replay(loads(_fixture("donut")[0]))
    assert isinstance(game, ContractGame)
    first, dropped = game.results[0], game.results[10]
    assert first.note == "donuts: seat 1, seat 3" and first.words is not None
    assert say(first.words, "en") == "donuts: seat 2, seat 4"
    assert say(first.words, "bn") == "ডোনাট (একটিও পিঠ পায়নি): আসন ২, আসন ৪"
    assert dropped.note == "everyone dropped: the dealer (seat 0) takes 3 off" and dropped.words is not None
    assert say(dropped.words, "ne") == "सबै बसे: डिलर (सिट १) को ३ घट्छ"


@pytest.mark.parametrize("name", NAMES)
def test_version_1_record_loads_and_replays_to_the_old_final_state(name: str) -> None:
    text, final = _fixture(name)
    data = json.loads(text)
    assert data["version"] == 1  # written by the old code, untouched
    record = loads(text)
    if name in CALL_BREAK:
        assert "rules" in data and "options" not in data and "players" not in data
        # Call Break's first format names no game (or "callbreak"): Call Bridge was its preset.
        assert record.game == "callbreak" and record.players == 4
        assert record.rules == make_rules(final["preset"])
    else:
        assert (record.game, record.players) == (name, final["players"])
        assert record.options == game_info(name).make_options(None, final["options"])
    assert record.seats == tuple(data["seats"]) and record.meta == data["meta"]
    game = replay(record)
    _check_final(game, final)


@pytest.mark.parametrize("name", NAMES)
def test_version_1_record_dumps_again_as_version_2_replaying_the_same(name: str) -> None:
    text, final = _fixture(name)
    old = loads(text)
    game = replay(old)
    again = json.loads(dumps(old))
    assert again["version"] == VERSION == 2
    assert set(again) == {"format", "version", "game", "players", "options", "seats", "meta",
                          "actions", "result"}
    assert again["game"] == old.game and again["players"] == old.players
    assert again["actions"] == json.loads(text)["actions"]  # the same actions, written the same way
    new = loads(json.dumps(again))
    assert new == old
    replayed = replay(new)
    assert replayed.snapshot() == game.snapshot()
    _check_final(replayed, final)
    # Every state on the way, not only the last.
    assert [s.snapshot() for s in replay_states(new)] == [s.snapshot() for s in replay_states(old)]


@pytest.mark.parametrize("name", NAMES)
def test_version_1_record_narrates_and_redacts(name: str) -> None:
    text, final = _fixture(name)
    record = loads(text)
    lines = list(narrate(record))
    assert lines[0].startswith(record.title + " record:")
    deals = final["deals"] if "deals" in final else final["hands"]
    assert sum(1 for line in lines if line.startswith("Deal ")) == sum(
        1 for a in record.actions if a.kind == "deal")
    assert sum(1 for line in lines if line.startswith("  Scores:")) == len(deals)
    winners = [seat_label(s, record.seats[s]) for s in final["winners"]]
    assert lines[-1 if final.get("chips") is None else -2].endswith(", ".join(winners))
    data = redact(record, 1)
    assert data["redacted_for"] == 1
    deal_entries = [e for e in data["actions"] if e["type"] == "deal"]
    dealt = [a for a in record.actions if a.kind == "deal"]
    assert [e["hands"][1] for e in deal_entries] == [[c.text for c in a.hands[1]] for a in dealt]
    hidden = json.dumps(data).count('"??"')
    # Every card of a finished Call Break or Batak deal is played, so only a thrown-in deal, a
    # hand sat out or the stock leaves cards to hide; a record that hides any is not replayable.
    if name in ("catsatcards", "snarples", "donut", "horsethief"):
        assert hidden > 0
    if hidden:
        with pytest.raises(RecordError):
            loads(json.dumps(data))


def test_a_tampered_version_1_record_is_still_refused() -> None:
    text, _ = _fixture("horsethief")
    data = json.loads(text)
    data["result"]["scores"][0] += 1
    with pytest.raises(RecordError, match=r"result.scores\[0\] says"):
        loads(json.dumps(data))
    text, _ = _fixture("567")
    data = json.loads(text)
    data["result"]["chips"][0] += 1
    with pytest.raises(RecordError, match=r"result.chips\[0\] says"):
        loads(json.dumps(data))
