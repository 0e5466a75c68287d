"""Alembic environment: migrations run on the connection the store hands over."""

from alembic import context

from callbreak.store.models import Base

connection = context.config.attributes.get("connection")
context.configure(connection=connection, target_metadata=Base.metadata)
with context.begin_transaction():
    context.run_migrations()
