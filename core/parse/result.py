"""``parse``: a Slack message -> ``Parsed`` (fields, kind, and what to say back).

Fields by kind, decided once here:

- scenario (and unknown): ``gpu`` is the first GPU named, ``gpus`` its count;
- traffic: ``gpus`` is the tuple of GPU ids the sizing may use (a count given with
  them is said back as ignored: the sizing chooses counts).

``key=value`` pairs are applied after prose, so they win.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from core.catalog import Catalog
from core.parse import context
from core.parse.api_prices import both_sides
from core.parse.bare_rates import shared_rate, unsided_rate
from core.parse.breakdowns import breakdown, listed
from core.parse.calls import call_minutes, concurrent_turns
from core.parse.cjk import spelled_out
from core.parse.concurrency import (
    chosen_batch,
    concurrency_of_members,
    concurrency_per_gpu,
    concurrency_per_node,
)
from core.parse.counts import calls_added, counts_first
from core.parse.dates import dates
from core.parse.deployments import grouped, nodes_to_gpus, replica_size, replicas
from core.parse.discounts import discounted
from core.parse.facts import LENGTHS, Reading, read
from core.parse.glossary import in_english
from core.parse.grammar import matches
from core.parse.hypotheticals import hypotheticals_set_aside
from core.parse.keyvalue import Pairs, read_pairs
from core.parse.later import later
from core.parse.leftovers import unread_additions
from core.parse.lexicon import lexicon_for
from core.parse.markup import MAX_CHARS, plain_text
from core.parse.mixes import mixed_lengths
from core.parse.numbers import compact, count
from core.parse.numerals import in_digits
from core.parse.openings import words_opening
from core.parse.options import RIVAL_WORDS, deal_price, taken
from core.parse.peaks import peak_restated
from core.parse.plausible import implausible
from core.parse.products import each_ones_rate, each_ones_volume, multiply
from core.parse.reasoning import included_reasoning, reasoning_multiple, split_reasoning, tokens_of
from core.parse.references import blank_references
from core.parse.regions import per_member_rate
from core.parse.replies import answered
from core.parse.rows import one_models_lines
from core.parse.sums import add_up
from core.parse.tables import as_sentences, structured
from core.parse.targets import targets_only
from core.parse.tokens import scan
from core.parse.trends import trend
from core.parse.units import defined_requests
from core.parse.volumes import (
    active_hours,
    output_share,
    over_a_window,
    pages,
    part_of_a_total,
    request_split,
    totals,
    weekdays_and_weekends,
    window_share,
)
from core.parse.workloads import chosen
from core.pricing import offered_gpus
from core.scenario import Scenario
from core.traffic import Traffic

Kind = Literal["scenario", "traffic", "unknown"]
VOLUME = ("output_tokens_per_day", "requests_per_day", "requests_per_hour", "requests_per_minute")
TRAFFIC_TERMS = (0, 12, 24, 36)


class Parsed(BaseModel):
    """What a message said, in the JSON contract's field names, and what to say back about it."""

    model_config = ConfigDict(frozen=True)

    kind: Kind
    fields: dict[str, Any]
    understood: list[str]
    assumed: list[str]
    missing: list[str]
    ambiguities: list[str]

    def scenario(self) -> Scenario | None:
        """The validated Scenario, or None if this is not a complete, valid one."""
        if self.kind != "scenario" or self.missing:
            return None
        built = _build(Scenario, self.fields)
        return built if isinstance(built, Scenario) else None

    def traffic(self) -> Traffic | None:
        """The validated Traffic, or None if this is not a complete, valid one."""
        if self.kind != "traffic" or self.missing:
            return None
        built = _build(Traffic, self.fields)
        return built if isinstance(built, Traffic) else None


def _build(
    cls: type[Scenario] | type[Traffic], fields: dict[str, Any]
) -> Scenario | Traffic | None:
    try:
        return cls(**{k: v for k, v in fields.items() if k in cls.model_fields})
    except (ValidationError, TypeError):
        return None


def understand(text: str, catalog: Catalog) -> tuple[Reading, Pairs, bool]:
    """The kind-neutral reading of a message, its ``key=value`` pairs, and whether it was cut."""
    plain, cut = plain_text(text)
    plain = in_english(in_digits(spelled_out(plain)))  # "dos (2) años" restates 2
    plain, as_of = dates(plain)
    plain = blank_references(plain)
    plain, what_ifs = hypotheticals_set_aside(plain)
    if " of " in plain:
        plain = _TOKENS_OF.sub(lambda m: m["t"] + " " * len(m["what"]) + m["side"], plain)
    if "$" in plain:
        plain = _OTHER_DOLLARS.sub(_currency, plain)  # "R$ 15", "CA$", "2,40 $ CA": no USD
    whole = plain
    plain, workload = chosen(plain)
    plain, target_column = targets_only(plain)
    prose = calls_added(counts_first(as_sentences(plain)))  # a table's rows as prose
    tokens = scan(prose, lexicon_for(catalog))
    one = one_models_lines(prose, tokens.toks) if "\n" in prose else None
    if one is not None:  # "only the gpt-oss line moves": the other models' lines are blanked
        prose = one[0]
        tokens = scan(prose, lexicon_for(catalog))
    reading = read(prose, tokens.toks, matches(tokens.toks))
    if one is not None:
        reading.assume(f"only the {one[1]} line read: the other models' lines stay where they run")
    if target_column is not None:
        reading.assume(target_column)
    for note in what_ifs:
        reading.assume(note)
    if workload is not None:
        reading.assume(workload)
        if "model" not in reading.values or not reading.gpu_ids:
            shared_model(reading, whole, catalog)
    multiply(reading, tokens.counts)
    each_ones_volume(reading, tokens.counts)
    each_ones_rate(reading)
    per_member_rate(reading)
    defined_requests(reading)
    call_minutes(reading)
    concurrent_turns(reading)
    totals(reading, tokens.counts)
    over_a_window(reading)
    peak_restated(reading)
    window_share(reading)
    unsided_rate(reading)
    shared_rate(reading)
    active_hours(reading)
    pages(reading)
    part_of_a_total(reading)
    output_share(reading)
    request_split(reading)
    weekdays_and_weekends(reading)
    add_up(reading)
    summed(reading)
    mixed_lengths(reading)
    later(reading)
    trend(reading)
    tokens_of(reading)
    split_reasoning(reading)
    included_reasoning(reading)
    reasoning_multiple(reading)
    nodes_to_gpus(reading, catalog)
    grouped(reading)
    replicas(reading)
    replica_size(reading, catalog)
    concurrency_per_node(reading)
    concurrency_of_members(reading)
    concurrency_per_gpu(reading)
    chosen_batch(reading)
    taken(reading)
    deal_price(reading)
    unread_additions(reading, tokens.counts)
    for day, said in as_of:
        reading.put("as_of", day, f"as of {day.isoformat()}", said)
    for number in tokens.refused:
        reading.ambiguous(f"ignored the number '{number}': out of range")
    for note in tokens.unclear:
        reading.ambiguous(note)
    pasted = structured(plain)
    reading.assumed.extend(pasted.notes)
    return reading, read_pairs([*pasted.pairs, *tokens.pairs], catalog, pasted.said), cut


_OTHER_DOLLARS = re.compile(
    r"(?<![A-Za-z])(?P<pre>R|CA|C|CAD|A|AU|AUD|NZ|S|SG|HK|MX|NT)\$\s?"
    r"|\$\s?(?P<post>CA|CAD|AU|AUD|NZ|NZD|SG|SGD|HK|HKD|MX|MXN)\b"
)
"""Dollars that are not US dollars, marked before or after the sign: Brazil's reais
("R$ 15,00"), Canadian ("CA$", "2,40 $ CA"), Australian, Singapore, Hong Kong..."""
_CURRENCIES = {"R": "BRL", "C": "CAD", "CA": "CAD", "A": "AUD", "AU": "AUD", "NZ": "NZD"}
_CURRENCIES |= {"S": "SGD", "SG": "SGD", "HK": "HKD", "MX": "MXN", "NT": "TWD"}


def _currency(m: re.Match[str]) -> str:
    """The currency's code in the sign's place, spaced as written ("CA$" -> "CAD")."""
    mark = m["pre"] or m["post"]
    code = _CURRENCIES.get(mark, mark)  # "CAD$", "$ AUD": the code itself
    return f"{code} " if m["pre"] else code


_TOKENS_OF = re.compile(
    f"(?P<t>{words_opening(('tok(?:en)?s?',), ignorecase=True)})"
    r"(?i:(?P<what>\s+of\s+(?:[a-z]+[\s-]+){1,2}?)(?P<side>in|out|input|output)\b)"
)
"""What the tokens are of, blanked: "~9k tokens of transcript in" is 9k tokens in."""


def summed(reading: Reading) -> None:
    """A volume broken down under a header ("Traffic by region (avg req/day):") or listed
    after its rate ("tenant A 100k req/day, B 250k, C 50k"), summed."""
    source = reading.sources.get("requests_per_day")
    value = reading.values.get("requests_per_day")
    if source is not None and isinstance(value, float):
        found = listed(reading.text, source, value)
        if found is not None:  # "tenant A 100k req/day, B 250k, C 50k … combined"
            reading.withdraw("requests_per_day")
            reading.match = None
            reading.put(
                "requests_per_day", found[0], f"{compact(found[0])} requests/day in all", found[1]
            )
            return
    parts = breakdown(reading.text, reading.lower)
    if parts is None or parts.field in reading.values:
        return
    unit = "requests/day" if parts.field == "requests_per_day" else "output tokens/day"
    reading.match = None
    reading.put(parts.field, parts.total, f"{compact(parts.total)} {unit} in all", parts.said)


def shared_model(reading: Reading, whole: str, catalog: Catalog) -> None:
    """The model a chosen workload leaves to the others ("After: …, same model in FP8"), and
    the GPU named only in another option's line ("A = 12 months at $4.40/hr on B200")."""
    toks = scan(whole, lexicon_for(catalog)).toks
    named = [t for t in toks if t.type == "MODEL"]
    if named and "model" not in reading.values:
        reading.values["model"] = str(named[0].value)
        reading.model_said = named[0].text
        reading.sources["model"] = named[0].text
        reading.assume(f"model '{named[0].text}' taken from the workload not sized")
    gpus = list(dict.fromkeys(str(t.value) for t in toks if t.type == "GPU"))
    if len(gpus) == 1 and not reading.gpu_ids:
        reading.gpu_ids.append(gpus[0])
        reading.gpu_said.append(f"GPU {gpus[0]}")
        reading.assume(f"GPU {gpus[0]} taken from the option not sized: the only one named")


_ABOUT_US = re.compile(
    r"\b(?:does|can|will|is|do)\s+(?:leasewise|the\s+(?:bot|tool|advisor|sizer)|it|you)\s+"
    r"(?:handle|support|model|account\s+for|do|know|cover)\b[^?]*\?"
    r"|\bwhy\s+(?:does|did|do|is|was)\s+(?:the\s+|your\s+|leasewise'?s?\s+)?(?:sizing\s+|bot'?s?\s+)?"
    r"(?:report|answer|estimate|quote|bot|tool|advisor|leasewise|sizing|reply)\b[^?]*\?",
    re.IGNORECASE,
)
"""A question about the advisor itself, with no model or GPU: no sizing."""
_NOTHING_ASKED = re.compile(
    words_opening(
        (
            r"no\s+action\s+(?:needed|required)",
            r"nothing\s+to\s+(?:size|price|quote|do)\b",
            r"no\s+(?:sizing|quote|pricing)\s+(?:needed|required)",
            r"no\s+need\s+to\s+(?:size|price|quote|run)",
        ),
        ignorecase=True,
    )
)
"""A message that says nothing is asked of the advisor: a recap, not a sizing."""
_ASIDE_CUES = re.compile(r"no\s+(?:action|sizing|quote|pricing|need)|nothing\s+to|fyi")
"""One cheap look for the words of either, before their regexes run."""
_FYI = re.compile(r"\b(?:fyi\s+only|just\s+(?:an\s+)?fyi)\b", re.IGNORECASE)
"""Said of a whole message with no volume in it, a note for the record; beside a volume,
of a detail ("… layout FYI only")."""
_CAPACITY_ASKED = re.compile(
    r"\bhow\s+(?:many|much)\s+(?:concurrent\s+|simultaneous\s+)?(?:users|requests|sessions|streams"
    r"|people|traffic|throughput)\b[^?.]{0,80}?\b(?:support|handle|serve|sustain|fit|get)\b",
    re.IGNORECASE,
)
"""A fixed deployment asked for what it holds: its count is the deployment, not a hint."""
_ASKS_ABOUT = re.compile(
    r"\b(?:supported|support|better|which\s+one|vs\.?|versus|compatible|does\s+it\s+run)\b"
    r"(?:[^.!]|\.(?=\d))*\?"
    r"|\b(?:look|looks)\s+(?:good|great|faster|better)\b"
    r"|\b(?:runs?|works?)\s+on\s+[^.!?]{1,30}?\bat\s+all\b"
    r"|\b(?:catalog|catalogue)\b[^.!]*\?",
    re.IGNORECASE,
)
"""A model on a GPU asked about, not to be sized: "H100 vs H200 for Llama 70B, which one is
better?", "Is Llama 405B supported on MI300X?"."""
LEASE_TERMS = (
    "price_per_gpu_hour",
    "term_months",
    "api_price_per_million_output",
    "api_price_per_million_input",
    "utilization",
)
DEMAND = (
    "max_ttft_s",
    "min_per_user_tokens_per_s",
    "monthly_growth",
    "peak_to_average",
    "planned_utilization",
)
"""What only a traffic says: service targets, growth, peaks, the share of capacity planned."""
PER_REQUEST = LENGTHS
"""A request's lengths: with no GPU count or batch, a load to size, not a deployment."""


def kind_of(reading: Reading, pairs: Pairs, want: Kind | None = None) -> Kind:
    """What the message is. A model on a GPU with a deal's price or term but no count or
    batch is a sizing short of its volume (as every blind writer read one); alone, it is
    the smallest deployment that holds it, unless ``want`` says otherwise."""
    values = {**reading.values, **pairs.values}
    named = values.get("model") is not None or reading.gpu_ids or pairs.gpu_ids
    if not named and _ABOUT_US.search(reading.text):
        return "unknown"  # "Does leasewise handle bursty traffic, like a 10x spike?"
    volume = any(values.get(v) is not None for v in VOLUME)
    if (
        want is None
        and _ASIDE_CUES.search(reading.lower)
        and (_NOTHING_ASKED.search(reading.text) or (not volume and _FYI.search(reading.text)))
    ):
        return "unknown"  # "Recap of the benchmark, no action needed: on 8x H200 we measured …"
    if volume:
        return "traffic"
    if pairs.gpu_count or pairs.gpu_ids or "concurrency" in values:
        return "scenario"
    if reading.gpu_count and _CAPACITY_ASKED.search(reading.text):
        return "scenario"  # "if we lease 24 H200s …, how many concurrent users could we support?"
    if any(values.get(k) is not None for k in DEMAND):
        if want is None and not named and not _ASKS_A_SIZING.search(reading.text):
            return "unknown"  # "alert on TTFT p95 > 2 s", "page loads are like 8s": chatter
        return "traffic"  # targets or growth with no volume yet: a sizing that asks for it
    asked = want is None and reading.gpu_ids and values.get("model") is not None
    if asked and _ASKS_ABOUT.search(reading.text):
        return "unknown"  # "Is Llama 405B supported on MI300X?": a question, no sizing
    if reading.gpu_count and values.get("model") is not None:
        return "scenario"  # "Llama 70B on 8x H200"
    if any(values.get(k) is not None for k in PER_REQUEST):
        return "traffic"  # "700 in / 120 out, Llama 8B on L40S": a sizing short of its volume
    if reading.gpu_ids and values.get("model") is not None:
        if want is None and any(values.get(k) is not None for k in LEASE_TERMS):
            return "traffic"  # a deal's price and term with no batch: a sizing asking its volume
        return want or "scenario"  # "Llama 70B on H200": the smallest count that holds it, said
    if values.get("model") is not None and want is None and _SIZING_ASKED.search(reading.text):
        return "traffic"  # "self-host Llama 70B, traffic is 'low millions', a ballpark?"
    return "unknown"  # GPUs alone ("what about GB300?", "4 nodes of B200") are no deployment


_ASKS_A_SIZING = re.compile(
    r"\b(?:siz(?:e|ed|es|ing)|quote|pric(?:e|ed|es|ing)|gpus?|capacity|deployment|workload|traffic"
    r"|requirements?|sla|slo|need|needs|must|shall|target|want|wants|customer|client|rfp"
    r"|minimum|at\s+least|correction|corrected)\b",
    re.IGNORECASE,
)
"""Words of a sizing ask: targets said with none of them, and no model or GPU, are talk."""
_SIZING_ASKED = re.compile(
    r"\b(?:self[\s-]?host(?:ed|ing)?|ballpark|how\s+many\s+gpus|size\s+(?:it|this|them)"
    r"|(?:requests|queries|calls)\s+(?:a|per)\s+day|traffic\s+is|beat\s+(?:it|the|our|their))\b",
    re.IGNORECASE,
)
"""A model with no GPU or figure, named in a sizing ask: a traffic short of its volume."""


def project(reading: Reading, pairs: Pairs, kind: str) -> tuple[dict[str, Any], list[str]]:
    """Fields for ``kind`` (prose, then GPUs in the kind's form, then key=value); and notes."""
    notes: list[str] = []
    fields = dict(reading.values)
    for key, value in pairs.values.items():
        old = fields.get(key)
        if old is not None and old != value:
            notes.append(f"{key}={value} (key=value) wins over {old} from the text")
        fields[key] = value
    for key, per_day in (("requests_per_hour", 24), ("requests_per_minute", 1440)):
        rate = fields.pop(key, None)  # the contract's request rate is per day
        if rate is not None:
            fields["requests_per_day"] = rate * per_day
            notes.append(f"{key}={rate:g} kept as requests_per_day={rate * per_day:g}")
    ids = list(dict.fromkeys(pairs.gpu_ids or reading.gpu_ids))
    count = pairs.gpu_count if pairs.gpu_count is not None else reading.gpu_count
    if len(ids) > 1:
        ids = _without_rivals(fields, reading, ids, notes)
    if len(reading.gpu_prices) > 1 and "price_per_gpu_hour" not in pairs.values:
        notes.extend(_prices_per_gpu(fields, reading, kind, ids))
    if len(ids) > 1:
        said_after = [g for g in ids if _today_after(reading, g)]  # "on H100 today but B200"
        today = said_after or [g for g in ids if _run_today(reading, g)]
        if today and len(today) < len(ids):  # "today: Mixtral on 8x A100 … move to H100"
            ids = [g for g in ids if g not in today]
            notes.append(f"{', '.join(today)}: what they run today, not sized")
    if len(ids) > 1 and (settled := answered(reading, ids)) is not None:
        asked = [g for g in ids if g != settled]  # "h100 or h200?" … "h200 👍"
        notes.append(f"{settled}: the thread's reply settles it ({', '.join(asked)} set aside)")
        ids = [settled]
    if kind == "traffic":
        if "utilization" in fields and _of_today(reading, reading.sources.get("utilization")):
            share = fields.pop("utilization")  # "today they run on A100s at about 40% util"
            notes.append(f"{share:.0%} utilization: what they run today, not the plan")
            plan = _PLAN_FOR.search(reading.text)
            if plan is not None and 0 < float(plan["pct"]) <= 100:  # "…, plan for 50% on ours"
                fields["planned_utilization"] = float(plan["pct"]) / 100
                notes.append(f"planned utilization {plan['pct']}% ← '{plan.group()}'")
        if "utilization" in fields and not reading.quoted_utilization:
            # a fleet's utilization is the sizing's planned one, unless said with a price
            fields["planned_utilization"] = fields.pop("utilization")
            notes.extend(_planned_later(reading, fields, "planned_utilization"))
        if ids:
            fields["gpus"] = tuple(ids)
        if count is not None:
            notes.append(f"the sizing chooses the GPU count ({count} given, not used)")
        return fields, notes
    if ids:
        chosen = reading.counted_gpu if reading.counted_gpu in ids else ids[0]
        fields["gpu"] = chosen  # "$2,200 … that's the H100 rate. … 4x MI300X": the counted one
        if len(ids) > 1:
            notes.append(f"several GPUs named ({', '.join(ids)}): using {chosen}")
    if count is not None:
        fields["gpus"] = count
    if "utilization" in fields:
        notes.extend(_planned_later(reading, fields, "utilization"))
    if fields.get("term_months") == 0:
        del fields["term_months"]
    return fields, notes


def _planned_later(reading: Reading, fields: dict[str, Any], name: str) -> list[str]:
    """A share to plan at or to use, said after the utilization read ("our 80% util
    assumption … ok plan at 55% then", "~70% during business hours; use 55% blended",
    "~90% in the peak hour but ~40% averaged over the day — use the daily average"): the
    last one said is the one to use."""
    said = reading.sources.get("utilization")
    facts = [m for _, m in reading.history.get("utilization", []) if m is not None]
    if not said or not facts:
        return []
    at = facts[-1].toks[-1].end
    plans = [m for m in _PLAN_FOR.finditer(reading.text) if m.start() > at]
    plans += [m for m in _USE_SHARE.finditer(reading.text) if m.start() > at]
    pct = max(plans, key=lambda m: m.start())["pct"] if plans else None
    words = max(plans, key=lambda m: m.start()).group() if plans else ""
    if pct is None and _USE_AVERAGE.search(reading.text, at):
        averaged = _AVERAGED_SHARE.search(reading.text, at)  # "~40% averaged over the day"
        if averaged is not None:
            pct, words = averaged["pct"] or averaged["pct2"], averaged.group()
    if pct is None or not 0 < float(pct) <= 100:
        return []
    share = float(pct) / 100
    if share == fields[name]:
        return []
    fields[name] = share
    return [f"{name.replace('_', ' ')} {pct}% ← '{' '.join(words.split())}', said after '{said}'"]


_USE_SHARE = re.compile(
    r"\b(?:use|using|go\s+with|take|assume)\s+(?:~\s*|about\s+|roughly\s+)?(?P<pct>\d{1,3})\s*%"
    r"(?!\s*(?:off|discount|of\s+(?:the|that|it)))",
    re.IGNORECASE,
)
_USE_AVERAGE = re.compile(
    r"\b(?:use|using|take|go\s+with|(?:model|plan|size|price)\s+(?:it\s+)?(?:at|on|for))\s+"
    r"the\s+(?:daily\s+|blended\s+|24h\s+|24-hour\s+|overall\s+)?(?:average|avg|mean)\b",
    re.IGNORECASE,
)
_AVERAGED_SHARE = re.compile(
    r"(?P<pct>\d{1,3})\s*%\s+(?:averaged|on\s+average|average|avg|blended)\b"
    r"|\b(?:average|avg|mean)\s+(?:is\s+|of\s+|at\s+|[=:]\s*)?(?:~\s*|about\s+|around\s+"
    r"|roughly\s+)?(?P<pct2>\d{1,3})\s*%",
    re.IGNORECASE,
)
"""A share said to be the average: "~40% averaged over the day", "the 24h average is ~50%"."""


_TODAY = re.compile(
    r"\b(?:today|currently|current(?:ly)?|self[\s-]hosted|existing|incumbent|rn|we\s+run|they\s+run|abhi"
    r"|aktuell|derzeit|actuellement|atualmente|actualmente|attualmente|obecnie|momenteel"
    r"|oggi|hoy|hoje|heute|aujourd'hui"
    r"|running|runs|now|at\s+the\s+moment|move\s+off|off\s+of|replace|bill\s+is|bench"
    r"|benchmark(?:ed)?|tested|their\s+own|our\s+own"
    r"|(?:switching|moving|migrating|migrate)\s+(?:from|off|away\s+from))\b"
    r"|\butil(?:i[sz]ation)?\s*\(\s*$",  # a dashboard's "gpu util (A100) .... 71%"
    re.IGNORECASE,
)
"""Words before a GPU that make it the hardware they have, not the one to size on."""


def _today_after(reading: Reading, gpu: str) -> bool:
    """ "We're on H100 today but …", "H200 now, B200 when they renew": said after the name;
    or said again later as what they have ("… a100s are what they have now")."""
    at = reading.gpu_at.get(gpu)
    if at is not None and _TODAY_AFTER.match(reading.text, at) is not None:
        return True
    if " what " not in reading.lower:
        return False
    name = re.escape(gpu.split("-")[0])
    return any(
        _WHAT_THEY_HAVE.match(reading.text, m.end())
        for m in re.finditer(rf"\b{name}s?\b", reading.text, re.IGNORECASE)
    )


_WHAT_THEY_HAVE = re.compile(
    r"\s*(?:is|are)\s+what\s+(?:they|we)\s+(?:have|run|use|own)\b", re.IGNORECASE
)


def _without_rivals(
    fields: dict[str, Any], reading: Reading, ids: list[str], notes: list[str]
) -> list[str]:
    """The GPUs named less a competitor's ("Competitor bid: 24x MI325X … Ours: 16x GB200"),
    and the price said with theirs dropped ("CoreWeave quoted them $2.49/hr on H100s")."""
    rivals = [g for g in ids if _said_after_cue(reading, g, _RIVAL)]
    if not rivals or len(rivals) == len(ids):
        return ids
    kept = [g for g in ids if g not in rivals]
    notes.append(f"{', '.join(rivals)}: a competitor's bid, not sized")
    theirs = {reading.gpu_prices.get(g) for g in rivals} - {None}
    ours = {reading.gpu_prices.get(g) for g in kept} - {None}
    price = fields.get("price_per_gpu_hour")
    if price in theirs and price not in ours:
        del fields["price_per_gpu_hour"]
        notes.append(f"${price:.2f}/GPU-hour is the competitor's price, not ours")
    return kept


def _of_today(reading: Reading, said: str | None) -> bool:
    """Whether a figure was said of what they run today: in a sentence that says so, or
    under a heading that does."""
    if not said or (at := reading.find(said)) < 0:
        return False
    clause = context.before(reading.text, at)
    now = [m.end() for m in _NOW.finditer(clause)]
    if now and not _PLANNED.search(clause, now[-1]):
        return True  # "their current fleet is 12 A100s at ~55% util", not "…, plan at 75%"
    end = at + len(said)
    return _under_today(reading.text, at) or bool(_NOW.match(reading.text, end, end + 24))


def _under_today(text: str, at: int) -> bool:
    """Whether ``at`` is under a heading about what they run today ("### Current state")."""
    headings = [m["h"] for m in _HEADING.finditer(text, 0, at)]
    return bool(headings) and _TODAY_HEADING.search(headings[-1]) is not None


_RIVAL = re.compile(
    rf"\b(?:{RIVAL_WORDS}|other\s+vendor|their\s+bid)\b"
    r"|(?<!\bwe\s)(?<!\bi\s)\b(?:quoted|offered|pitched)\s+them\b"  # "CoreWeave quoted them"
    r"|(?<!\bwe\s)(?<!\bi\s)\b(?:quoted|offered|pitched)\s+(?-i:[A-Z][\w&-]+)",  # "…quoted Pollux"
    re.I,
)
"""Words before a GPU that make it another vendor's offer, not the deployment to size."""


_CLAUSE = 90
"""Characters before a GPU in which a word can make it today's or a rival's: "Today they
serve about 1.1M requests/day on a rack of A100s"."""


def _gpu_clause(reading: Reading, gpu: str) -> str | None:
    """The words of the GPU's clause before it, after any other GPU named there ("move off
    our current H100 provider to B300": "current" is the H100's, not the B300's)."""
    at = reading.gpu_at.get(gpu)
    if at is None:
        return None
    clause = context.before(reading.text, at)[-_CLAUSE:]
    begin = at - len(clause)
    others = [p for g, p in reading.gpu_at.items() if g != gpu and begin <= p < at]
    return reading.text[max(others) : at] if others else clause


def _said_after_cue(reading: Reading, gpu: str, cue: re.Pattern[str]) -> bool:
    clause = _gpu_clause(reading, gpu)
    return clause is not None and cue.search(clause) is not None


def _run_today(reading: Reading, gpu: str) -> bool:
    at = reading.gpu_at.get(gpu)
    if at is None:
        return False
    if _under_today(reading.text, at):
        return True  # "### Current state\n- Llama 2 70B on A100-80GB"
    clause = _gpu_clause(reading, gpu) or ""
    today = [m.start() for m in _TODAY.finditer(clause)]
    moves = [m.start() for m in _MOVE_TO.finditer(clause)]
    return bool(today) and (not moves or today[-1] > moves[-1])  # "want to move off our H100"


_OUTGROWN = re.compile(
    r"\b(?:can'?t|cannot|doesn'?t|does\s+not)\s+keep\s+up\b|\boutgr[eo]w|\bmaxed\s+out\b"
    r"|\brunning\s+out\s+of\b",
    re.IGNORECASE,
)
"""What they run today said too small: the GPU named with it is not the one to price."""


def counted_today(reading: Reading) -> None:
    """ "We currently run on 4x A100 … would like to look at H200": the count said with the
    GPU they run today is their deployment now, not the one asked about."""
    gpu, ids = reading.counted_gpu, list(dict.fromkeys(reading.gpu_ids))
    if reading.gpu_count is None or gpu is None:
        return
    if not (_today_after(reading, gpu) or _run_today(reading, gpu)):
        return
    if len(ids) == 1 and _OUTGROWN.search(reading.text):
        # "We run this on 8 A100s today and it can't keep up. Could you price a lease?"
        reading.assume(f"{reading.gpu_count}x {gpu}: what they run today, not the deployment")
        reading.gpu_count, reading.gpu_ids[:], reading.gpu_said[:] = None, [], []
        return
    if len(ids) < 2:
        return
    counted = {g.split(" ← ")[0].split("x ", 1)[-1] for g in reading.gpu_said if "x " in g}
    said_with = any(g.startswith(f"GPU {reading.gpu_count}x ") for g in reading.gpu_said)
    if counted == {gpu} and said_with:  # not "existing 16x H100 … a quote on 32x B300"
        reading.assume(f"{reading.gpu_count}x {gpu}: what they run today, not the deployment")
        reading.gpu_count = None
        reading.gpu_said[:] = [g for g in reading.gpu_said if gpu not in g.split(" ← ")[0]]


_NOW = re.compile(
    r"[\s,]*(?:on\s+(?:their|the|our)\s+)?"
    r"\b(?:today|currently|current|existing|now|at\s+the\s+moment|at\s+present)\b",
    re.IGNORECASE,
)
_PLAN_FOR = re.compile(r"\bplan(?:ned)?\s+(?:for|at|on)\s+(?:~\s*|about\s+)?(?P<pct>\d{1,3})\s*%")
"""The share to plan at, said beside today's: "they're at 65% util today, plan for 50%"."""
_PLANNED = re.compile(r"\b(?:plan|planned|planning|target|assum|size|sizing|aim|want)", re.I)
_HEADING = re.compile(r"^[ \t]*(?:#{1,6}[ \t]+|\*\*)(?P<h>[^\n]{1,60})$", re.MULTILINE)
"""A markdown heading or a bold line: what the lines under it are about."""
_TODAY_HEADING = re.compile(
    r"\b(?:current|existing|today|as[\s-]is|present|legacy|incumbent)\b", re.IGNORECASE
)
_TODAY_AFTER = re.compile(
    r"(?:\d+\s*(?:[x×]\s*)?)?[\w-]+(?:\.\w+)*s?(?:\s*(?:\+|&|and|with)\s*[\w.-]+"
    r"(?:\s+(?:provider|vendor|cloud|host|neocloud))?)?"
    r"(?:\s*[,;]?\s*(?:today|now|rn|currently|at\s+the\s+moment)\b"
    r"|(?:[\s-]+\d+\s*GB)?\s*[(\[]\s*(?:today|now|current(?:ly)?|existing|incumbent|as[\s-]is"
    r"|legacy)\b(?:\s+[\w-]+){0,2}\s*[)\],;:])",  # not "H200 (today they're on A100s, …)"
    re.I,
)  # "on H20. Today they run on A100s": a new sentence's "today" is the A100s', not H20's
"""A GPU named, then "today" or "now" ("on a100 + vllm today", "A100 80GB (current) / H100
(proposed)"): what they run, said after the name."""


_MOVE_TO = re.compile(
    r"\b(?:move\s+to|migrate\s+to|switch\s+to|target|want|on\s+the\s+new|onto"
    r"|look(?:ing)?\s+at|would\s+like|evaluat\w+|consider\w*|naya|nayi|new\s+setup|nuevo|nueva"
    r"|nouveau|nouvelle|neue[nrs]?"
    r"|(?:the|a|their|our)\s+new\s+(?:cluster|deployment|environment|env|fleet|build|hardware|hw"
    r"|nodes?|boxes|servers?))\b",
    re.I,
)


def _prices_per_gpu(
    fields: dict[str, Any], reading: Reading, kind: str, ids: list[str]
) -> list[str]:
    """Several GPUs each with its price ("B300 at $5, H200 at $3"): each keeps its own."""
    said = ", ".join(f"{gpu} ${price:.2f}" for gpu, price in reading.gpu_prices.items())
    twice = "two values for price_per_gpu_hour"
    reading.ambiguities[:] = [a for a in reading.ambiguities if not a.startswith(twice)]
    if kind == "traffic":
        fields.pop("price_per_gpu_hour", None)
        fields["prices"] = dict(reading.gpu_prices)
    else:
        first = reading.counted_gpu if reading.counted_gpu in ids else (ids[0] if ids else None)
        if first in reading.gpu_prices:
            fields["price_per_gpu_hour"] = reading.gpu_prices[first]
    return [f"prices per GPU-hour: {said}"]


PRICE_SPREAD = 3.0
"""A lease price more than this many times a GPU's list price is not a per-GPU price."""


_NODES_SAID = re.compile(
    r"\b(?P<n>\d{1,3}|two|three|four|five|six|eight|ten)\s+(?:nodes|boxes|servers|systems)\b",
    re.IGNORECASE,
)


def node_price(fields: dict[str, Any], reading: Reading, catalog: Catalog) -> list[str]:
    """A node's price per GPU-hour: the node's GPUs are the count said with it ("an 8x
    H100 box"), else the GPU's NVLink domain (a node of 8)."""
    value = reading.price_per_node
    if value is None or "price_per_gpu_hour" in fields:
        return []
    ids = reading.gpu_ids
    if not ids:
        return [f"'{reading.price_said}' is a node's price: say the GPU to read it per GPU"]
    nodes = reading.gpu_nodes[0] if reading.gpu_nodes else 0
    if not nodes and reading.gpu_count and (said := _NODES_SAID.search(reading.text)):
        nodes = int(count(said["n"]) or 0)  # "2 nodes b300 (16 gpus), $46/hr per node"
        if not nodes or reading.gpu_count % nodes:
            nodes = 0
    domain = catalog.gpus.get(ids[0]).scale_up_domain_gpus
    rack = reading.price_per_rack and domain > 8  # "per NVL72 rack": the system's GPUs
    per_node = (
        domain
        if rack
        else reading.node_gpus
        or (reading.gpu_count // nodes if reading.gpu_count and nodes else None)
        or reading.gpu_count
        or domain
    )  # "2 HGX B300 nodes (16 GPUs) at $30,660 per node": 8 a node
    unit = "rack" if rack else "node"
    listed = catalog.gpus.get(ids[0]).usd_per_gpu_hour
    if value / per_node < listed / PRICE_SPREAD <= value <= PRICE_SPREAD * listed:
        fields["price_per_gpu_hour"] = value  # "an 8x H200 node at $3.10/hr": a GPU's price
        return [f"'{reading.price_said}' read per GPU: a {unit} of {per_node} at it is too cheap"]
    fields["price_per_gpu_hour"] = value / per_node
    each = value / per_node
    return [f"'{reading.price_said}' read per {unit} of {per_node}: ${each:.2f}/GPU-hour"]


def price_per_gpu(fields: dict[str, Any], reading: Reading, catalog: Catalog) -> list[str]:
    """Read a price said without "per GPU" ("$80/hour") as per GPU or for them all.

    Sales engineers quote both ways. With a GPU count in the message, the reading that
    lands near the GPU's list price wins; either way the reading is said back.
    """
    count, value = reading.gpu_count, fields.get("price_per_gpu_hour")
    ids = reading.gpu_ids
    if reading.price_said is None or value is None or not count or count < 2 or not ids:
        return []
    if len(reading.gpu_prices) > 1:
        return []  # each GPU's price was said beside it
    listed = catalog.gpus.get(ids[0]).usd_per_gpu_hour
    total = value / count
    if value > PRICE_SPREAD * listed and listed / PRICE_SPREAD <= total <= PRICE_SPREAD * listed:
        fields["price_per_gpu_hour"] = total
        said = f"${value:.2f}/GPU-hour"
        reading.understood[:] = [
            f"${value:.2f}/hour for {count} GPUs" if u == said else u for u in reading.understood
        ]
        return [
            f"'{reading.price_said}' read as the price of all {count} GPUs: "
            f"${total:.2f}/GPU-hour (say '${value:g}/GPU-hour' if it is per GPU)"
        ]
    return [
        f"'{reading.price_said}' read per GPU: ${value:.2f}/GPU-hour "
        f"(say '${value * count:g}/hour for all {count}' if it is the total)"
    ]


def parse(text: str, catalog: Catalog, want: Kind | None = None) -> Parsed:
    """Read a Slack message; never raises, whatever the text.

    ``want`` is the kind a command asks for (``cost`` a scenario): a message that reads
    as neither ("llama 70b on h100") is read as that kind, with its defaults said."""
    reading, pairs, cut = understand(text, catalog)
    counted_today(reading)
    kind = kind_of(reading, pairs, want)
    if kind == "unknown" and want is not None:
        kind = want
    fields, notes = project(reading, pairs, kind)
    notes += price_per_gpu(fields, reading, catalog)
    reading.assumed.extend(node_price(fields, reading, catalog))
    reading.understood.extend(both_sides(fields, reading.text, reading.sources))
    if "price_per_gpu_hour" not in pairs.values:
        said = reading.sources.get("price_per_gpu_hour")
        if said is None and reading.price_per_node is not None:
            said = reading.price_said  # "$28,800/month per 8x B300 node, … 10% off"
        reading.understood.extend(discounted(fields, reading.text, said))
    prose = {k: v for k, v in reading.sources.items() if k not in pairs.values}
    notes += implausible(fields, prose, reading.history)
    if kind == "traffic" and fields.get("gpus"):
        fields["gpu"] = fields["gpus"][0]  # the contract's single GPU, beside the ones allowed
    said_twice = {k for k, v in pairs.values.items() if reading.values.get(k) == v}
    understood = [  # a form's line the prose read the same ("batch: 96") is said once
        *reading.understood,
        *reading.gpu_said,
        *(u for u in pairs.understood if u.split("=", 1)[0] not in said_twice),
    ]
    assumed = list(reading.assumed)
    ambiguities = [*reading.ambiguities, *pairs.problems, *notes]
    if cut:
        assumed.append(f"read only the first {MAX_CHARS:,} characters")
    if reading.scales:
        ambiguities.append(
            "nothing to scale yet: give the traffic first, then 'double the traffic'"
        )
    if "model" in fields:
        name = catalog.models.get(fields["model"]).name
        said = reading.model_said
        source = f" ← '{said}'" if said and said.lower() != name.lower() else ""
        understood.append(f"model {name}{source}")
    missing = _missing(kind, fields)
    if not missing:
        missing = _invalid(kind, fields)
    assumed += _defaults(kind, fields, catalog)
    return Parsed(
        kind=kind,
        fields=fields,
        understood=understood,
        assumed=assumed,
        missing=missing,
        ambiguities=ambiguities,
    )


def _missing(kind: str, fields: dict[str, Any]) -> list[str]:
    out = []
    if "model" not in fields:
        out.append("say the model, e.g. 'Kimi K3'")
    if kind == "scenario" and "gpu" not in fields:
        out.append("say the GPU, e.g. '8x B300'")
    if kind == "traffic" and not any(fields.get(k) is not None for k in VOLUME):
        out.append("say how much traffic, e.g. '2B output tokens a day' or '50 requests a second'")
    if kind == "traffic":
        per_request = [k for k in VOLUME[1:] if k in fields]
        if per_request and "output_tokens" not in fields and "output_tokens_per_day" not in fields:
            out.append("say the output tokens of a request, e.g. '400 output tokens per request'")
        if len(per_request) > 1:
            out.append(f"give one request rate, not {' and '.join(per_request)}")
    if kind == "unknown":
        out.append(
            "say what to size: a volume, e.g. '2B output tokens a day', "
            "or a deployment, e.g. '8x B300, batch 64'"
        )
    return out


def _invalid(kind: str, fields: dict[str, Any]) -> list[str]:
    cls: type[Scenario] | type[Traffic] = Scenario if kind == "scenario" else Traffic
    try:
        cls(**{k: v for k, v in fields.items() if k in cls.model_fields})
    except ValidationError as exc:
        return [
            f"fix {'.'.join(str(p) for p in e['loc'])}: {e['msg'].lower()}" for e in exc.errors()
        ]
    return []


def _defaults(kind: str, fields: dict[str, Any], catalog: Catalog) -> list[str]:
    out: list[str] = []
    if kind == "scenario" and "gpu" in fields:
        # the price is the answer's to say (core.pricing), once, with where it came from
        if "gpus" not in fields:
            out.append("no GPU count given: the smallest count that holds the model")
        if "concurrency" not in fields:
            out.append("batch 1 (one user at a time); say 'batch 64' for more")
        if "utilization" not in fields:
            out.append("utilization 100% (say 'utilization 60%')")
    if kind == "traffic":
        term = fields.get("term_months", catalog.default_term_months)
        if "term_months" not in fields:
            out.append(f"assumed a {term}-month term (the price book's default)")
        if term not in TRAFFIC_TERMS:
            out.append(f"sizing prices terms of 0, 12, 24 or 36 months, not {term}")
        if not fields.get("gpus"):
            offer = ", ".join(g.upper() for g in offered_gpus(catalog)) or "every GPU"
            out.append(f"the GPUs we lease considered: {offer} (say 'on H200' for another)")
    return out
