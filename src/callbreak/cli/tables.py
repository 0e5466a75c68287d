"""Tables the CLI prints, at any width, with no word or number cut.

A table is printed as columns when they fit the console: every cell on one line, but for the
columns of running text (a description, a position in words), which wrap at their spaces and
need only room for their longest word (and at least :data:`WRAP_MIN` cells, so that no text
reads a word a line). Narrower, each row becomes a block, its first cell a heading and the others
``column: value`` pairs below it, packed into lines and never split inside a pair (a long
value, such as a position in words, wraps at its spaces). Piped output has Rich's fixed width
(80 columns, or COLUMNS), so a file gets the same layout every time.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field

from rich.cells import cell_len
from rich.console import Console
from rich.table import Table
from rich.text import Text

INDENT = 2  # a stacked row's pairs under its heading
WRAP_MIN = 24  # the narrowest a column of running text may be
PAD = 2  # the space Rich puts around each column of a table without a box


@dataclass
class Grid:
    """A table's headers and rows; cells are plain text (never markup) or styled :class:`Text`."""

    headers: Sequence[str]
    title: str | None = None
    wrap: Collection[str] = ()  # the headers of the columns of running text
    rows: list[list[Text]] = field(default_factory=list)

    def add(self, *cells: str | Text) -> None:
        if len(cells) != len(self.headers):
            raise ValueError(f"a row of {len(cells)} cells in a table of {len(self.headers)} columns")
        self.rows.append([c if isinstance(c, Text) else Text(c) for c in cells])

    def columns(self) -> Table:
        table = Table(title=self.title, box=None)
        for header in self.headers:
            if header in self.wrap:
                table.add_column(header, overflow="fold")
            else:
                table.add_column(header, no_wrap=True)
        for row in self.rows:
            table.add_row(*row)
        return table

    def narrowest(self) -> int:
        """The fewest cells the columns need without cutting a word or a number."""
        total = 0
        for i, header in enumerate(self.headers):
            texts = [header, *(row[i].plain for row in self.rows)]
            widest = max(cell_len(line) for text in texts for line in text.splitlines() or [""])
            if header in self.wrap:
                longest_word = max((cell_len(word) for text in texts for word in text.split()), default=0)
                widest = max(longest_word, min(widest, WRAP_MIN))
            total += widest + PAD
        return total

    def stacked(self, width: int) -> list[Text]:
        """The rows as blocks for ``width`` columns (see the module's text)."""
        measure = Console(width=width)
        lines: list[Text] = []
        if self.title:
            lines += Text(self.title, style="italic").wrap(measure, width)
        for row in self.rows:
            lines += row[0].wrap(measure, width)
            pairs = [Text.assemble((f"{header}: ", "dim"), cell)
                     for header, cell in zip(self.headers[1:], row[1:], strict=True) if cell.plain]
            lines += _packed(pairs, width - INDENT, measure)
        return lines


def show(console: Console, grid: Grid) -> None:
    """Print ``grid`` as columns where they fit ``console``, else stacked."""
    if grid.narrowest() <= console.width:
        console.print(grid.columns())
        return
    for line in grid.stacked(console.width):
        console.print(line, highlight=False, crop=False, soft_wrap=True)


def _packed(pairs: Iterable[Text], width: int, measure: Console) -> list[Text]:
    """``pairs`` two spaces apart in lines of at most ``width`` cells, indented; a pair wider
    than a line has lines of its own, wrapped at its spaces, the later ones indented further."""
    pad = " " * INDENT
    lines: list[Text] = []
    line: Text | None = None
    for pair in pairs:
        if line is not None and cell_len(line.plain) + 2 + cell_len(pair.plain) <= width:
            line.append("  ").append_text(pair)
            continue
        if line is not None:
            lines.append(Text(pad).append_text(line))
            line = None
        if cell_len(pair.plain) <= width:
            line = pair.copy()
        else:
            # (its later lines hang under the value, two cells further in)
            parts = pair.wrap(measure, width - INDENT)
            for i, part in enumerate(parts):
                part.rstrip()
                lines.append(Text(pad * (2 if i else 1)).append_text(part))
    if line is not None:
        lines.append(Text(pad).append_text(line))
    return lines
