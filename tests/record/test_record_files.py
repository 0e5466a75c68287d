"""Game records: round trip, replay of every state, redaction, and refusal of corrupt records."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from callbreak.core import CHANCE, Match, RecordError, make_rules
from callbreak.core.actions import Redeal
from callbreak.core.cards import cards_of
from callbreak.core.dealing import Dealer
from callbreak.record import (
    FORMAT,
    HIDDEN,
    VERSION,
    dumps,
    from_json,
    loads,
    narrate,
    record_of,
    redact,
    replay,
    replay_states,
)


def _finished(preset: str = "callbreak", seed: int = 1) -> Match:
    m = Match(make_rules(preset))
    d = Dealer(seed)
    rng = random.Random(seed)
    while not m.is_over:
        if m.to_act == CHANCE:
            m.apply(d.chance(m, stop=len(m.results) >= 2))
        else:
            m.apply(rng.choice(m.legal_actions()))
    return m


def _json(m: Match) -> dict[str, Any]:
    return json.loads(dumps(record_of(m, seats=["ana", "bo", "cy", "di"])))


def test_record_header_and_round_trip() -> None:
    m = _finished()
    data = _json(m)
    assert (data["format"], data["version"], data["seats"]) == (FORMAT, VERSION, ["ana", "bo", "cy", "di"])
    assert VERSION == 2 and (data["game"], data["players"]) == ("callbreak", 4)
    assert data["options"] == m.rules.to_dict()  # every option spelled out
    assert "rules" not in data  # version 2 names them options, as every game does
    assert sum(1 for a in data["actions"] if a["type"] == "deal") >= 5
    assert data["result"]["totals"] == [t / 10 for t in m.totals]
    rec = loads(json.dumps(data))
    assert rec.actions == tuple(m.history) and rec.rules == m.rules
    assert replay(rec).snapshot() == m.snapshot()


def test_call_bridge_is_one_game_whichever_way_it_is_named() -> None:
    """``new_game("call-bridge")`` (the old game name, now an alias) and Call Break under the
    ``call-bridge`` preset are the same engine, recorded alike as ``callbreak`` and titled Call
    Bridge wherever a record is shown."""
    from callbreak.games.registry import new_game

    games = [new_game("call-bridge"), new_game("callbreak", preset="call-bridge")]
    assert {type(g) for g in games} == {Match} and games[0].rules == games[1].rules
    texts = []
    for g in games:
        d = Dealer(3)
        rng = random.Random(3)
        while len(g.results) < 1:
            g.apply(d.chance(g) if g.to_act == CHANCE else rng.choice(g.legal_actions()))
        texts.append(dumps(record_of(g, ["ana", "bo", "cy", "di"])))
    assert texts[0] == texts[1] and json.loads(texts[0])["game"] == "callbreak"
    assert games[0].snapshot() == games[1].snapshot()
    record = loads(texts[0])
    assert record.title == "Call Break · Call Bridge (pagat.com)"
    assert next(narrate(record)).startswith("Call Break · Call Bridge (pagat.com) record: ")
    assert replay(record).snapshot() == games[0].snapshot()
    # Named by its alias, a game is still recorded as Call Break's.
    assert record_of(games[0], name="call-bridge").game == "callbreak"
    # The default preset's title is the game's own.
    assert loads(dumps(record_of(_finished()))).title == "Call Break"


def _state_of(game: Match) -> dict[str, Any]:
    """Every part of a finished Call Break state a player could see or a replay could get wrong,
    as the fixture's writer took it from the old code (cards by name, points in tenths)."""
    def names(mask: int) -> list[str]:
        return [str(c) for c in cards_of(mask)]

    return {
        "phase": game.phase.value, "dealer": game.dealer, "hands": [names(h) for h in game.hands],
        "dealt": [names(h) for h in game.dealt], "calls": list(game.calls),
        "blind": list(game.blind), "won": list(game.won), "trump": int(game.trump),
        "leader": game.leader,
        "tricks": [[t.leader, [str(c) for c in t.cards], t.winner] for t in game.tricks],
        "results": [[r.number, r.dealer, list(r.calls), list(r.blind), list(r.won),
                     list(r.points), r.tiebreak] for r in game.results],
        "totals": list(game.totals), "winners": list(game.winners),
        "history": [a.to_json() for a in game.history],
    }


def test_a_record_naming_the_game_call_bridge_loads_and_replays_to_its_final_state() -> None:
    """A version-2 record written while Call Bridge was a game of its own (fixtures/
    write_v2_call_bridge.py, commit 52e32b5) loads as Call Break's under the same rules and
    replays to the state the old code reached: every part a player sees, every card, every
    point."""
    fixtures = Path(__file__).parent / "fixtures"
    text = (fixtures / "v2-call-bridge.json").read_text()
    final = json.loads((fixtures / "v2-call-bridge.final.json").read_text())
    assert json.loads(text)["game"] == "call-bridge" and json.loads(text)["version"] == 2
    record = loads(text)
    assert record.game == "callbreak" and record.rules == make_rules("call-bridge")
    game = replay(record)
    assert _state_of(game) == final["state"] and len(game.history) == final["actions"]
    assert game.is_over and list(game.winners) == final["winners"]
    now = game.result_json()
    assert {k: now[k] for k in ("deals", "totals", "scores", "winners", "chips", "finished")} == {
        k: final[k] for k in ("deals", "totals", "scores", "winners", "chips", "finished")}
    # Written again, it names Call Break and replays the same.
    again = loads(dumps(record))
    assert json.loads(dumps(again))["game"] == "callbreak"
    assert replay(again).snapshot() == game.snapshot()


@pytest.mark.parametrize("preset", ["catsatcards", "567", "call-bridge", "nepal-traditional", "no-trump"])
def test_replay_rebuilds_every_state(preset: str) -> None:
    """Replaying a record passes through exactly the states the live match went through."""
    m = Match(make_rules(preset))
    d = Dealer(7)
    rng = random.Random(7)
    states = [m.snapshot()]
    while not m.is_over:
        if m.to_act == CHANCE:
            m.apply(d.chance(m, stop=len(m.results) >= 2))
        else:
            m.apply(rng.choice(m.legal_actions()))
        states.append(m.snapshot())
    replayed = [s.snapshot() for s in replay_states(loads(dumps(record_of(m))))]
    assert replayed == states


def test_unfinished_match_records_and_replays() -> None:
    m = Match(make_rules("callbreak"))
    d = Dealer(2)
    for _ in range(30):
        m.apply(d.chance(m) if m.to_act == CHANCE else m.legal_actions()[-1])
    data = _json(m)
    assert data["result"]["finished"] is False
    assert replay(from_json(data)).snapshot() == m.snapshot()


# --- corrupt and tampered records ----------------------------------------------------------


def _refused(data: Any, words: str) -> None:
    text = data if isinstance(data, str) else json.dumps(data)
    with pytest.raises(RecordError, match=words):
        loads(text)


def _first(data: dict[str, Any], kind: str, skip: int = 0) -> int:
    return [i for i, a in enumerate(data["actions"]) if a["type"] == kind][skip]


def test_broken_json_refused() -> None:
    _refused('{"format": "callbreak-record", "version": 1,', "not a JSON record")
    _refused("[1, 2]", "must be a JSON object")
    with pytest.raises(RecordError):
        loads(b"\xff\xfe\x00")


def test_unknown_version_and_format_refused() -> None:
    data = _json(_finished())
    _refused(data | {"version": 99}, "unsupported record version 99")
    _refused(data | {"format": "pgn"}, "not a game record .*'pgn'")
    # One reader for every game: the game is looked up in the registry, and a Call Break record
    # relabelled as another game is refused by that game's own options check.
    _refused(data | {"game": "batak"}, "unknown game 'batak'; games are: callbreak")
    _refused(data | {"game": "batak-ihaleli"}, "bad options in record: unknown option")
    _refused(data | {"options": {"max_call": 99}}, "bad options in record: max_call")
    _refused(data | {"seats": ["a", "b"]}, "seats must be a list of 4 names")
    _refused(data | {"players": 5}, r"players must be one of \[4\] for Call Break, got 5")
    _refused(data | {"actions": "none"}, "actions must be a list")
    # Version 1 (Call Break's first format) keeps its "rules": without them it is refused.
    old = {k: v for k, v in data.items() if k not in ("options", "players")} | {"version": 1}
    _refused(old, "bad options in record")
    assert loads(json.dumps(old | {"rules": data["options"]})).actions


def test_illegal_action_refused_naming_it() -> None:
    data = _json(_finished())
    i = _first(data, "play", skip=1)  # the second card of the first trick
    seat = data["actions"][i]["seat"]
    # A card the seat does not hold: one from the next seat's hand.
    deal = data["actions"][_first(data, "deal")]
    other = deal["hands"][(seat + 1) % 4][0]
    data["actions"][i]["card"] = other
    _refused(data, rf"action {i} \(.*\"play\".*\) is refused: seat {seat} does not hold {other}")


def test_out_of_turn_action_refused_naming_it() -> None:
    data = _json(_finished())
    i = _first(data, "call")
    data["actions"][i]["seat"] = (data["actions"][i]["seat"] + 1) % 4
    _refused(data, rf"action {i} .* is refused: it is seat")


def test_duplicated_card_refused() -> None:
    """Cards that do not add up: the same card dealt to two seats."""
    data = _json(_finished())
    i = _first(data, "deal")
    hands = data["actions"][i]["hands"]
    hands[1][0] = hands[0][0]
    _refused(data, rf"action {i} \(deal\) is refused: {hands[0][0]} is dealt twice")


@pytest.mark.parametrize(("entry", "words"), [
    ({"type": "play", "seat": 1, "card": "1S"}, "action 1: malformed play"),
    ({"type": "play", "seat": 1}, "action 1: play action is missing 'card'"),
    ({"type": "call", "seat": "1", "tricks": 3}, "action 1: expected a whole number"),
    ({"type": "jump"}, "action 1: unknown action type 'jump'"),
    ([1, 2], "action 1: an action must be an object"),
])
def test_malformed_action_refused_naming_it(entry: Any, words: str) -> None:
    data = _json(_finished())
    data["actions"][1] = entry
    _refused(data, words)


def test_wrong_totals_refused() -> None:
    data = _json(_finished())
    data["result"]["totals"][2] += 1
    _refused(data, r"result.totals\[2\] says")


def test_wrong_deal_score_and_winners_refused() -> None:
    data = _json(_finished())
    data["result"]["deals"][1]["points"][0] = 99.0
    _refused(data, r"result.deals\[1\].points\[0\] says 99.0")
    data = _json(_finished())
    data["result"]["winners"] = [w for w in range(4) if w not in data["result"]["winners"]][:1]
    _refused(data, r"result.winners.* says")


def test_missing_result_still_loads() -> None:
    data = _json(_finished())
    del data["result"]
    assert loads(json.dumps(data)).actions


# --- redaction --------------------------------------------------------------------------------


def test_redact_hides_other_seats_unplayed_cards() -> None:
    m = Match(make_rules("callbreak"))
    d = Dealer(4)
    while len(m.history) < 2 + 4 + 10:  # draw, deal, four calls, ten cards played
        m.apply(d.chance(m) if m.to_act == CHANCE else m.legal_actions()[0])
    rec = record_of(m)
    for seat in range(4):
        data = redact(rec, seat)
        hands = data["actions"][_first(data, "deal")]["hands"]
        played = {a["card"] for a in data["actions"] if a["type"] == "play"}
        assert hands[seat] == [c.text for c in cards_of(m.dealt[seat])]  # own hand in full
        for s in range(4):
            if s == seat:
                continue
            shown = [c for c in hands[s] if c != HIDDEN]
            assert set(shown) == {c.text for c in cards_of(m.dealt[s])} & played
            assert len(hands[s]) == 13
        assert data["redacted_for"] == seat
        # A redacted record is for reading, not replay: loading it is refused clearly.
        with pytest.raises(RecordError, match="malformed deal"):
            loads(json.dumps(data))


def test_redact_shows_a_redeal_claimants_hand() -> None:
    """Seed 000: a claimant shows the hand to everyone, so redaction shows it too."""
    m = Match(make_rules("catsatcards"))
    d = Dealer(0)
    rng = random.Random(0)
    claimed = None
    for _ in range(5000):
        if m.to_act == CHANCE:
            if claimed is not None:
                break
            m.apply(d.chance(m))
            continue
        acts = m.legal_actions()
        claim = [a for a in acts if isinstance(a, Redeal) and a.claim]
        if claim:
            claimed = claim[0].seat
            m.apply(claim[0])
        else:
            m.apply(rng.choice(acts))
    assert claimed is not None
    viewer = (claimed + 1) % 4
    data = redact(record_of(m), viewer)
    last_deal = [a for a in data["actions"] if a["type"] == "deal"][-1]  # the deal thrown in
    assert last_deal["hands"][claimed] == [c.text for c in cards_of(m.dealt[claimed])]
    hidden_seat = next(s for s in range(4) if s not in (claimed, viewer))
    assert set(last_deal["hands"][hidden_seat]) == {HIDDEN}


def test_narrate_reads_deal_by_deal() -> None:
    m = _finished("567", seed=3)
    lines = list(narrate(record_of(m, seats=["ana", "bo", "cy", "di"])))
    text = "\n".join(lines)
    assert text.count("Deal ") == len(m.results)
    assert text.count("Trick 13:") == len(m.results)
    assert "Winner" in text and "Chips:" in text
