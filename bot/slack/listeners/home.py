"""App Home: the workspace's recent quotes, its digests, and what changed in the catalog.

Worked out on the answer thread, published by the courier: views.publish may wait out a
429, and nothing that acks should wait with it.
"""

from __future__ import annotations

from typing import Any

from slack_bolt import App
from slack_sdk import WebClient

from bot.services import Services
from bot.slack.delivery import Courier, Respond, Way
from storage import digests, quotes

RECENT_QUOTES = 10
NEWEST = 5


def register(app: App, services: Services, courier: Courier) -> None:
    @app.event("app_home_opened")
    def on_home(
        event: dict[str, Any], body: dict[str, Any], respond: Respond, client: WebClient
    ) -> None:
        if event.get("tab", "home") != "home":
            return
        user = event["user"]
        view = home_view(services, workspace_id=body.get("team_id", ""), user=user)
        way = Way(body, respond, client)
        courier.send(lambda: client.views_publish(user_id=user, view=view), way)


def home_view(services: Services, *, workspace_id: str, user: str) -> dict[str, Any]:
    catalog = services.engines.current().catalog
    with services.sessions() as session:
        recent = quotes.recent(session, workspace_id=workspace_id, limit=RECENT_QUOTES)
        subscriptions = digests.subscriptions_for_workspace(session, workspace_id)
    return services.renderer.view(
        "home",
        quotes=recent,
        subscriptions=subscriptions,
        stacks=sorted(catalog.stacks, key=lambda s: s.released, reverse=True)[:NEWEST],
        measurements=sorted(catalog.measurements, key=lambda m: m.source.date, reverse=True)[
            :NEWEST
        ],
        user_id=user,
    )
