"""Bad input is refused with a clear, specific error and changes nothing."""

from __future__ import annotations

import pytest
from cbcore_helpers import call_all, fill_deal, play, started

from callbreak.core import (
    CallOutOfRangeError,
    CardError,
    IllegalActionError,
    IllegalPlayError,
    Match,
    NotYourTurnError,
    RulesError,
    WrongPhaseError,
    make_rules,
    parse_cards,
)
from callbreak.core.actions import Call, ChooseDealer, Deal, Draw, Look, Play, Redeal, Stop
from callbreak.core.cards import Card, from_protocol, to_protocol

# --- cards ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "words"), [
    ("", "malformed"), ("A", "malformed"), ("1S", "unknown rank"), ("11H", "unknown rank"),
    ("AX", "unknown suit"), ("ZZ", "unknown rank"), ("10", "unknown"), ("AS ", None),
])
def test_malformed_card_text(text: str, words: str | None) -> None:
    if words is None:
        assert Card.parse(text) == Card.parse("AS")  # surrounding space is fine
        return
    with pytest.raises(CardError, match=words):
        Card.parse(text)


@pytest.mark.parametrize("value", [52, -1, 3.0, "AS", None])
def test_bad_card_index(value: object) -> None:
    with pytest.raises(CardError, match="0..51"):
        Card(value)  # type: ignore[arg-type]


def test_card_text_forms_round_trip() -> None:
    """``AS``, ``10H`` and ``TH``; the protocol codec's ``1S`` (ace) and ``TS`` (ten)."""
    for c in (Card(i) for i in range(52)):
        assert Card.parse(c.text) is c
        assert Card.parse(c.pretty) is c
        assert from_protocol(to_protocol(c)) is c
    assert Card.parse("TH") is Card.parse("10H")
    assert to_protocol(Card.parse("AS")) == "1S" and to_protocol(Card.parse("10S")) == "TS"


@pytest.mark.parametrize("text", ["AS", "10S", "1", "1X", "XS", "", None])
def test_malformed_protocol_card(text: object) -> None:
    with pytest.raises(CardError, match="protocol card"):
        from_protocol(text)  # type: ignore[arg-type]


def test_parse_cards_names_the_bad_one() -> None:
    with pytest.raises(CardError, match="'QX'"):
        parse_cards("AS 10H QX")


# --- rules -------------------------------------------------------------------------------


@pytest.mark.parametrize(("kwargs", "words"), [
    ({"min_call": 0}, "min_call must be 1..13"),
    ({"max_call": 14}, "max_call must be 1..13"),
    ({"min_call": 9, "max_call": 8}, "must not exceed"),
    ({"void_rule": "sometimes"}, "must be one of"),
    ({"colour": "red"}, "unknown option 'colour'"),
    ({"deals": 0}, "deals must be"),
    ({"min_call_total": 3}, "min_call_total"),
    ({"no_wasting_trumps": True, "void_rule": "must_trump"}, "contradicts"),
    ({"trump": "first_led", "spade_lead_first_trick": "forbidden"}, "needs trump=spades"),
    ({"blind_call": True, "partnership": True}, "partnership"),
    ({"turn_timer": 0}, "turn_timer"),
    ({"follow_must_beat": "maybe"}, "on or off"),
    ({"max_call": True}, "wrong type"),
])
def test_bad_rules_refused(kwargs: dict[str, object], words: str) -> None:
    with pytest.raises(RulesError, match=words):
        make_rules("callbreak", **kwargs)


def test_unknown_preset_lists_presets() -> None:
    with pytest.raises(RulesError, match="unknown preset 'bridge'.*callbreak"):
        make_rules("bridge")


def test_rules_text_overrides() -> None:
    r = make_rules("callbreak", max_call="8", deals="unlimited", bonus_call="8:16", stakes="20")
    assert (r.max_call, r.deals, r.bonus_call and r.bonus_call.points, r.stakes and r.stakes.stake) == (
        8, None, 16, 20)


# --- actions -----------------------------------------------------------------------------------


def _in_play() -> Match:
    deal = fill_deal({1: "10H 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS",
                      2: "AH 4H 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC"})
    m = started("callbreak", deal)
    call_all(m, [1, 1, 1, 1])
    return m


def _refused(m: Match, action: object, error: type[Exception], words: str) -> None:
    before = m.snapshot()
    assert not m.is_legal(action)  # type: ignore[arg-type]
    with pytest.raises(error, match=words):
        m.apply(action)  # type: ignore[arg-type]
    assert m.snapshot() == before


@pytest.mark.parametrize("tricks", [0, 14, -1, 100])
def test_out_of_range_call(tricks: int) -> None:
    m = started("callbreak", fill_deal({}))
    _refused(m, Call(1, tricks), CallOutOfRangeError, "1..13")


@pytest.mark.parametrize("tricks", ["3", 3.0, True, None])
def test_call_not_a_whole_number(tricks: object) -> None:
    m = started("callbreak", fill_deal({}))
    _refused(m, Call(1, tricks), CallOutOfRangeError, "call must be")  # type: ignore[arg-type]


def test_out_of_turn_call_and_play() -> None:
    m = started("callbreak", fill_deal({}))
    _refused(m, Call(2, 3), NotYourTurnError, "seat 1's turn")
    m = _in_play()
    _refused(m, Play(2, Card.parse("AH")), NotYourTurnError, "seat 1's turn")


@pytest.mark.parametrize("seat", [4, -1, "1", None, True])
def test_no_such_seat(seat: object) -> None:
    m = _in_play()
    _refused(m, Play(seat, Card.parse("10H")), IllegalActionError, "no such seat")  # type: ignore[arg-type]


def test_illegal_plays_name_the_reason() -> None:
    m = _in_play()
    _refused(m, Play(1, Card.parse("AH")), IllegalPlayError, "does not hold AH")
    _refused(m, Play(1, 5), IllegalPlayError, "not a card")  # type: ignore[arg-type]
    play(m, "10H")
    _refused(m, Play(2, Card.parse("2C")), IllegalPlayError, "does not follow suit")
    _refused(m, Play(2, Card.parse("4H")), IllegalPlayError, "does not beat")


def test_wrong_phase_actions() -> None:
    m = Match(make_rules("callbreak"))
    _refused(m, Call(0, 1), WrongPhaseError, "draw phase")
    _refused(m, Draw(cards=parse_cards("2S 3S 4S 5S")), WrongPhaseError, "no draw")
    _refused(m, Stop(), WrongPhaseError, "unlimited")
    m.apply(ChooseDealer(0))
    _refused(m, Play(1, Card.parse("AS")), WrongPhaseError, "deal phase")
    _refused(m, Look(1), WrongPhaseError, "deal phase")
    _refused(m, Redeal(1, True), WrongPhaseError, "no redeal claim")
    m = _in_play()
    _refused(m, fill_deal({}), WrongPhaseError, "cannot deal")
    _refused(m, Call(1, 3), WrongPhaseError, "cannot call")
    _refused(m, "play AS", IllegalActionError, "unknown action")


def test_bad_deals_refused() -> None:
    m = Match(make_rules("callbreak"))
    m.apply(ChooseDealer(0))
    good = fill_deal({})
    dup = Deal(hands=(good.hands[0][:12] + (good.hands[1][0],),) + good.hands[1:])
    _refused(m, dup, IllegalActionError, "dealt twice")
    short = Deal(hands=(good.hands[0][:12],) + good.hands[1:])
    _refused(m, short, IllegalActionError, "hand 0 has 12 cards")
    _refused(m, Deal(hands=good.hands[:3]), IllegalActionError, "4 hands")
    _refused(m, Deal(hands=(("AS",) * 13,) + good.hands[1:]), IllegalActionError, "not a card")  # type: ignore[arg-type]
    _refused(m, Deal(hands=(None,) + good.hands[1:]), IllegalActionError, "not a list")  # type: ignore[arg-type]
    # Checked by apply as by verify (apply's quick way for a deal once took these).
    _refused(m, Deal(hands=good.hands, upcard=good.hands[0][0]), IllegalActionError, "no upcard and no stock")
    _refused(m, Deal(hands=good.hands, stock=good.hands[0][:1]), IllegalActionError, "no upcard and no stock")


def test_bad_draws_refused() -> None:
    m = Match(make_rules("catsatcards"))
    _refused(m, Draw(cards=parse_cards("2S 2S 4S 5S")), IllegalActionError, "4 different cards")
    _refused(m, Draw(cards=parse_cards("2S 4S 5S")), IllegalActionError, "4 different cards")
    _refused(m, ChooseDealer(1), WrongPhaseError, "no random choice")


def test_look_twice_refused() -> None:
    m = started("567", fill_deal({}))
    m.apply(Look(3))
    _refused(m, Look(3), IllegalActionError, "already seen")
    _refused(m, Look(7), IllegalActionError, "no such seat")


def test_nothing_after_the_end() -> None:
    m = Match(make_rules("callbreak", deals=1, first_dealer="seat_0"))
    m.apply(fill_deal({}))
    while not m.is_over:
        m.apply(m.legal_actions()[0])
    _refused(m, fill_deal({}), WrongPhaseError, "over")
    assert m.legal_actions() == [] and m.to_act is None
    with pytest.raises(WrongPhaseError):
        m.default_action()


def test_legal_actions_and_views_of_other_and_bad_seats() -> None:
    m = _in_play()
    assert m.legal_actions(2) == []  # not seat 2's turn
    assert m.view(2).legal == ()
    assert all(a.seat == 1 for a in m.legal_actions())  # type: ignore[union-attr]
    for bad in (4, -2, "0"):
        with pytest.raises(IllegalActionError, match="no such seat"):
            m.legal_actions(bad)  # type: ignore[arg-type]
        with pytest.raises(IllegalActionError, match="no such seat"):
            m.view(bad)  # type: ignore[arg-type]
    spectator = m.view(None)
    assert spectator.hand is None and spectator.legal == ()


def test_legal_actions_are_fresh_lists() -> None:
    """Callers may change the list they get; the next call is not affected."""
    m = _in_play()
    first = m.legal_actions()
    first.clear()
    assert m.legal_actions() and m.legal_actions() is not m.legal_actions()
