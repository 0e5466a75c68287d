"""The web API's request bodies, as its OpenAPI schema (``/openapi.json``, shown at
``/api/docs``) describes them to the people who write clients and bots.

The handlers read each body themselves (:func:`callbreak.server.app.read_body` and the service's
checks), so that whatever is wrong is refused with the API's own error codes and words (a 400
``malformed``, ``bad_name``, ``bad_config``... naming the problem), not a generic validation
error. These models say what those checks accept; ``tests/server/test_server_api_schema.py``
keeps the two in step (each documented example is accepted, each required field refused when
missing). Fields not listed are ignored.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field
from pydantic.json_schema import models_json_schema


def guest(default: Any = None) -> Any:
    """The browser's guest identity (``...``: required)."""
    return Field(default, description="The browser's guest identity: a secret of 16 to 64 letters, digits, - "
                                      "or _, which the page keeps. Only its hash is stored; it counts the "
                                      "caller's tables and names them on the leaderboard.",
                 min_length=16, max_length=64, pattern="^[A-Za-z0-9_-]+$")


def name() -> Any:
    return Field(description="The player's name: 1 to 24 characters, no control characters.",
                 min_length=1, max_length=24)


def token() -> Any:
    return Field(description="The seat token the table gave this player (kept secret: it plays the seat).")


class Body(BaseModel):
    """A JSON object; fields it does not list are ignored."""

    model_config = ConfigDict(extra="allow")


class TableSettings(Body):
    """A table's settings; each has a default (``GET /api/meta`` lists the games, presets and bots)."""

    game: str = Field("callbreak", description="The game (Call Break or a related game by its registry name).")
    players: int | None = Field(None, description="Seats at the table, where the game allows a choice.")
    preset: str | None = Field(None, description="The rules preset (the game's default if left out).")
    options: dict[str, Any] = Field(default_factory=dict,
                                    description="Rule options over the preset (not deals nor the timer).")
    deals: int | None = Field(5, ge=1, le=100,
                              description="Deals to play (left out: the preset's own number, 5 in Call Break); "
                                          "null: unlimited, until the host stops between deals.")
    timer: float | None = Field(None, ge=1, le=600,
                                description="Seconds a person has for each turn before the default action "
                                            "is played (left out: the preset's; null: no timer).")
    bot_delay: float = Field(0.7, ge=0, le=10, description="Seconds a bot waits before it plays (a human pace).")
    bots: str | list[str] | None = Field(None, description="The bot level for the open seats, or one a seat "
                                                           "(a level name, or a bot's URL where allowed).")


class CreateTable(Body):
    model_config = ConfigDict(json_schema_extra={"examples": [
        {"name": "Ann", "settings": {"preset": "callbreak", "deals": 3, "bots": "heuristic"}}]})

    name: str = name()
    settings: TableSettings | None = Field(None, description="The table's settings (left out: every default).")
    guest: str | None = guest()
    seed: int | None = Field(None, ge=0, lt=2**62,
                             description="The deals' seed: only on a practice server (elsewhere refused: "
                                         "nobody may choose or predict a real table's deals).")


class PlayNowAsk(Body):
    model_config = ConfigDict(json_schema_extra={"examples": [
        {"guest": "my-browsers-secret-0123", "name": "Ann", "rules": "callbreak"}]})

    guest: str = guest(...)
    name: str = name()
    rules: str = Field("callbreak", description="The rules to play (GET /api/meta: play_now).")


class Guest(Body):
    model_config = ConfigDict(json_schema_extra={"examples": [{"guest": "my-browsers-secret-0123"}]})

    guest: str = guest(...)


class Join(Body):
    model_config = ConfigDict(json_schema_extra={"examples": [{"name": "Bob"}]})

    name: str = name()
    seat: int | None = Field(None, ge=0, description="The seat to take (the first open one if left out).")
    guest: str | None = guest()


class Seated(Body):
    """A player at the table, named by their seat token."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"token": "the-seat-token"}]})

    token: str = token()


class MaybeSeated(Body):
    """A player by their seat token (their own view, with their hand), or anyone (the public view)."""

    token: str | None = Field(None, description="The seat token, for that seat's view.")


class Claim(Body):
    handoff: str = Field(description="The one-time code of a seat's handoff link (POST .../handoff).")


class MoveSeat(Body):
    model_config = ConfigDict(json_schema_extra={"examples": [{"token": "the-seat-token", "seat": 2}]})

    token: str = token()
    seat: int = Field(ge=0, description="The open seat to move to, before the game starts.")


class Act(Body):
    model_config = ConfigDict(json_schema_extra={"examples": [
        {"token": "the-seat-token", "version": 12, "action": {"type": "call", "seat": 0, "tricks": 3}},
        {"token": "the-seat-token", "version": 17, "action": {"type": "play", "seat": 0, "card": "QS"}}]})

    token: str = token()
    version: int = Field(ge=0, description="The state's version the action answers (a stale one is refused).")
    action: dict[str, Any] = Field(description="One of the seat's legal actions, as its view lists them "
                                               "(``legal``), e.g. a call or a card.")


class Deal(Body):
    calls: list[int] = Field(min_length=4, max_length=4)
    won: list[int] = Field(min_length=4, max_length=4, description="Tricks won; they add up to 13.")
    blind: list[bool] | None = Field(None, min_length=4, max_length=4)


class Sheet(Body):
    """A score sheet: a preset, four names and the deals so far (calls and tricks won)."""

    model_config = ConfigDict(json_schema_extra={"examples": [
        {"preset": "callbreak", "names": ["Ann", "Bob", "Cat", "Dan"],
         "deals": [{"calls": [3, 2, 4, 3], "won": [3, 3, 4, 3]}]}]})

    preset: str = Field("callbreak", description="The rules preset its scores follow.")
    options: dict[str, Any] = Field(default_factory=dict)
    names: list[str] | None = Field(None, min_length=4, max_length=4)
    deals: list[Deal] = Field(default_factory=list)


class SaveSheet(Body):
    key: str = Field(description="The sheet's edit key (given when it was made; the link alone only shows it).")
    sheet: Sheet


BODIES: tuple[type[Body], ...] = (CreateTable, PlayNowAsk, Guest, Join, Seated, MaybeSeated, Claim, MoveSeat, Act,
                                  Sheet, SaveSheet)


def request_body(model: type[Body], required: bool = True) -> dict[str, Any]:
    """An operation's ``openapi_extra``: its JSON body is ``model`` (a schema of the components,
    :func:`component_schemas`)."""
    return {"requestBody": {"required": required, "content": {"application/json": {
        "schema": {"$ref": f"#/components/schemas/{model.__name__}"}}}}}


def component_schemas() -> dict[str, Any]:
    """The JSON schema of every body, and of the objects inside them, by name."""
    _, found = models_json_schema([(model, "validation") for model in BODIES],
                                  ref_template="#/components/schemas/{model}")
    return dict(found["$defs"])
