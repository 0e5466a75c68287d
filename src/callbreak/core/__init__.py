"""The rules engine: standard library only, no I/O, no randomness inside the rules."""

from callbreak.core.actions import (
    CHANCE,
    Action,
    Call,
    ChooseDealer,
    Deal,
    Draw,
    Look,
    Play,
    Redeal,
    Stop,
    action_from_json,
)
from callbreak.core.cards import Card, Rank, Suit, cards_of, mask_of, parse_cards
from callbreak.core.dealing import Dealer
from callbreak.core.errors import (
    CallbreakError,
    CallOutOfRangeError,
    CardError,
    IllegalActionError,
    IllegalPlayError,
    NotYourTurnError,
    RecordError,
    RulesError,
    WrongPhaseError,
)
from callbreak.core.game import CompletedTrick, Phase
from callbreak.core.match import Match
from callbreak.core.rules import PRESETS, Rules, make_rules, preset
from callbreak.core.scoring import DealResult, format_points
from callbreak.core.view import SeatView

__all__ = [
    "CHANCE", "Action", "Call", "CallOutOfRangeError", "CallbreakError", "Card", "CardError",
    "ChooseDealer", "CompletedTrick", "Deal", "DealResult", "Dealer", "Draw", "IllegalActionError",
    "IllegalPlayError", "Look", "Match", "NotYourTurnError", "PRESETS", "Phase", "Play", "Rank",
    "RecordError", "Redeal", "Rules", "RulesError", "SeatView", "Stop", "Suit", "WrongPhaseError",
    "action_from_json", "cards_of", "format_points", "make_rules", "mask_of", "parse_cards",
    "preset",
]
