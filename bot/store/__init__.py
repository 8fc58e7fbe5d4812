"""Persistence: SQLModel tables, the async engine and sessions, Alembic migrations."""
