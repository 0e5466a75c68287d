"""One exception hierarchy for everything the engine refuses.

Every refusal is a :class:`CallbreakError` (a ``ValueError``), so callers that only want to
report "bad input" catch one type; callers that care catch the specific one.
"""

from __future__ import annotations


class CallbreakError(ValueError):
    """Base class: the input was refused and nothing changed."""


class CardError(CallbreakError):
    """A malformed card (bad text, bad index)."""


class RulesError(CallbreakError):
    """An unknown option, a bad value, or an invalid combination of options."""


class IllegalActionError(CallbreakError):
    """An action that the rules do not allow in this state."""


class NotYourTurnError(IllegalActionError):
    """An action by a seat that is not the one to act."""


class WrongPhaseError(IllegalActionError):
    """An action of a kind that this phase of the match does not take."""


class CallOutOfRangeError(IllegalActionError):
    """A call outside the preset's range."""


class IllegalPlayError(IllegalActionError):
    """A card that the seat does not hold or may not play now."""


class RecordError(CallbreakError):
    """A corrupt, tampered or unsupported game record."""
