"""slack_sdk's own SQLAlchemy OAuth stores work on the tables our migrations create."""

from __future__ import annotations

import time

from slack_sdk.oauth.installation_store import Installation
from slack_sdk.oauth.installation_store.sqlalchemy import SQLAlchemyInstallationStore
from slack_sdk.oauth.state_store.sqlalchemy import SQLAlchemyOAuthStateStore


def test_an_installation_saved_by_slack_sdk_is_found_again(db_engine, session_factory):
    store = SQLAlchemyInstallationStore(client_id="111.222", engine=db_engine)
    store.save(
        Installation(
            app_id="A1",
            enterprise_id=None,
            team_id="T1",
            user_id="U1",
            bot_token="xoxb-test",
            bot_id="B1",
            bot_user_id="UB1",
            bot_scopes=["commands", "chat:write"],
            installed_at=time.time(),
        )
    )
    bot = store.find_bot(enterprise_id=None, team_id="T1")
    assert bot is not None and bot.bot_token == "xoxb-test"
    installation = store.find_installation(enterprise_id=None, team_id="T1")
    assert installation is not None and installation.user_id == "U1"


def test_an_oauth_state_is_issued_once_and_consumed_once(db_engine, session_factory):
    store = SQLAlchemyOAuthStateStore(expiration_seconds=600, engine=db_engine)
    state = store.issue()
    assert store.consume(state) is True
    assert store.consume(state) is False
