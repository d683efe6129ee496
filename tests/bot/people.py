"""Who and when, in the bot's tests: one admin, one sales engineer, a fixed Monday morning."""

from __future__ import annotations

import datetime as dt

ADMIN = "U0ADMIN"
SALES = "U0SALES"
NOW = dt.datetime(2026, 11, 30, 9, 0, tzinfo=dt.UTC)
