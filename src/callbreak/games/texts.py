"""Each game's rules in the project's own words, as shipped with the package
(``callbreak/games/rules/<game>.md``, Markdown): what ``callbreak rules GAME`` prints and the web
table's Rules link shows.

>>> rules_text("donut").splitlines()[0]
'# Donut'
>>> rules_text("call-bridge") == rules_text("callbreak")  # Call Bridge: Call Break's presets
True
"""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable

from callbreak.games.registry import game_info


def has_rules(name: str) -> bool:
    """Whether the rules of the registered game ``name`` ship with the package."""
    return _path(game_info(name).name).is_file()


def _path(name: str) -> Traversable:
    return resources.files("callbreak.games").joinpath("rules", f"{name}.md")


def rules_text(name: str) -> str:
    """The rules of the registered game ``name`` (Markdown). A game registered without a rules
    text (one of a plug-in) gets its title and description, and says so.

    Raises :class:`~callbreak.core.errors.RulesError` for a game that is not registered.
    """
    info = game_info(name)  # an alias (call-bridge) reads its game's rules
    if _path(info.name).is_file():
        return _path(info.name).read_text(encoding="utf-8")
    return (f"# {info.title}\n\n{info.description}\n\nNo written rules came with this game; its "
            "module's documentation describes it.\n")
