"""Small widgets shared by the terminal screens."""

from __future__ import annotations

from collections.abc import Callable

from rich.style import Style
from textual import events
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


class Fitted(Static):
    """A Static whose content is fitted to its size (wrapped messages, rows that fit): ``refit``
    is called again whenever the widget is resized, once the new layout is done."""

    def __init__(self, refit: Callable[[], None], *, id: str | None = None) -> None:  # noqa: A002
        super().__init__(id=id)
        self._refit = refit

    def on_resize(self, event: events.Resize) -> None:
        self.call_after_refresh(self._refit)
