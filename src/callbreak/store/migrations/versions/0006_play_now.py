"""The Play now queue: who waits for a table of which rules, and where they were seated. It
lives in the store so that people who reach different server processes meet at one table.

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "play_now",
        sa.Column("ticket", sa.String(32), primary_key=True),
        sa.Column("guest", sa.String(64), nullable=False, unique=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("rules", sa.String(32), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("seat_hash", sa.String(64), nullable=False),
        sa.Column("address", sa.String(64), nullable=True),
        sa.Column("joined_at", sa.DateTime, nullable=False),
        sa.Column("due_at", sa.DateTime, nullable=False),
        sa.Column("seen_at", sa.DateTime, nullable=False),
        sa.Column("table_code", sa.String(32), nullable=True),
        sa.Column("seat", sa.Integer, nullable=True),
    )
    op.create_index("ix_play_now_waiting", "play_now", ["status", "rules", "joined_at"])


def downgrade() -> None:
    op.drop_index("ix_play_now_waiting", "play_now")
    op.drop_table("play_now")
