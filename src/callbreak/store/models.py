"""SQLAlchemy models: tables (games) with their ordered actions, final results, score sheets.

A game is stored as its configuration plus the ordered list of accepted actions (the dealt cards
included), so that replaying the actions through the engine rebuilds the exact state.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import Boolean, DateTime, ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


def utc_now() -> datetime:
    """Now, as the store keeps times: UTC, without a zone."""
    return datetime.now(UTC).replace(tzinfo=None)


class GameRow(Base):
    """One table: its settings, seats and status (``lobby``, ``playing``, ``over``)."""

    __tablename__ = "games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    code: Mapped[str] = mapped_column(String(32), unique=True, index=True)
    status: Mapped[str] = mapped_column(String(16), index=True)
    config: Mapped[str] = mapped_column(Text)  # JSON: rules, deals, timer, bot levels, seed
    seats: Mapped[str] = mapped_column(Text)  # JSON: per seat name, kind, bot, token hash
    created_at: Mapped[datetime] = mapped_column(DateTime)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    # Keys (hashes) of who made it, by guest identity and by address: the limits on one client
    # count its tables over every process sharing the database.
    made_by_guest: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    made_by_address: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    # JSON, seat -> what its bot learnt in the game (the expert's reading of the others), written
    # with each action a bot decides: a table resumed elsewhere hands it to the seat's next bot.
    bot_memories: Mapped[str | None] = mapped_column(Text, nullable=True)


class ActionRow(Base):
    """One accepted action; ``seq`` is the state version it was applied at (0, 1, 2...)."""

    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("game_id", "seq", name="uq_actions_game_seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(Text)  # JSON of the action, cards included


class LeaseRow(Base):
    """Which process runs a live table (``owner``) until ``expires_at`` (the database's clock).

    ``epoch`` grows by one at every change of owner; a write carries the epoch it was made under,
    so an old owner that lost the lease (paused, cut off) can no longer write: fencing.
    """

    __tablename__ = "table_leases"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    owner: Mapped[str] = mapped_column(String(64))
    epoch: Mapped[int] = mapped_column(Integer)
    expires_at: Mapped[datetime] = mapped_column(DateTime)


class ResultRow(Base):
    """A finished game's outcome for one seat, for statistics and the leaderboard."""

    __tablename__ = "results"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(64), index=True)
    kind: Mapped[str] = mapped_column(String(16))  # "human" or "bot"
    total: Mapped[int] = mapped_column(Integer)  # tenths
    winner: Mapped[bool] = mapped_column(Boolean)
    deals: Mapped[int] = mapped_column(Integer)
    calls_made: Mapped[int] = mapped_column(Integer)
    points: Mapped[int] = mapped_column(Integer)  # sum of deal points, tenths
    # A person's guest identity (a hash; null for bots and older games): the leaderboard's key,
    # so two people who typed the same name stay two rows.
    player: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)


class SheetRow(Base):
    """A scorekeeper sheet for a game played with real cards."""

    __tablename__ = "sheets"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    code: Mapped[str] = mapped_column(String(32), unique=True, index=True)
    edit_hash: Mapped[str] = mapped_column(String(64))
    data: Mapped[str] = mapped_column(Text)  # JSON: preset, options, names, deals
    created_at: Mapped[datetime] = mapped_column(DateTime)
    updated_at: Mapped[datetime] = mapped_column(DateTime)


class ReviewRow(Base):
    """The expert's review of a finished game (JSON), once per game and review settings."""

    __tablename__ = "reviews"
    __table_args__ = (UniqueConstraint("game_id", "settings", name="uq_reviews_game_settings"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    settings: Mapped[str] = mapped_column(Text)  # JSON of the review settings
    data: Mapped[str] = mapped_column(Text)  # JSON of the review
    created_at: Mapped[datetime] = mapped_column(DateTime)


class PlayNowRow(Base):
    """One person's place in the Play now queue (one row per guest identity): ``waiting`` for
    people who want the same ``rules``, then ``seated`` at ``table_code`` (or ``left``).

    Times are the database's clock, so every process sharing it agrees on who is due.
    """

    __tablename__ = "play_now"
    __table_args__ = (Index("ix_play_now_waiting", "status", "rules", "joined_at"),)

    ticket: Mapped[str] = mapped_column(String(32), primary_key=True)
    guest: Mapped[str] = mapped_column(String(64), unique=True)  # the guest's player key
    name: Mapped[str] = mapped_column(String(64))
    rules: Mapped[str] = mapped_column(String(32))
    status: Mapped[str] = mapped_column(String(16))
    # The hash of the seat token, which only the guest's own requests can work out again.
    seat_hash: Mapped[str] = mapped_column(String(64))
    address: Mapped[str | None] = mapped_column(String(64), nullable=True)  # maker key, as games'
    joined_at: Mapped[datetime] = mapped_column(DateTime)
    due_at: Mapped[datetime] = mapped_column(DateTime)  # when bots fill the seats nobody took
    seen_at: Mapped[datetime] = mapped_column(DateTime)  # the guest's latest request
    table_code: Mapped[str | None] = mapped_column(String(32), nullable=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
