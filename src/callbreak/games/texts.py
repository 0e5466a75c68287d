"""Each game's rules in the project's own words, as shipped with the package
(``callbreak/games/rules/<game>.md``, Markdown): what ``callbreak rules GAME`` prints and the web
table's Rules link shows.

>>> rules_text("donut").splitlines()[0]
'# Donut'
>>> "pagat.com" in rules_text("call-bridge")
True
"""

from __future__ import annotations

from importlib import resources

from callbreak.games.registry import game_info


def has_rules(name: str) -> bool:
    """Whether the rules of the registered game ``name`` ship with the package."""
    return resources.files("callbreak.games").joinpath("rules", f"{name}.md").is_file()


def rules_text(name: str) -> str:
    """The rules of the registered game ``name`` (Markdown). A game registered without a rules
    text (one of a plug-in) gets its title and description, and says so.

    Raises :class:`~callbreak.core.errors.RulesError` for a game that is not registered.
    """
    info = game_info(name)
    if has_rules(name):
        return resources.files("callbreak.games").joinpath("rules", f"{name}.md").read_text(encoding="utf-8")
    return (f"# {info.title}\n\n{info.description}\n\nNo written rules came with this game; its "
            "module's documentation describes it.\n")
