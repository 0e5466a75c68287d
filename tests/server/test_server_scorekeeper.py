"""The scorekeeper: checked deals, totals from the engine's scoring, saved and shared by link."""

from __future__ import annotations

from server_helpers import client_fixture, store_fixture  # noqa: F401 (fixtures)
from starlette.testclient import TestClient


def deal(calls: list[int], won: list[int], blind: list[bool] | None = None) -> dict[str, object]:
    return {"calls": calls, "won": won, "blind": blind or [False] * 4}


def test_totals_in_tenths_saved_and_shared(client: TestClient) -> None:
    r = client.post("/api/sheets", json={"preset": "callbreak", "names": ["Asha", "Bikash", "Chandra", "Dipa"],
                                         "deals": [deal([3, 4, 2, 4], [4, 4, 1, 4])]})
    assert r.status_code == 200
    made = r.json()
    sheet = made["sheet"]
    # 3 called, 4 won: 3.1; made exactly: call; missed: minus the call.
    assert sheet["rows"][0]["points"] == [31, 40, -20, 40]
    assert sheet["totals_text"] == ["3.1", "4", "-2", "4"]
    assert made["link"] == f"/s/{made['code']}"
    code, key = made["code"], made["key"]
    second = {**sheet, "deals": [*sheet["deals"], deal([2, 2, 5, 3], [2, 1, 6, 4])]}
    r = client.put(f"/api/sheets/{code}", json={"key": key, "sheet": second})
    assert r.status_code == 200
    assert r.json()["sheet"]["totals"] == [31 + 20, 40 - 20, -20 + 51, 40 + 31]
    shared = client.get(f"/api/sheets/{code.lower()}").json()["sheet"]
    assert shared["totals"] == [51, 20, 31, 71] and shared["leaders"] == [3]
    assert key not in client.get(f"/api/sheets/{code}").text


def test_the_link_alone_cannot_edit(client: TestClient) -> None:
    made = client.post("/api/sheets", json={"preset": "callbreak"}).json()
    r = client.put(f"/api/sheets/{made['code']}", json={"key": "guess", "sheet": made["sheet"]})
    assert r.status_code == 403 and r.json()["error"] == "bad_key"
    assert client.get("/api/sheets/NOSUCHSHEET1").status_code == 404


def test_blind_calls_double_and_bonus_calls_score_their_points(client: TestClient) -> None:
    r = client.post("/api/sheets/check", json={"preset": "567", "deals": [
        deal([3, 2, 4, 1], [3, 1, 5, 4], [True, True, False, False])]})
    assert r.status_code == 200
    assert r.json()["rows"][0]["points"] == [60, -40, 41, 13]
    r = client.post("/api/sheets/check", json={"preset": "call-bridge-simple", "deals": [
        deal([8, 2, 2, 2], [8, 2, 2, 1])]})
    assert r.json()["rows"][0]["points"][0] == 130


def test_a_deal_must_add_up_to_13_tricks_and_calls_must_be_in_range(client: TestClient) -> None:
    cases = [
        (deal([3, 3, 3, 3], [4, 4, 4, 4]), "add up to 13"),
        (deal([0, 3, 3, 3], [4, 4, 4, 1]), "outside 1..13"),
        (deal([3, 3, 3, 3], [4, 4, 4, 1], [True, False, False, False]), "no blind calls"),
        ({"calls": [1, 2, 3], "won": [13, 0, 0, 0]}, "four whole numbers"),
        ({"calls": [1, 2, 3, "x"], "won": [13, 0, 0, 0]}, "four whole numbers"),
    ]
    for bad, words in cases:
        r = client.post("/api/sheets/check", json={"preset": "callbreak", "deals": [bad]})
        assert r.status_code == 400 and words in r.json()["message"], (bad, r.json())
    r = client.post("/api/sheets", json={"preset": "nope"})
    assert r.status_code == 400 and "unknown preset" in r.json()["message"]
    r = client.post("/api/sheets", json={"names": ["a", "b"]})
    assert r.status_code == 400
