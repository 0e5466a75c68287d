"""Who made each table (a key of their guest identity and one of their address), so that the
limits on what one client may make count its tables over every process sharing the database.

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("made_by_guest", sa.String(64), nullable=True))
        batch.add_column(sa.Column("made_by_address", sa.String(64), nullable=True))
    op.create_index("ix_games_made_by_guest", "games", ["made_by_guest"])
    op.create_index("ix_games_made_by_address", "games", ["made_by_address"])


def downgrade() -> None:
    op.drop_index("ix_games_made_by_address", "games")
    op.drop_index("ix_games_made_by_guest", "games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("made_by_address")
        batch.drop_column("made_by_guest")
