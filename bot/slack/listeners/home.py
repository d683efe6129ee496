"""App Home: the workspace's recent quotes, its digests, and what changed in the catalog.

Published lazily: views.publish may wait out a 429, and the event's ack must not.
"""

from __future__ import annotations

from typing import Any

from slack_bolt import App
from slack_sdk import WebClient

from bot.services import Services
from bot.slack.lazy import acknowledge
from storage import digests, quotes

RECENT_QUOTES = 10
NEWEST = 5


def register(app: App, services: Services) -> None:
    def on_home(event: dict[str, Any], body: dict[str, Any], client: WebClient) -> None:
        if event.get("tab", "home") != "home":
            return
        publish_home(services, client, workspace_id=body.get("team_id", ""), user=event["user"])

    app.event("app_home_opened")(ack=acknowledge, lazy=[on_home])


def publish_home(services: Services, client: WebClient, *, workspace_id: str, user: str) -> None:
    catalog = services.engines.current().catalog
    with services.sessions() as session:
        recent = quotes.recent(session, workspace_id=workspace_id, limit=RECENT_QUOTES)
        subscriptions = digests.subscriptions_for_workspace(session, workspace_id)
    view = services.renderer.view(
        "home",
        quotes=recent,
        subscriptions=subscriptions,
        stacks=sorted(catalog.stacks, key=lambda s: s.released, reverse=True)[:NEWEST],
        measurements=sorted(catalog.measurements, key=lambda m: m.source.date, reverse=True)[
            :NEWEST
        ],
        user_id=user,
    )
    client.views_publish(user_id=user, view=view)
