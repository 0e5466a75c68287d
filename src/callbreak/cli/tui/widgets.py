"""Small widgets shared by the terminal screens."""

from __future__ import annotations

from rich.style import Style
from textual.widgets import Static


class Clickable(Static):
    """A Static whose clickable spans (``@click`` meta) keep their own colours.

    Textual paints every clickable span with the widget's link colour, which would turn the red
    hearts and diamonds of a hand white; cards and calls are clickable, so links here add
    nothing to the style. The hover style (CSS ``link-style-hover``) still applies.
    """

    @property
    def link_style(self) -> Style:
        return Style()
