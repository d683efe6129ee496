"""slack/manifest.yaml asks Slack for exactly what the code uses."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from bot.commands.table import COMMAND
from bot.settings import DEFAULT_SCOPES
from bot.slack.app import REDIRECT_PATH
from bot.slack.server import EVENTS_PATH

MANIFEST = Path(__file__).resolve().parents[2] / "slack" / "manifest.yaml"


def manifest() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(MANIFEST.read_text())
    return data


def test_the_command_is_the_one_the_app_listens_for() -> None:
    commands = manifest()["features"]["slash_commands"]
    assert [c["command"] for c in commands] == [COMMAND]
    assert all(c["url"].endswith(EVENTS_PATH) for c in commands)


def test_scopes_match_what_installs_ask_for() -> None:
    assert manifest()["oauth_config"]["scopes"]["bot"] == list(DEFAULT_SCOPES)
    assert manifest()["oauth_config"]["redirect_urls"][0].endswith(REDIRECT_PATH)


def test_events_are_those_the_app_handles() -> None:
    settings = manifest()["settings"]
    events = set(settings["event_subscriptions"]["bot_events"])
    assert {"app_mention", "app_home_opened", "message.channels"} <= events
    assert settings["interactivity"]["is_enabled"] is True
    assert settings["interactivity"]["request_url"].endswith(EVENTS_PATH)
    assert manifest()["features"]["app_home"]["home_tab_enabled"] is True
