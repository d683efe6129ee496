"""``create_app``: the Bolt app, built from settings and services, nothing at import time.

One workspace runs on a bot token; many run on OAuth, with installations kept
in the app's own database through slack_sdk's SQLAlchemy stores. Either way
Bolt verifies every request's signature and timestamp before a listener runs.

Slack wants every request acknowledged within 3 seconds, and Bolt offers two
ways to keep acks from waiting behind slow work: lazy listeners, or a listener
executor sized for the load with the slow part off it. Slow, here, is Slack
itself: a response_url that takes 5 s, a chat.postMessage waiting out a 429.
Bolt's default executor has 5 threads and each listener acked, then answered
and sent on its thread, so five answers waiting on Slack left every new ack
waiting for a thread until Slack gave up ("didn't call ack()").

This app takes the second way. Each listener acks, works out its answer
(parsing, the engine, the templates: milliseconds of CPU) and hands every call
to Slack to the courier (``bot.slack.delivery``), whose own threads do the
waiting. So the ``ANSWER_THREADS`` of Bolt's executor are only ever held by
CPU work (and the database), and a request waits for its ack at most behind the answers queued
before it, in order: under a burst, that queue is what keeps the backlog (and
memory) bounded. Lazy listeners were tried and measured with
``bench/slack_load.py`` (20 senders, same loaded 2-core machine, runs
interleaved): with the answers on threads of their own, acks outran answers,
nothing held the backlog back, and each ack then fought a pool of busy answer
threads for the GIL: p99 ack 1.26-1.54 s against 0.23-0.26 s for this design,
at two thirds of its throughput. Lazy listeners also deep-copy every request
and drop their exceptions (bolt-python#635).

Every failure, wherever it happens, goes to the one error handler
(``bot.slack.errors``); every reply, by the Web API or a response_url, is
retried alike (``bot.slack.delivery``).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from concurrent.futures import Executor, ThreadPoolExecutor

from slack_bolt import App, BoltContext
from slack_bolt.oauth.oauth_settings import OAuthSettings
from slack_sdk import WebClient
from slack_sdk.oauth.installation_store.sqlalchemy import SQLAlchemyInstallationStore
from slack_sdk.oauth.state_store.sqlalchemy import SQLAlchemyOAuthStateStore

from bot.services import Services
from bot.settings import Settings, SlackMode
from bot.slack import errors
from bot.slack.delivery import Courier, ResponseUrl, courier_pool, retry_handlers
from bot.slack.listeners import actions, commands, events, home, views

INSTALL_PATH = "/slack/install"
REDIRECT_PATH = "/slack/oauth_redirect"
OAUTH_STATE_SECONDS = 600
ANSWER_THREADS = 4
"""Bolt's listener executor: acks and the answers' CPU work. The GIL runs one thread of
Python at a time, so more threads add contention, not speed, and two leave acks
waiting on an answer's database reads. Measured with ``bench/slack_load.py`` on the
loaded 2-core machine: p99 ack 222-268 ms with 4, 271-749 ms with 8, 611-713 ms with 2."""


class MissingSettings(Exception):
    """Secrets the chosen mode needs are not set; the message names them."""


def make_client(settings: Settings) -> WebClient:
    """A Web API client that waits out 429s (Retry-After) and retries brief outages."""
    token = settings.slack_bot_token.get_secret_value() if settings.slack_bot_token else None
    return WebClient(
        token=token,
        base_url=settings.slack_api_url,
        timeout=30,
        retry_handlers=retry_handlers(settings.slack_retries),
    )


def workspace_clients(
    settings: Settings, services: Services
) -> Callable[[str], WebClient | None]:
    """For installs by OAuth: each workspace's client, with the bot token its install stored.

    Digests run outside any Slack request, so nothing hands them a token; they look up
    the workspace's installation, as Bolt's own authorization does for requests.
    """
    store = installation_store(settings, services)

    def client_for(workspace_id: str) -> WebClient | None:
        bot = store.find_bot(enterprise_id=None, team_id=workspace_id)
        if bot is None or not bot.bot_token:
            return None
        client = make_client(settings)
        client.token = bot.bot_token
        return client

    return client_for


def require_slack(settings: Settings, *, socket: bool = False) -> SlackMode:
    """How the app will talk to Slack; MissingSettings naming what to set, if it cannot."""
    mode = settings.slack_mode(socket=socket)
    if mode == "console":
        raise MissingSettings(
            "no Slack credentials are set: set SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET "
            "(one workspace), SLACK_CLIENT_ID, SLACK_CLIENT_SECRET and SLACK_SIGNING_SECRET "
            "(installable app), or SLACK_APP_TOKEN and SLACK_BOT_TOKEN (Socket Mode); "
            "`leasewise chat` runs without Slack"
        )
    missing = settings.missing_for(mode)
    if missing:
        raise MissingSettings(f"{mode} mode needs {', '.join(missing)} to be set")
    return mode


def create_app(
    settings: Settings,
    services: Services,
    *,
    client: WebClient | None = None,
    socket: bool = False,
) -> App:
    """The Bolt app with every listener registered.

    Raises:
        MissingSettings: a secret the mode needs is unset (names each variable).
    """
    mode = require_slack(settings, socket=socket)
    client = client or make_client(settings)
    secret = settings.slack_signing_secret
    signing_secret = secret.get_secret_value() if secret else None
    logger = logging.getLogger("leasewise.bolt")
    app = App(
        signing_secret=signing_secret,
        client=client,
        logger=logger,
        oauth_settings=_oauth_settings(settings, services) if mode == "oauth" else None,
        request_verification_enabled=mode != "socket",
        listener_executor=answer_pool(),
    )
    renderer = services.renderer
    courier = Courier(courier_pool(), lambda error, way: errors.report(renderer, error, way))
    errors.register(app, services, courier)
    _respond_with_retries(app, settings.slack_retries)
    commands.register(app, services, courier)
    events.register(app, services, courier)
    actions.register(app, services, courier)
    views.register(app, services, courier)
    views.register_admin(app, services, courier)
    home.register(app, services, courier)
    # Anything else Slack sends (an event type subscribed for later, say) is acknowledged,
    # so Slack does not retry it.
    app.event(re.compile(".*"))(lambda ack: ack())
    return app


def answer_pool() -> Executor:
    return ThreadPoolExecutor(max_workers=ANSWER_THREADS, thread_name_prefix="leasewise-answer")


def _respond_with_retries(app: App, retries: int) -> None:
    """Every listener's ``respond`` retries like the Web API client (see ``delivery``)."""
    handlers = retry_handlers(retries)

    @app.middleware
    def retrying_respond(context: BoltContext, next_: Callable[[], None]) -> None:
        context["respond"] = ResponseUrl(context.response_url, handlers=handlers)
        next_()


def installation_store(settings: Settings, services: Services) -> SQLAlchemyInstallationStore:
    """Installations live in the app's own database (tables made by our migrations)."""
    assert settings.slack_client_id, "installations are kept per OAuth client id"
    return SQLAlchemyInstallationStore(
        client_id=settings.slack_client_id, engine=services.sessions.kw["bind"]
    )


def _oauth_settings(settings: Settings, services: Services) -> OAuthSettings:
    assert settings.slack_client_id and settings.slack_client_secret
    engine = services.sessions.kw["bind"]
    return OAuthSettings(
        client_id=settings.slack_client_id,
        client_secret=settings.slack_client_secret.get_secret_value(),
        scopes=list(settings.slack_scopes),
        install_path=INSTALL_PATH,
        redirect_uri_path=REDIRECT_PATH,
        installation_store=installation_store(settings, services),
        state_store=SQLAlchemyOAuthStateStore(
            expiration_seconds=OAUTH_STATE_SECONDS, engine=engine
        ),
    )
