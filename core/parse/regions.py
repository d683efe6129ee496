"""A request rate said per region, site or tenant, with the regions counted.

"5 rps *per region* and they're in 3 regions, all served from one deployment": the
deployment serves every region, so its volume is the rate times the regions, and the
multiplication is said back. A rate per member with no count of members is left as said
(``core.parse.products`` asks about a member's own rate said with nobody counted).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from core.parse import numbers
from core.parse.numbers import compact

if TYPE_CHECKING:
    from core.parse.facts import Reading

_MEMBERS = {
    "region": "regions",
    "site": "sites",
    "datacenter": "datacenters",
    "dc": "dcs",
    "tenant": "tenants",
    "cluster": "clusters",
    "office": "offices",
    "store": "stores",
    "country": "countries",
    "market": "markets",
    "environment": "environments",
    "env": "envs",
    "zone": "zones",
    "brand": "brands",
    "app": "apps",
    "product": "products",
}
_PER_MEMBER = re.compile(
    r"\s*[*_]?\s*(?:per|each|a|/)\s+(?P<member>"
    + "|".join(sorted(_MEMBERS, key=len, reverse=True))
    + r")\b",
    re.IGNORECASE,
)
"""Right after a rate, the member it is each one's: "5 rps *per region*"."""
_COUNTED = {
    member: re.compile(
        rf"\b(?P<n>\d{{1,3}}|two|three|four|five|six|seven|eight|nine|ten|twelve)\s+"
        rf"(?:[a-z-]+\s+)?{plural}\b",
        re.IGNORECASE,
    )
    for member, plural in _MEMBERS.items()
}
"""The members counted, for each kind: "they're in 3 regions", "there are 2 sites"."""


def per_member_rate(reading: Reading) -> None:
    """The rate of one member times the members counted (see the module docstring)."""
    said = reading.sources.get("requests_per_day")
    value = reading.values.get("requests_per_day")
    if not said or not isinstance(value, float):
        return
    history = reading.history.get("requests_per_day", [])
    if not history or history[-1][0] != value:
        return  # "~90 rps per region × 3 regions": multiplied out already
    per = None
    at = reading.find(said)
    while at >= 0 and per is None:  # "they said 5 rps. … it's 5 rps *per region*": either
        per = _PER_MEMBER.match(reading.text, at + len(said))
        at = reading.text.find(said, at + 1)
    if per is None:
        return
    member = per["member"].lower()
    counted = _COUNTED[member].search(reading.text)
    times = numbers.count(counted["n"]) if counted else None
    if counted is None or not times or times < 2 or times != int(times):
        return
    total = value * times
    reading.values["requests_per_day"] = total
    reading.understood.append(
        f"{compact(total)} requests/day: '{said}' per {member} × {times:g} "
        f"('{' '.join(counted.group().split())}')"
    )
