"""Settings: read from the environment, secrets kept secret, missing ones named."""

from __future__ import annotations

import pytest
from pydantic import SecretStr

from bot.settings import Settings


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in (
        "SLACK_BOT_TOKEN",
        "SLACK_SIGNING_SECRET",
        "SLACK_APP_TOKEN",
        "SLACK_CLIENT_ID",
        "SLACK_CLIENT_SECRET",
        "LEASEWISE_ADMINS",
        "SLACK_API_URL",
    ):
        monkeypatch.delenv(name, raising=False)


def test_no_tokens_means_the_local_console() -> None:
    assert Settings().slack_mode() == "console"


def test_admins_are_a_comma_separated_list(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LEASEWISE_ADMINS", "U1, U2,,U3")
    settings = Settings()
    assert settings.leasewise_admins == frozenset({"U1", "U2", "U3"})
    assert settings.is_admin("U2") and not settings.is_admin("U4")


def test_secrets_never_print(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SLACK_BOT_TOKEN", "xoxb-very-secret")
    monkeypatch.setenv("SLACK_SIGNING_SECRET", "shh")
    settings = Settings()
    assert "xoxb-very-secret" not in repr(settings) and "shh" not in str(settings)
    assert settings.slack_mode() == "http" and settings.missing_for("http") == []


@pytest.mark.parametrize(
    ("env", "mode", "missing"),
    [
        ({"SLACK_BOT_TOKEN": "xoxb-1"}, "http", ["SLACK_SIGNING_SECRET"]),
        ({"SLACK_CLIENT_ID": "1.2"}, "oauth", ["SLACK_CLIENT_SECRET", "SLACK_SIGNING_SECRET"]),
    ],
)
def test_a_missing_secret_is_named(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], mode: str, missing: list[str]
) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    settings = Settings()
    assert settings.slack_mode() == mode
    assert settings.missing_for(settings.slack_mode()) == missing


def test_socket_mode_needs_the_app_token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SLACK_BOT_TOKEN", "xoxb-1")
    assert Settings().missing_for(Settings().slack_mode(socket=True)) == ["SLACK_APP_TOKEN"]


def test_api_url_gets_the_slash_slack_sdk_needs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SLACK_API_URL", "http://127.0.0.1:9999/api")
    assert Settings().slack_api_url == "http://127.0.0.1:9999/api/"


@pytest.mark.parametrize(
    ("env", "mode", "missing"),
    [
        (
            {"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_SIGNING_SECRET": "   "},
            "http",
            ["SLACK_SIGNING_SECRET"],
        ),
        ({"SLACK_BOT_TOKEN": "\t\n", "SLACK_SIGNING_SECRET": "shh"}, "http", ["SLACK_BOT_TOKEN"]),
        (
            {"SLACK_CLIENT_ID": "1.2", "SLACK_CLIENT_SECRET": " ", "SLACK_SIGNING_SECRET": "s"},
            "oauth",
            ["SLACK_CLIENT_SECRET"],
        ),
    ],
)
def test_a_blank_secret_counts_as_unset(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], mode: str, missing: list[str]
) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    settings = Settings()
    assert settings.slack_mode() == mode
    assert settings.missing_for(mode) == missing


def test_a_blank_app_token_leaves_socket_mode_missing_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SLACK_BOT_TOKEN", "xoxb-1")
    monkeypatch.setenv("SLACK_APP_TOKEN", "  ")
    assert Settings().missing_for("socket") == ["SLACK_APP_TOKEN"]


def test_only_blank_secrets_mean_the_local_console(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SLACK_BOT_TOKEN", " ")
    monkeypatch.setenv("SLACK_SIGNING_SECRET", "")
    assert Settings().slack_mode() == "console"


def test_a_secret_loses_the_newline_a_file_or_a_paste_left_on_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("SLACK_SIGNING_SECRET", "8f742231b10e8888abcd99yyyzzz85a5\n")
    secret = Settings().slack_signing_secret
    assert secret is not None and secret.get_secret_value() == "8f742231b10e8888abcd99yyyzzz85a5"


def test_a_blank_secret_given_in_code_counts_as_unset_too() -> None:
    settings = Settings(slack_bot_token=SecretStr("xoxb-1"), slack_signing_secret=SecretStr(" "))
    assert settings.missing_for("http") == ["SLACK_SIGNING_SECRET"]
