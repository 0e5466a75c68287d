"""Small widgets shared by the terminal screens."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from rich.console import Console
from rich.style import Style
from rich.text import Text
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


def newest_lines(messages: Iterable[Text], status: Static, console: Console) -> Text:
    """The newest ``messages``, wrapped to the ``status`` widget, as many lines as it shows: a
    long message (a hint and its reason) must not push the newest one out of sight."""
    width = status.content_size.width or 78
    height = status.content_size.height or 3
    lines: list[Text] = []
    for message in reversed(list(messages)):
        lines[:0] = list(message.wrap(console, width))
        if len(lines) >= height:
            break
    return Text("\n").join(lines[-height:])
