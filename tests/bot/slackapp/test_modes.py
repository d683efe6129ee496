"""How the app starts: one workspace's token, OAuth installs, Socket Mode; or refuses to."""

from __future__ import annotations

import asyncio
from urllib.parse import parse_qsl

import httpx
import pytest
from slack_bolt.adapter.socket_mode.internals import run_bolt_app
from slack_sdk.oauth.installation_store import Installation
from slack_sdk.socket_mode.request import SocketModeRequest

from bot.services import Services
from bot.settings import Settings
from bot.slack.app import MissingSettings, create_app, installation_store, workspace_clients
from bot.slack.server import build_asgi
from tests.bot.slackapp.conftest import Pools
from tests.fakes.signing import slash_command_body
from tests.fakes.slack_api import FakeSlack


def test_without_slack_credentials_the_app_refuses_and_says_what_to_set(
    services: Services,
) -> None:
    with pytest.raises(MissingSettings, match="SLACK_BOT_TOKEN"):
        create_app(Settings(database_url=services.settings.database_url), services)


def test_http_mode_without_a_signing_secret_names_it(services: Services, slack: FakeSlack) -> None:
    settings = Settings(
        database_url=services.settings.database_url,
        slack_bot_token="xoxb-1",
        slack_api_url=slack.api_url,
    )
    with pytest.raises(MissingSettings, match="SLACK_SIGNING_SECRET"):
        create_app(settings, services)


def test_socket_mode_builds_without_request_verification(
    services: Services, slack: FakeSlack
) -> None:
    settings = Settings(
        database_url=services.settings.database_url,
        slack_bot_token="xoxb-1",
        slack_app_token="xapp-1",
        slack_api_url=slack.api_url,
    )
    app = create_app(settings, services, socket=True)
    assert app.client.base_url == slack.api_url


def test_socket_mode_acks_a_command_and_answers_it(
    services: Services, slack: FakeSlack, pools: Pools
) -> None:
    settings = Settings(
        database_url=services.settings.database_url,
        slack_bot_token="xoxb-1",
        slack_app_token="xapp-1",
        slack_api_url=slack.api_url,
        slack_retries=1,
    )
    app = create_app(settings, services, socket=True)
    payload = dict(parse_qsl(slash_command_body(text="help", response_url=slack.response_url())))
    slack.rate_limit_next("response_url:r1", retry_after=1)  # retried in this mode too
    request = SocketModeRequest(type="slash_commands", envelope_id="e1", payload=payload)
    assert run_bolt_app(app, request).status == 200
    refused, delivered = slack.wait_for("response_url:r1", count=2, timeout=15)
    assert delivered.body["response_type"] == "ephemeral" and "quote save" in delivered.body["text"]


def test_oauth_install_page_links_to_slack_with_the_scopes(
    services: Services, slack: FakeSlack
) -> None:
    settings = Settings(
        database_url=services.settings.database_url,
        slack_client_id="111.222",
        slack_client_secret="client-secret",
        slack_signing_secret="signing-secret",
        slack_api_url=slack.api_url,
    )
    app = create_app(settings, services)
    transport = httpx.ASGITransport(app=build_asgi(app, services))

    async def get(path: str) -> httpx.Response:
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            return await client.get(path)

    response = asyncio.run(get("/slack/install"))
    assert response.status_code == 200
    assert "https://slack.com/oauth/v2/authorize" in response.text
    assert "client_id=111.222" in response.text
    assert "scope=" + ",".join(settings.slack_scopes) in response.text


def test_oauth_digests_post_with_each_workspaces_own_bot_token(
    services: Services, slack: FakeSlack
) -> None:
    settings = Settings(
        database_url=services.settings.database_url,
        slack_client_id="111.222",
        slack_client_secret="client-secret",
        slack_signing_secret="signing-secret",
        slack_api_url=slack.api_url,
    )
    installation_store(settings, services).save(
        Installation(
            app_id="A0LEASE",
            enterprise_id=None,
            team_id="T0001",
            user_id="U0SALES",
            bot_token="xoxb-acme-workspace",
            bot_id="B0BOT",
            bot_user_id="U0BOT",
            bot_scopes=list(settings.slack_scopes),
        )
    )
    client_for = workspace_clients(settings, services)
    assert client_for("T0UNKNOWN") is None
    client = client_for("T0001")
    assert client is not None
    client.chat_postMessage(channel="C0DEALS", text="digest")
    assert slack.calls_to("chat.postMessage")[0].token == "xoxb-acme-workspace"
