"""Running the Bolt app: HTTP on an ASGI server, or Socket Mode.

HTTP mode mounts Bolt's request handling on Starlette under uvicorn:
``/slack/events`` (commands, events, interactivity), ``/slack/install`` and
``/slack/oauth_redirect`` for installs, and ``/healthz`` for the orchestrator.
Bolt's own Starlette adapter calls the synchronous app on the event loop; here
each request is dispatched on a worker thread instead, and returns as soon as
its listener has acked (see ``bot.slack.app``). ``/slack/events`` lets only
small, signed, well-formed bodies through to Bolt (``bot.slack.gate``).
"""

from __future__ import annotations

import gc
import logging

from slack_bolt import App
from slack_bolt.adapter.starlette.handler import to_bolt_request, to_starlette_response
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from bot.digests.schedule import DigestScheduler
from bot.services import Services
from bot.settings import Settings
from bot.slack.app import INSTALL_PATH, REDIRECT_PATH
from bot.slack.gate import Gate, bolt_request
from storage.health import DatabaseHealth, DatabaseProbe

log = logging.getLogger("leasewise.serve")
EVENTS_PATH = "/slack/events"
HEALTH_PATH = "/healthz"
SHUTDOWN_WAIT_S = 1.0
"""A calibration under way does not hold up shutdown: its daemon thread ends with us."""


def build_asgi(app: App, services: Services) -> Starlette:
    """The ASGI application serving ``app``; health checks the database too."""

    gate = Gate.for_secret(_signing_secret(services.settings))

    async def events(request: Request) -> Response:
        body = await gate.admit(request)
        if isinstance(body, Response):
            return body
        bolt_response = await run_in_threadpool(app.dispatch, bolt_request(request, body))
        return to_starlette_response(bolt_response)

    async def install(request: Request) -> Response:
        flow = app.oauth_flow
        if flow is None:
            return PlainTextResponse("this app is installed with a bot token", status_code=404)
        body = await request.body()
        bolt_request = to_bolt_request(request, body)
        handle = flow.handle_installation if request.url.path == INSTALL_PATH else None
        handle = handle or flow.handle_callback
        return to_starlette_response(await run_in_threadpool(handle, bolt_request))

    database = DatabaseProbe.for_sessions(services.sessions)

    async def health(request: Request) -> Response:
        """200 while the database reads and takes writes (or a busy writer holds it for
        now), 503 otherwise; the body says what was checked."""
        checked = await run_in_threadpool(_ping, database)
        body = {
            "status": "ok" if checked.healthy else "unhealthy",
            "database": checked.state,
            "checks": {"database": checked.as_dict()},
        }
        return JSONResponse(body, 200 if checked.healthy else 503)

    return Starlette(
        routes=[
            Route(EVENTS_PATH, events, methods=["POST"]),
            Route(INSTALL_PATH, install, methods=["GET"]),
            Route(REDIRECT_PATH, install, methods=["GET"]),
            Route(HEALTH_PATH, health, methods=["GET"]),
        ]
    )


def _ping(database: DatabaseProbe) -> DatabaseHealth:
    """The probe bounds its own wait (timeouts and a deadline), so this never hangs."""
    return database.check()


def warm_up(services: Services) -> None:
    """Build what the first request would otherwise wait for, then freeze it.

    ``gc.freeze`` moves the catalog and calibrated engine out of the collector's
    reach: a full collection no longer walks them in the middle of a request.
    """
    services.engines.current()
    services.renderer.message("help", command="/lease", topic=None)
    gc.collect()
    gc.freeze()
    services.engines.start()  # from now on, other replicas' changes are built in the background


def run_http(
    app: App, services: Services, settings: Settings, scheduler: DigestScheduler | None
) -> None:
    import uvicorn

    warm_up(services)
    if scheduler is not None:
        scheduler.start()
    try:
        uvicorn.run(
            build_asgi(app, services), host=settings.host, port=settings.port, log_level="info"
        )
    finally:
        if scheduler is not None:
            scheduler.shutdown()
        services.engines.stop(timeout=SHUTDOWN_WAIT_S)


def run_socket(
    app: App, services: Services, settings: Settings, scheduler: DigestScheduler | None
) -> None:
    from slack_bolt.adapter.socket_mode import SocketModeHandler

    assert settings.slack_app_token is not None
    warm_up(services)
    if scheduler is not None:
        scheduler.start()
    try:
        SocketModeHandler(app, settings.slack_app_token.get_secret_value()).start()
    finally:
        if scheduler is not None:
            scheduler.shutdown()
        services.engines.stop(timeout=SHUTDOWN_WAIT_S)


def _signing_secret(settings: Settings) -> str:
    secret = settings.slack_signing_secret
    if secret is None:
        raise ValueError("HTTP mode needs SLACK_SIGNING_SECRET: every request is checked with it")
    return secret.get_secret_value()
