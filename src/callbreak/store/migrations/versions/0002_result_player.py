"""Results gain the player's guest identity, the leaderboard's key.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("results") as batch:  # batch: SQLite cannot alter in place
        batch.add_column(sa.Column("player", sa.String(64), nullable=True))
    op.create_index("ix_results_player", "results", ["player"])


def downgrade() -> None:
    op.drop_index("ix_results_player", table_name="results")
    with op.batch_alter_table("results") as batch:
        batch.drop_column("player")
