"""The one way a seat is named, in every language: ``[position · ]Seat N[ · player]``.

The terminal game, ``replay``, ``review`` and the records' narration name seats through
:func:`seat_names` (the web page's review writes the same ``Seat N · player``):

- its number, counted from 1, always (``Seat 3``);
- the player after it, where the record says more than the number (``Seat 3 · expert``);
- at a four-seat table seen from one seat, the position as seen from there in front
  (``North · Seat 3 · expert``); the person a terminal game labels ``you`` is ``You · Seat 1``,
  and the table is seen from their seat unless another is given (positions go round from the
  seat seen from: South, East, North, West).

So a player who met "North" at the table finds "North · Seat 3" in the review of the same game.
"""

from __future__ import annotations

from collections.abc import Sequence

from callbreak.core.words import N_
from callbreak.i18n import DEFAULT, gettext_for, native_digits

DOMAIN = "seats"

POSITIONS = (N_("South"), N_("East"), N_("North"), N_("West"))
"""Where each seat of a four-seat table sits as the person sees it: themself at the bottom, play
going round to their right. Other table sizes name seats by number only."""

ME = "you"  # the label terminal play writes for the person's seat
SEP = " · "


def person_of(players: Sequence[str]) -> int | None:
    """The one seat labelled ``you`` (a terminal game's record), else None."""
    mine = [s for s, name in enumerate(players) if name.strip().lower() == ME]
    return mine[0] if len(mine) == 1 else None


def seat_names(players: Sequence[str], lang: str = DEFAULT, *, viewer: int | None = None) -> tuple[str, ...]:
    """Every seat's name (see the module), ``players`` being what the record calls each seat;
    the positions are as ``viewer`` sees the table (by default the seat labelled ``you``).

    >>> seat_names(["you", "expert", "expert", "expert"])
    ('You · Seat 1', 'East · Seat 2 · expert', 'North · Seat 3 · expert', 'West · Seat 4 · expert')
    >>> seat_names(["ann", "seat 1", "random"])
    ('Seat 1 · ann', 'Seat 2', 'Seat 3 · random')
    >>> seat_names(["you", "expert", "expert", "expert"], "ne")[2]
    'उत्तर · सिट ३ · expert'
    """
    _ = gettext_for(lang, DOMAIN)
    if viewer is None:
        viewer = person_of(players)
    count = len(players)

    def position(seat: int, player: str) -> str | None:
        if player.strip().lower() == ME:
            return _("You")
        if viewer is None or count != 4:
            return None
        return _(POSITIONS[(seat - viewer) % 4])

    return tuple(_name(seat, "" if player.strip().lower() == ME else player, position(seat, player), lang)
                 for seat, player in enumerate(players))


def seat_name(seat: int, player: str, lang: str = DEFAULT) -> str:
    """One seat's name, with no person at the table (``Seat 2 · random``)."""
    return _name(seat, player, None, lang)


def _name(seat: int, player: str, position: str | None, lang: str) -> str:
    _ = gettext_for(lang, DOMAIN)
    number = _("Seat {number}").format(number=native_digits(str(seat + 1), lang))
    parts = [number] if position is None else [position, number]
    if player.strip().lower() not in (f"seat {seat}", f"seat {seat + 1}", ""):
        parts.append(player)  # (a bot's name is kept: it is what is typed to choose it)
    return SEP.join(parts)


def short_name(name: str) -> str:
    """A seat's name as a sentence uses it: the position where there is one (``North``,
    ``You``), else the number (``Seat 2``)."""
    return name.split(SEP, 1)[0]
