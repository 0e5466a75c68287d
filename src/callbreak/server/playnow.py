"""Play now: one public button that seats a person at a table with other people who want the
same rules; after a short wait bots fill the seats nobody took and the game starts.

The queue lives in the store (store/queue.py), so people who reach different server processes
meet at one table. Every process runs a matchmaker: a round every half second, and one at once
when somebody asks (a table whose seats are all wanted starts without waiting). The table is
made by whichever process's transaction seats the waiting people first; the store's row locks
make that exactly one table per group, and the maker takes the table's lease in the same
transaction and runs it. A waiting page polls its ticket (every second) for the names of the
people coming, the seconds left, and at last its table.

One guest (the browser's identity), one place: asking again, from a second tab or through
another process, returns the place they hold (waiting, or seated at a table not yet over).
The seat token is worked out from the guest's secret and the ticket (an HMAC): the store keeps
only its hash, any process can hand it to that guest's own requests, and nobody else can.

A new place counts as a new table against the guest's limits (server/limits.py); a place held
already does not. Play now tables are real tables: results count in the leaderboard by guest.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import logging
import os
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any

from callbreak.core.rules import PRESETS
from callbreak.core.words import N_
from callbreak.server import engines
from callbreak.server.tables import (
    Seat,
    TableService,
    bot_seat,
    clean_name,
    maker_keys,
    new_code,
    parse_config,
    player_key,
    refuse_url_bots,
    token_hash,
)
from callbreak.server.wire import MessageError
from callbreak.store import NewGame, Party, Place

log = logging.getLogger("callbreak.server")

# The rules Play now offers: every Call Break preset that ends by itself (a fixed number of
# deals). Those without an end (Call Bridge: the host stops the table) need a host strangers lack.
RULES = tuple(name for name, p in PRESETS.items() if p.rules.deals is not None)
DEFAULT_RULES = "callbreak"
ROUND_SECONDS = 0.5  # how often each process looks for a group that is ready
POLL_SECONDS = 1.0  # how often a waiting page asks (the page's own timer)
# A place nobody asked about for this long is given up (a closed tab): its person would never
# come, and the others would wait for them at every turn.
STALE_SECONDS = 10.0
TICKET = re.compile(r"[A-Za-z0-9_-]{22}")


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayNowSettings:
    """The operator's settings (``callbreak serve --play-now-wait`` and the like, or
    ``CALLBREAK_PLAY_NOW_WAIT`` and so on in the environment, which worker processes read)."""

    wait: float = 8.0  # seconds the first person of a group waits before bots fill the table
    deals: int | None = None  # deals a Play now table plays; None: the rules' own
    bot: str | None = None  # the bots that fill the seats; None: the strongest
    bot_delay: float = 0.7  # seconds a bot waits before it plays (a human pace)

    @classmethod
    def from_env(cls, **overrides: Any) -> PlayNowSettings:
        """Defaults, then ``CALLBREAK_PLAY_NOW_<NAME>``, then ``overrides`` (None: not given)."""
        values: dict[str, Any] = {}
        for f in fields(cls):
            raw = os.environ.get(f"CALLBREAK_PLAY_NOW_{f.name.upper()}")
            if raw:
                values[f.name] = raw
            if overrides.get(f.name) is not None:
                values[f.name] = overrides[f.name]
        kinds = {"wait": float, "deals": int, "bot": str, "bot_delay": float}
        return cls(**{k: kinds[k](v) for k, v in values.items()})

    def check(self) -> None:
        """Refuse settings no table could be made with (the server does not start)."""
        if not 0 <= self.wait <= 600:
            raise MessageError("bad_config", f"the Play now wait must be 0..600 seconds, got {self.wait}")
        if self.bot is not None:  # (checked by name only: the expert is not built before it is ready)
            refuse_url_bots([engines.check_bot({"game": engines.CALLBREAK}, self.bot)])
        for rules in RULES:
            parse_config({**self.table_settings(rules), "bots": "random"})

    def table_settings(self, rules: str) -> dict[str, Any]:
        """A create-table request for a Play now table of ``rules``."""
        settings: dict[str, Any] = {"preset": rules, "bot_delay": self.bot_delay}
        if self.deals is not None:
            settings["deals"] = self.deals
        if self.bot is not None:
            settings["bots"] = self.bot
        return settings


def seat_token(guest: str, ticket: str) -> str:
    """The token of the seat a ticket's holder gets: only the guest's own secret makes it."""
    digest = hmac.new(guest.encode(), f"play now seat {ticket}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode()


def check_rules(rules: Any) -> str:
    if rules is None:
        return DEFAULT_RULES
    if not isinstance(rules, str) or rules not in RULES:
        raise MessageError("bad_rules", N_("Play now has no rules {rules}; choose one of: {choices}"),
                           rules=repr(rules), choices=", ".join(RULES))
    return rules


def check_ticket(ticket: Any) -> str:
    if not isinstance(ticket, str) or not TICKET.fullmatch(ticket):
        raise MessageError("bad_ticket", f"{str(ticket)[:40]!r} is not a Play now ticket (22 letters, digits, "
                                         "- or _, as Play now gave it)")
    return ticket


def guest_of(guest: Any) -> str:
    """The player key of a Play now request's guest, who must say who they are."""
    if guest is None:
        raise MessageError("bad_guest", "Play now needs your guest identity ('guest': the secret "
                                        "your browser keeps), to give you one place and one seat")
    key = player_key(guest)
    assert key is not None
    return key


class PlayNow:
    """This process's part of Play now: requests, and its matchmaker."""

    def __init__(self, service: TableService, settings: PlayNowSettings) -> None:
        self.service = service
        self.store = service.store
        self.settings = settings
        self.configs: dict[str, dict[str, Any]] = {}  # rules -> checked table settings
        # Held while this process seats a group, from before its transaction until the table
        # runs here: a poll that finds its place seated waits for it, so nobody is sent to a
        # table this process has stored but not yet listed.
        self.seating = asyncio.Lock()

    def meta(self, translate: Callable[[str], str] = str) -> dict[str, Any]:
        """What the lobby offers (the rules' titles through ``translate``: the lobby's language)."""
        return {"rules": [{"name": r, "title": translate(PRESETS[r].title)} for r in RULES], "default": DEFAULT_RULES,
                "wait": self.settings.wait, "poll": POLL_SECONDS}

    async def ask(self, guest: Any, name: Any, rules: Any, address: str | None) -> dict[str, Any]:
        """A place in the queue for ``guest``, or the one they hold."""
        key = guest_of(guest)
        name = clean_name(name)
        rules = check_rules(rules)
        place = await asyncio.to_thread(self.store.queue_place, key)
        if place is None:
            async with self.service.admitting(guest, address) as who:  # a new place counts as a new table
                ticket = secrets.token_urlsafe(16)
                place = await self.service.write(
                    self.store.join_queue, ticket=ticket, guest=key, name=name, rules=rules,
                    seat_hash=token_hash(seat_token(guest, ticket)), address=maker_keys(who)["address"],
                    wait=self.settings.wait)
        try:
            await self.match(place.rules)  # the group may be full now
        except Exception as e:  # the matchmaker's next round tries again
            log.error("play now: matchmaking failed: %s", e)
        return await self.status(place.ticket, guest)

    async def status(self, ticket: Any, guest: Any) -> dict[str, Any]:
        """Where the ticket stands, for its own guest only."""
        party = await self._party(ticket, guest, seen=True)
        if party.place.status == "seated":
            async with self.seating:
                pass
        return self._json(party, guest)

    async def leave(self, ticket: Any, guest: Any) -> dict[str, Any]:
        """Give up a place still waiting; a seated one stays (the table is made)."""
        party = await self._party(ticket, guest, seen=False)
        if party.place.status == "waiting":
            await self.service.write(self.store.leave_queue, party.place.ticket)
            party = await self._party(ticket, guest, seen=False)
        return self._json(party, guest)

    async def _party(self, ticket: Any, guest: Any, *, seen: bool) -> Party:
        ticket = check_ticket(ticket)
        key = guest_of(guest)
        party = await self.service.write(self.store.queue_party, ticket, self._seats(),
                                         seen_by=key if seen else None)
        if party is None:
            raise MessageError("no_ticket", N_("no Play now ticket is that one (a new Play now gives a new one)"))
        if not hmac.compare_digest(party.place.guest, key):
            raise MessageError("not_your_ticket", N_("that Play now ticket is another player's"))
        return party

    def _json(self, party: Party, guest: str) -> dict[str, Any]:
        place = party.place
        out: dict[str, Any] = {"ticket": place.ticket, "status": place.status, "rules": place.rules,
                               "title": PRESETS[place.rules].title, "seats": self._seats(),
                               "players": party.names, "you": party.you}
        if place.status == "waiting":
            out["seconds_left"] = round(party.seconds_left, 1)
        elif place.status == "seated":
            assert place.table_code is not None
            out.update(code=place.table_code, seat=place.seat, token=seat_token(guest, place.ticket),
                       link=f"/t/{place.table_code}")
        return out

    def _seats(self) -> int:
        return engines.seat_count({"game": engines.CALLBREAK})

    # --- the matchmaker ----------------------------------------------------------------------

    async def run(self) -> None:
        """Look for ready groups every round, for as long as the server runs."""
        while True:
            await asyncio.sleep(ROUND_SECONDS)
            try:
                await self.match()
            except Exception as e:  # the store is away: next round
                log.error("play now: matchmaking failed: %s", e)

    async def match(self, rules: str | None = None) -> int:
        """Seat every group that is ready (of ``rules``, or of any); returns the tables made."""
        wanted = [rules] if rules is not None else await asyncio.to_thread(self.store.waiting_rules)
        made = 0
        for r in wanted:
            while await self._seat(r):
                made += 1
        return made

    async def _seat(self, rules: str) -> bool:
        """Make one table for the head of the queue of ``rules`` if it is ready; whether made."""
        async with self.seating:
            return await self._seat_now(rules)

    async def _seat_now(self, rules: str) -> bool:
        config = await self._config(rules)
        if config is None:
            return False
        bots = config["bots"]

        def build(people: list[Place]) -> NewGame:
            seats = [Seat(kind="human", name=p.name, token_hash=p.seat_hash, player=p.guest) for p in people]
            seats += [bot_seat(bots[i], i) for i in range(len(people), len(bots))]
            # The first to come hosts: they may offer the others a rematch.
            stored = {**config, "seed": secrets.randbits(64), "host_hash": people[0].seat_hash}
            return NewGame(code=new_code(), config=stored, seats=[s.to_json() for s in seats],
                           made_by={"guest": people[0].guest, "address": people[0].address})

        cluster = self.service.cluster
        lease = None
        if cluster is not None:
            from callbreak.server.cluster import LEASE_SECONDS

            lease = (cluster.me, LEASE_SECONDS)
        seated = await self.service.write(self.store.seat_waiting, rules, len(bots), STALE_SECONDS, build, lease)
        if seated is None:
            return False
        game_id, code, people, epoch = seated
        log.info("play now: table %s made for %s (%s) with %d bots", code, ", ".join(p.name for p in people),
                 rules, len(bots) - len(people))
        try:
            await self.service.run_made(code, epoch)
        except Exception as e:
            log.error("play now: cannot run the table %s just made here (%s); it is left to be taken over",
                      code, e)
            if cluster is not None and epoch is not None:  # another process (or this one's next tick) takes it
                await self.service.write(self.store.release_lease, game_id, cluster.me, epoch)
        return True

    async def _config(self, rules: str) -> dict[str, Any] | None:
        """The checked settings of a Play now table of ``rules``; None while this process's bots
        cannot play it yet (the expert's kernel compiles: a process that can makes it, or this
        one a round later)."""
        settings = self.settings.table_settings(rules)
        if any(self.service.preparing(settings, spec) for spec in engines.requested_bots(settings)):
            return None
        if rules not in self.configs:
            self.configs[rules] = await asyncio.to_thread(parse_config, settings, url_bots=False)
        return self.configs[rules]
