"""What each seat's bot keeps from deal to deal of a game (the expert's reading of the other
players), written with every action a bot decides, so that a table resumed after a crash, or run
on by another process, hands each seat's bot what it knew: its next decisions are those it would
have made.

Revision ID: 0007
Revises: 0006
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:  # batch: SQLite cannot alter in place
        batch.add_column(sa.Column("bot_memories", sa.Text, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("bot_memories")
