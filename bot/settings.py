"""One Settings object, read from the environment at the edge and passed down."""

from __future__ import annotations

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from storage.database import default_database_url


class Settings(BaseSettings):
    """leasewise's configuration. DATABASE_URL defaults to a SQLite file in the user's
    data directory; a team points it at PostgreSQL
    (``postgresql+psycopg://user@host/db``)."""

    model_config = SettingsConfigDict(env_prefix="", extra="ignore")

    database_url: str = Field(default_factory=default_database_url)
