"""Everything a listener needs, built once at the edge and passed in (never imported).

Tests build their own: an in-memory database, a fixed clock, the shared engine.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session, sessionmaker

from bot.engine.source import EngineSource
from bot.render.renderer import Renderer
from bot.settings import Settings
from storage.clock import utc_now


@dataclass(frozen=True)
class Services:
    settings: Settings
    engines: EngineSource
    sessions: sessionmaker[Session]
    renderer: Renderer
    clock: Callable[[], datetime] = utc_now
    subscriptions_changed: Callable[[], None] = lambda: None
    """Called after a digest subscription changes, so the scheduler re-reads them now."""

    def is_admin(self, user_id: str) -> bool:
        return self.settings.is_admin(user_id)


@dataclass(frozen=True)
class Caller:
    """Who asked, and where: a workspace, a channel (None in a DM-less console) and a user."""

    workspace_id: str
    channel_id: str | None
    user_id: str
    timezone: str | None = None
