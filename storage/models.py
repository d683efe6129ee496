"""The tables, as SQLAlchemy 2 typed ORM classes.

Questions (Scenario/Traffic) and their answers are stored as JSON validated by
the core's pydantic models on the way in and out (see the repositories), so a
row never holds a question the engine would reject.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from slack_sdk.oauth.installation_store.sqlalchemy import SQLAlchemyInstallationStore
from slack_sdk.oauth.state_store.sqlalchemy import SQLAlchemyOAuthStateStore
from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}
"""Stable constraint names, so migrations can drop what they created on any database."""

SLACK_ID = 32
NAME = 120


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)
    type_annotation_map = {dict[str, Any]: JSON, dt.datetime: DateTime(timezone=True)}


class Quote(Base):
    """A named, saved question with the economics computed when it was saved."""

    __tablename__ = "quotes"
    __table_args__ = (UniqueConstraint("workspace_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    workspace_id: Mapped[str] = mapped_column(String(SLACK_ID))
    channel_id: Mapped[str | None] = mapped_column(String(SLACK_ID))
    owner_user_id: Mapped[str] = mapped_column(String(SLACK_ID))
    name: Mapped[str] = mapped_column(String(NAME))
    customer: Mapped[str] = mapped_column(String(200))
    kind: Mapped[str] = mapped_column(String(16))  # "scenario" | "traffic"
    question: Mapped[dict[str, Any]]
    economics: Mapped[dict[str, Any]]
    as_of: Mapped[dt.date]
    created_at: Mapped[dt.datetime]
    updated_at: Mapped[dt.datetime]


class ThreadConversation(Base):
    """The scenario a Slack thread is discussing, so follow-ups can edit it."""

    __tablename__ = "threads"
    __table_args__ = (UniqueConstraint("workspace_id", "channel_id", "thread_ts"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    workspace_id: Mapped[str] = mapped_column(String(SLACK_ID))
    channel_id: Mapped[str] = mapped_column(String(SLACK_ID))
    thread_ts: Mapped[str] = mapped_column(String(SLACK_ID))
    kind: Mapped[str] = mapped_column(String(16))
    question: Mapped[dict[str, Any]]
    created_at: Mapped[dt.datetime]
    last_activity_at: Mapped[dt.datetime] = mapped_column(index=True)
    cleared_at: Mapped[dt.datetime | None]
    """When "start over" cleared the thread: it has no question until the next one."""
    edits: Mapped[list[ThreadEdit]] = relationship(
        back_populates="thread", cascade="all, delete-orphan", order_by="ThreadEdit.seq"
    )


class ThreadEdit(Base):
    """One follow-up's change to a thread's question, kept so "undo" can step back."""

    __tablename__ = "thread_edits"
    __table_args__ = (UniqueConstraint("thread_id", "seq"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    thread_id: Mapped[int] = mapped_column(ForeignKey("threads.id", ondelete="CASCADE"))
    seq: Mapped[int]
    text: Mapped[str] = mapped_column(String(4000))
    before: Mapped[dict[str, Any]]
    after: Mapped[dict[str, Any]]
    created_at: Mapped[dt.datetime]
    thread: Mapped[ThreadConversation] = relationship(back_populates="edits")


class DigestSubscription(Base):
    """A channel's weekly digest: when (in its own time zone) and what counts as news."""

    __tablename__ = "digest_subscriptions"
    __table_args__ = (UniqueConstraint("workspace_id", "channel_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    workspace_id: Mapped[str] = mapped_column(String(SLACK_ID))
    channel_id: Mapped[str] = mapped_column(String(SLACK_ID))
    day_of_week: Mapped[int] = mapped_column(Integer)  # 0 = Monday
    hour: Mapped[int] = mapped_column(Integer)
    timezone: Mapped[str] = mapped_column(String(64))
    threshold_pct: Mapped[float] = mapped_column(Float)
    threshold_usd: Mapped[float] = mapped_column(Float)
    weekly_no_change: Mapped[bool] = mapped_column(Boolean, default=False)
    paused: Mapped[bool] = mapped_column(Boolean, default=False)
    pause_reason: Mapped[str | None] = mapped_column(String(200))
    created_by: Mapped[str] = mapped_column(String(SLACK_ID))
    created_at: Mapped[dt.datetime]


class DigestRun(Base):
    """One subscription's digest for one period: claimed, then posted or failed, once."""

    __tablename__ = "digest_runs"
    __table_args__ = (UniqueConstraint("subscription_id", "period_key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    subscription_id: Mapped[int] = mapped_column(
        ForeignKey("digest_subscriptions.id", ondelete="CASCADE")
    )
    period_key: Mapped[str] = mapped_column(String(32))
    status: Mapped[str] = mapped_column(String(16))  # claimed | posted | failed
    attempts: Mapped[int] = mapped_column(Integer, default=1)
    claim_token: Mapped[str] = mapped_column(String(36))
    claimed_at: Mapped[dt.datetime]
    posted_at: Mapped[dt.datetime | None]
    message_ts: Mapped[str | None] = mapped_column(String(SLACK_ID))
    error: Mapped[str | None] = mapped_column(Text)


class PriceBookEntry(Base):
    """An admin's price line: $/GPU-hour for a GPU at a term, over the packaged book."""

    __tablename__ = "price_book"
    __table_args__ = (UniqueConstraint("gpu", "term_months"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    gpu: Mapped[str] = mapped_column(String(64))
    term_months: Mapped[int] = mapped_column(Integer)
    usd_per_gpu_hour: Mapped[float] = mapped_column(Float)
    source: Mapped[str] = mapped_column(String(500))
    added_by: Mapped[str] = mapped_column(String(SLACK_ID))
    created_at: Mapped[dt.datetime]


class CatalogAddition(Base):
    """A measurement or serving stack an admin added, as the catalog's own YAML record."""

    __tablename__ = "catalog_additions"
    __table_args__ = (UniqueConstraint("kind", "entry_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))  # "measurement" | "stack"
    entry_id: Mapped[str] = mapped_column(String(NAME))
    body: Mapped[dict[str, Any]]
    added_by: Mapped[str] = mapped_column(String(SLACK_ID))
    created_at: Mapped[dt.datetime]


class AuditEntry(Base):
    """Who changed what in the admin data, and when."""

    __tablename__ = "audit_log"

    id: Mapped[int] = mapped_column(primary_key=True)
    actor: Mapped[str] = mapped_column(String(SLACK_ID))
    action: Mapped[str] = mapped_column(String(64))
    target: Mapped[str] = mapped_column(String(200))
    detail: Mapped[dict[str, Any]]
    at: Mapped[dt.datetime] = mapped_column(index=True)


class ProcessedEvent(Base):
    """A Slack event already handled (by event_id, or the channel+ts of a message)."""

    __tablename__ = "processed_events"

    id: Mapped[int] = mapped_column(primary_key=True)
    event_key: Mapped[str] = mapped_column(String(200), unique=True)
    expires_at: Mapped[dt.datetime] = mapped_column(index=True)


# Slack's OAuth stores, built by slack_sdk's own table builders so our migrations and
# its SQLAlchemy stores agree on every column.
SQLAlchemyInstallationStore.build_installations_table(
    Base.metadata, SQLAlchemyInstallationStore.default_installations_table_name
)
SQLAlchemyInstallationStore.build_bots_table(
    Base.metadata, SQLAlchemyInstallationStore.default_bots_table_name
)
SQLAlchemyOAuthStateStore.build_oauth_states_table(
    Base.metadata, SQLAlchemyOAuthStateStore.default_table_name
)
