"""One Settings object, read from the environment at the edge and passed down.

Secrets are ``SecretStr`` so they never reach a log line or a traceback by
accident. Which secrets are needed depends on how the app runs (HTTP with one
workspace's token, HTTP with OAuth for many, Socket Mode); ``slack_mode`` and
``missing_for`` say so before anything starts, in words an operator can act on.

A secret that is blank (``SLACK_SIGNING_SECRET=" "``) counts as unset, and a set
one loses surrounding whitespace: Slack's tokens and secrets never contain any,
and a newline pasted in, or left by ``$(cat secret-file)``, would otherwise make
every signature check fail while the app reports itself healthy.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

SLACK_API_URL = "https://slack.com/api/"
SlackMode = Literal["http", "oauth", "socket", "console"]

DEFAULT_SCOPES = (
    "app_mentions:read",
    "channels:history",
    "groups:history",
    "im:history",
    "chat:write",
    "chat:write.public",
    "commands",
    "files:write",
    "users:read",
    "channels:read",
    "groups:read",
)
"""What the app asks for at install; slack/manifest.yaml lists the same."""


def _default_database_url() -> str:
    """Imported when needed: reading settings (``leasewise health``) needs no SQLAlchemy."""
    from storage.database import default_database_url

    return default_database_url()


class Settings(BaseSettings):
    """leasewise's configuration.

    DATABASE_URL defaults to a SQLite file in the user's data directory; a team
    points it at PostgreSQL (``postgresql+psycopg://user@host/db``).
    """

    model_config = SettingsConfigDict(env_prefix="", extra="ignore")

    database_url: str = Field(default_factory=_default_database_url)
    slack_bot_token: SecretStr | None = None
    slack_signing_secret: SecretStr | None = None
    slack_app_token: SecretStr | None = None
    slack_client_id: str | None = None
    slack_client_secret: SecretStr | None = None
    slack_state_secret: SecretStr | None = None
    slack_scopes: Annotated[tuple[str, ...], NoDecode] = DEFAULT_SCOPES
    slack_api_url: str = SLACK_API_URL
    leasewise_admins: Annotated[frozenset[str], NoDecode] = frozenset()
    host: str = Field(default="0.0.0.0", validation_alias="LEASEWISE_HOST")  # noqa: S104
    port: int = Field(default=3000, ge=1, le=65535, validation_alias="PORT")
    slack_retries: int = Field(default=2, ge=0, le=10, validation_alias="LEASEWISE_SLACK_RETRIES")
    quote_validity_days: int = Field(
        default=30, ge=1, le=365, validation_alias="LEASEWISE_QUOTE_VALIDITY_DAYS"
    )
    """Sales policy: a quote's price holds this many days from the day it was priced,
    unless the price book line that priced it says until when."""

    @field_validator(
        "slack_bot_token",
        "slack_signing_secret",
        "slack_app_token",
        "slack_client_id",
        "slack_client_secret",
        "slack_state_secret",
        mode="before",
    )
    @classmethod
    def _blank_is_unset(cls, value: object) -> object:
        if isinstance(value, str):
            return value.strip() or None
        return value

    @field_validator("leasewise_admins", "slack_scopes", mode="before")
    @classmethod
    def _comma_separated(cls, value: object) -> object:
        """Env vars hold lists as ``U1,U2``; Slack's own docs write scopes the same way."""
        if isinstance(value, str):
            return tuple(part.strip() for part in value.split(",") if part.strip())
        return value

    @field_validator("slack_api_url")
    @classmethod
    def _trailing_slash(cls, value: str) -> str:
        """slack_sdk joins method names onto the base URL and needs the slash."""
        return value if value.endswith("/") else value + "/"

    def slack_mode(self, *, socket: bool = False) -> SlackMode:
        """How the app would talk to Slack with these settings."""
        if socket:
            return "socket"
        if _is_set(self.slack_client_id) or _is_set(self.slack_client_secret):
            return "oauth"
        if _is_set(self.slack_bot_token) or _is_set(self.slack_signing_secret):
            return "http"
        return "console"

    def missing_for(self, mode: SlackMode) -> list[str]:
        """The environment variables ``mode`` needs that are not set."""
        needed: dict[str, object] = {}
        if mode == "http":
            needed = {
                "SLACK_BOT_TOKEN": self.slack_bot_token,
                "SLACK_SIGNING_SECRET": self.slack_signing_secret,
            }
        elif mode == "oauth":
            needed = {
                "SLACK_CLIENT_ID": self.slack_client_id,
                "SLACK_CLIENT_SECRET": self.slack_client_secret,
                "SLACK_SIGNING_SECRET": self.slack_signing_secret,
            }
        elif mode == "socket":
            needed = {
                "SLACK_APP_TOKEN": self.slack_app_token,
                "SLACK_BOT_TOKEN": self.slack_bot_token,
            }
        return [name for name, value in needed.items() if not _is_set(value)]

    def is_admin(self, user_id: str) -> bool:
        return user_id in self.leasewise_admins


def _is_set(value: object) -> bool:
    """Set to something other than whitespace (a SecretStr built in code skips the validator)."""
    if isinstance(value, SecretStr):
        value = value.get_secret_value()
    return bool(value.strip()) if isinstance(value, str) else value is not None
