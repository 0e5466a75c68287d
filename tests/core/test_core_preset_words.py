"""Preset names a player knows: every preset has a display title, and no product text names a rule
source by its file number."""

from __future__ import annotations

import re
from pathlib import Path

from callbreak.core import PRESETS
from callbreak.games import games

SOURCE_NUMBER = re.compile(r"seed ?0[0-9]{2}|\(00[0-4]", re.IGNORECASE)
ROOT = Path(__file__).resolve().parents[2]


def test_every_preset_has_a_title_and_a_description_in_words() -> None:
    for p in PRESETS.values():
        assert p.title.strip(), p.name
        assert not SOURCE_NUMBER.search(p.title) and not SOURCE_NUMBER.search(p.description), p.name
    assert PRESETS["nepal-traditional"].title == "Nepali house rules"
    assert "pagat.com" in PRESETS["call-bridge"].description


def test_titles_are_words_a_player_knows_and_tell_presets_apart() -> None:
    titles = [p.title for p in PRESETS.values()]
    assert len(set(titles)) == len(titles)
    for p in PRESETS.values():
        assert p.title == p.title.strip() and re.search(r"[A-Za-z]", p.title), p.name
        assert not re.search(r"\b00[0-4]\b", p.title + p.description), p.name
    assert PRESETS["callbreak"].title == "Call Break"
    assert PRESETS["567"].title == "567 platform"
    assert PRESETS["bhoos-tournament"].title == "Public bot tournament"
    assert PRESETS["call-bridge"].title == "Call Bridge (pagat.com)"


def test_every_game_and_its_presets_are_described_in_words() -> None:
    for info in games():
        assert info.description and not SOURCE_NUMBER.search(info.description), info.name
        for p in info.presets:
            assert p.title and not SOURCE_NUMBER.search(p.title + p.description), (info.name, p.name)


def test_no_product_text_names_a_rule_source_by_file_number() -> None:
    files = [ROOT / "README.md", *(ROOT / "src").rglob("*.py"), *(ROOT / "src").rglob("*.js"),
             *(ROOT / "src").rglob("*.html")]
    found = [f"{path.relative_to(ROOT)}:{n}" for path in files
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if SOURCE_NUMBER.search(line)]
    assert found == []
