"""``/lease digest subscribe|unsubscribe|list``: which channels hear about changes, and when.

``subscribe [#channel] [day] [hour] [tz] [threshold]`` in any order: a day name
(``monday``/``mon``), an hour (``9``, ``9am``, ``17:00``), an IANA time zone
(``Europe/Berlin``; default: the subscriber's Slack time zone), thresholds
(``5%`` and/or ``$500``), and ``weekly`` for a "no change" line in quiet weeks.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.commands.table import Table
from bot.conversation import Reply
from bot.digests.compose import DEFAULT_PCT, DEFAULT_USD, digest_between
from bot.services import Caller, Services
from core.errors import InputError
from storage import digests

DEFAULT_DAY, DEFAULT_HOUR = 0, 9
USAGE = "e.g. `/lease digest subscribe #deals monday 9am Europe/Berlin 5% $500`"
PREVIEW_USAGE = "e.g. `/lease digest preview since=2026-10-12 until=2026-10-19`"
DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_CHANNEL = re.compile(r"<#(C[A-Z0-9]+|G[A-Z0-9]+)(?:\|[^>]*)?>")
def _same(value: str) -> str:
    return value


_KEYS: dict[str, Callable[[str], str]] = {
    "day": _same,
    "hour": _same,
    "tz": _same,
    "timezone": _same,
    "threshold": _same,
    "threshold_pct": lambda v: v if v.endswith("%") else v + "%",
    "threshold_usd": lambda v: v if v.startswith("$") else "$" + v,
}
"""``key=value`` forms of the same settings, as ``/lease help`` shows them."""
_HOUR = re.compile(r"^(\d{1,2})(?::00)?\s*(am|pm)?$", re.IGNORECASE)


@dataclass
class Schedule:
    channel_id: str | None = None
    day: int = DEFAULT_DAY
    hour: int = DEFAULT_HOUR
    timezone: str | None = None
    pct: float = DEFAULT_PCT
    usd: float = DEFAULT_USD
    weekly: bool = False
    unread: list[str] = field(default_factory=list)


def register(table: Table) -> None:
    table["digest"] = run


def run(services: Services, caller: Caller, text: str) -> Reply:
    verb, _, rest = text.strip().partition(" ")
    verb = verb.lower()
    if verb == "subscribe":
        return _subscribe(services, caller, read_schedule(rest))
    if verb == "unsubscribe":
        channel = read_schedule(rest).channel_id or _here(caller)
        with services.sessions.begin() as session:
            gone = digests.unsubscribe(
                session, workspace_id=caller.workspace_id, channel_id=channel
            )
        return Reply("digest_unsubscribed", {"channel_id": channel, "was_subscribed": gone})
    if verb == "preview":
        return _preview(services, caller, rest)
    if verb in ("list", ""):
        with services.sessions() as session:
            subs = digests.subscriptions_for_workspace(session, caller.workspace_id)
            runs = {s.id: digests.runs_for(session, s.id, limit=1) for s in subs}
        return Reply("digest_list", {"subscriptions": subs, "last_runs": runs}, ephemeral=True)
    raise InputError(
        f"'{verb}' is not a digest command: use subscribe, unsubscribe, list or preview",
        field="digest",
        hint=USAGE,
    )


def _preview(services: Services, caller: Caller, text: str) -> Reply:
    """What the channel's digest would say now: the week up to today, or ``since=``/``until=``."""
    until = _date(text, "until") or services.clock().date()
    since = _date(text, "since") or until - timedelta(days=7)
    if since >= until:
        raise InputError("since must come before until", field="since", hint=PREVIEW_USAGE)
    pct, usd = DEFAULT_PCT, DEFAULT_USD
    if caller.channel_id is not None:
        with services.sessions() as session:
            found = digests.subscription_for(
                session, workspace_id=caller.workspace_id, channel_id=caller.channel_id
            )
            if found is not None:
                pct, usd = found.threshold_pct, found.threshold_usd
    digest = digest_between(
        services,
        caller.workspace_id,
        since=since,
        until=until,
        threshold_pct=pct,
        threshold_usd=usd,
    )
    template = "digest_quiet" if digest.is_empty else "digest"
    return Reply(template, {"digest": digest}, ephemeral=True)


def _date(text: str, key: str) -> date | None:
    found = re.search(rf"\b{key}\s*=\s*(\S+)", text)
    if not found:
        return None
    try:
        return date.fromisoformat(found.group(1))
    except ValueError as exc:
        raise InputError(
            f"{found.group(1)!r} is not a date", field=key, hint=PREVIEW_USAGE
        ) from exc


def read_schedule(text: str) -> Schedule:
    """Every word of ``text`` read as a schedule setting; unknown words are reported."""
    schedule = Schedule()
    channel = _CHANNEL.search(text)
    if channel:
        schedule.channel_id = channel.group(1)
        text = text[: channel.start()] + text[channel.end() :]
    for word in text.split():
        key, sep, value = word.partition("=")
        if sep and key.lower() in _KEYS:  # day=monday hour=9 tz=UTC threshold=5%
            word = _KEYS[key.lower()](value)
        lower = word.lower().rstrip(",")
        hour = _HOUR.match(lower)
        day = next((i for i, d in enumerate(DAYS) if len(lower) >= 3 and d.startswith(lower)), None)
        if day is not None:
            schedule.day = day
        elif hour:
            clock = int(hour.group(1)) % 12 if hour.group(2) else int(hour.group(1))
            schedule.hour = clock + (12 if (hour.group(2) or "").lower() == "pm" else 0)
        elif lower.endswith("%"):
            schedule.pct = _number(lower[:-1], "threshold_pct")
        elif lower.startswith("$"):
            schedule.usd = _number(lower[1:].replace(",", ""), "threshold_usd")
        elif lower == "weekly":
            schedule.weekly = True
        elif "/" in word or word.upper() == "UTC":
            schedule.timezone = _zone(word)
        else:
            schedule.unread.append(word)
    return schedule


def _subscribe(services: Services, caller: Caller, schedule: Schedule) -> Reply:
    if schedule.unread:
        raise InputError(
            f"could not read {', '.join(repr(w) for w in schedule.unread)} as a schedule",
            field="digest",
            hint=USAGE,
        )
    timezone = schedule.timezone or caller.timezone or "UTC"
    with services.sessions.begin() as session:
        subscription = digests.subscribe(
            session,
            workspace_id=caller.workspace_id,
            channel_id=schedule.channel_id or _here(caller),
            day_of_week=schedule.day,
            hour=schedule.hour,
            timezone=timezone,
            threshold_pct=schedule.pct,
            threshold_usd=schedule.usd,
            created_by=caller.user_id,
            now=services.clock(),
            weekly_no_change=schedule.weekly,
        )
    return Reply("digest_subscribed", {"subscription": subscription, "day_name": DAYS})


def _here(caller: Caller) -> str:
    if caller.channel_id is None:
        raise InputError("which channel?", field="channel", hint=USAGE)
    return caller.channel_id


def _zone(word: str) -> str:
    try:
        ZoneInfo(word)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise InputError(
            f"unknown time zone {word!r}",
            field="timezone",
            hint="use an IANA name, e.g. Europe/Berlin or America/New_York",
        ) from exc
    return word


def _number(text: str, field_name: str) -> float:
    try:
        return float(text)
    except ValueError as exc:
        raise InputError(f"{text!r} is not a number", field=field_name, hint=USAGE) from exc
