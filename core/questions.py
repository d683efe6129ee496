"""The two questions leasewise answers, and the answer each gets.

A *Scenario* asks about one deployment (this model on these GPUs at this batch)
and is answered by an *Estimate*; a *Traffic* asks how to serve a customer's
load and is answered by a *Sizing*. Everything above the core (threads, saved
quotes, buttons, digests) carries one of the two questions and re-asks it.
"""

from __future__ import annotations

from typing import Literal, TypeAlias

from core.scenario import Estimate, Scenario
from core.sizing import Sizing
from core.traffic import Traffic

Question: TypeAlias = Scenario | Traffic
Economics: TypeAlias = Estimate | Sizing
Kind = Literal["scenario", "traffic"]


def kind_of(question: Question) -> Kind:
    return "scenario" if isinstance(question, Scenario) else "traffic"
