"""The web app's Rules link: every game's rules as the package ships them (`callbreak rules`)."""

from __future__ import annotations

from pathlib import Path

from starlette.testclient import TestClient

from callbreak.games import games, rules_text
from callbreak.server.app import create_app
from callbreak.store import Store


def test_the_rules_page_serves_the_shipped_texts(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'web.db'}")
    with TestClient(create_app(store)) as client:
        one = client.get("/rules", params={"game": "donut"})
        assert one.status_code == 200 and one.headers["content-type"].startswith("text/plain")
        assert one.text == rules_text("donut")
        every = client.get("/rules").text
        assert all(rules_text(info.name) in every for info in games())
        alias = client.get("/rules", params={"game": "call-bridge"})  # Call Break's, its section included
        assert alias.status_code == 200 and alias.text == rules_text("callbreak") and "Call Bridge" in alias.text
        missing = client.get("/rules", params={"game": "whist"})
        assert missing.status_code == 404 and "games are: callbreak" in missing.text
        page = client.get("/").text
        assert '<a href="/rules"' in page  # the link every page, the table included, shows
    store.close()
