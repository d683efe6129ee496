"""Pasted structure: tables, CSV and JSON read as ``key=value`` pairs.

Customers paste what their dashboards export: a Markdown table, a CSV header and a
row, tab-separated "label<TAB>value" lines, a JSON object. Their column names are the
field's common names ("ISL", "# gpus", "req_per_hour", "p2a"), so each is mapped to the
contract's field, with its unit converted (a rate per hour becomes ``requests_per_day``).
A table is read when at least two of its names are known, or one day's volume beside a
column of labels ("Region | Req/day"); which row is read, or which rows added up, is
what the words around it say (``core.parse.rows``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from core.parse.numbers import SCALES, amount
from core.parse.rows import chosen
from core.parse.timeunits import months
from core.units import HOURS_PER_MONTH

_NAME = re.compile(r"[^a-z0-9$#%]+")


_ASIDE = re.compile(r"\([^)]*\)|\[[^\]]*\]")
_QUALIFIERS = frozenset(
    {"avg", "average", "mean", "typical", "expected", "target", "est", "estimated", "approx"}
    | {"min", "minimum", "max", "maximum", "sla", "slo", "budget", "p50", "median", "p90", "p95"}
    | {"p99"}
)
"""Words around a column's name that say which figure it is, not which field."""


def _key(name: str, asides: bool = True) -> str:
    """A column's name as the aliases key it: "Requests/hour (avg)" and "Avg. input"
    are requests/hour and input."""
    lower = name.lower()
    if asides and ("(" in lower or "[" in lower):
        stripped = _ASIDE.sub(" ", lower)
        if _key(stripped, asides=False) in _ALIASES:
            lower = stripped
    key = _stripped(re.split(r"[\s.]+", lower))
    if key not in _ALIASES and lower.startswith(("peak ", "busiest ")):
        at_peak = _stripped(re.split(r"[\s.]+", lower)[1:])  # "Peak QPS": a peak column
        if at_peak in _ALIASES:
            return at_peak
    if key not in _ALIASES and (each := _EACH.search(lower)) is not None:
        alone = _stripped(re.split(r"[\s.]+", lower[: each.start()]))
        if alone in _ALIASES and _ALIASES[alone][0] in _OF_ONE_REQUEST:
            return alone  # "Max context per request", "Avg output per call": one request's
    if key not in _ALIASES and "_" in lower:  # "avg_in", "ttft_sla_s": words joined by "_"
        split = _stripped(re.split(r"[\s._]+", lower))
        if split in _ALIASES:
            return split
    return key


_EACH = re.compile(r"\s+(?:per|each|/)\s*(?:request|req|call|turn|query|prompt)s?\s*$")
_OF_ONE_REQUEST = frozenset({"input_tokens", "output_tokens", "reasoning_tokens", "context_tokens"})


def _stripped(words: list[str]) -> str:
    words = [w for w in words if w]
    while len(words) > 1 and words[0] in _QUALIFIERS:
        words = words[1:]
    while len(words) > 1 and words[-1] in _QUALIFIERS:
        words = words[:-1]
    return _NAME.sub("", " ".join(words))


_ALIASES: dict[str, tuple[str, float]] = {}
for _field, _factor, _names in (
    ("model", 1.0, "model model_name llm"),
    ("gpu", 1.0, "gpu gpu_type accelerator accelerators hardware"),
    ("gpus", 1.0, "gpus #gpus num_gpus gpu_count n_gpus gpucount #gpu count qty quantity"),
    ("concurrency", 1.0, "concurrency batch bs batch_size concurrent concurrent_users"),
    ("concurrency", 1.0, "concurrent_sessions concurrent_streams"),
    ("concurrency", 1.0, "max_num_seqs max_concurrency concurrent_requests max_batch_size c b"),
    ("precision", 1.0, "precision dtype quant quantization"),
    (
        "requests_per_day",
        86400.0,
        "rps qps avg_rps req_per_sec requests_per_second req/s requests/sec requests/s",
    ),
    ("requests_per_day", 1440.0, "rpm req_per_min requests_per_minute req/min requests/min"),
    ("requests_per_day", 24.0, "rph req_per_hour requests_per_hour req/h requests/hour"),
    ("requests_per_day", 24.0, "req/hour req/hr requests/hr"),
    ("requests_per_day", 1.0, "rpd req_per_day requests_per_day requests/day daily_requests"),
    ("requests_per_day", 1.0, "req/day req/d requests_a_day daily_req daily_reqs"),
    ("requests_per_day", 1 / 7, "requests/week req/week requests_per_week weekly_requests"),
    ("requests_per_day", 1 / 7, "weekly_request_volume weekly_requests_volume"),
    ("requests_per_day", 1.0, "daily_request_volume daily_requests_volume"),
    ("requests_per_day", 1 / 30, "monthly_request_volume monthly_requests requests/month"),
    ("requests_per_day", 1 / 365, "annual_request_volume annual_requests yearly_requests"),
    ("requests_per_day", 1 / 365, "year-1_volume year_1_volume year-1_requests first-year_volume"),
    ("output_tokens_per_day", 1 / 7, "output_tokens/week output_tokens_per_week"),
    ("output_tokens_per_day", 1.0, "output_tokens_per_day out_tok_per_day tokens_per_day"),
    ("output_tokens_per_day", 1.0, "tokens_out_per_day output_tokens/day"),
    ("output_tokens_per_day", 1.0, "daily_output_tokens daily_output output_tokens_a_day"),
    ("input_tokens", 1.0, "in input isl in_tok input_tok prompt_tok input_tokens prompt_tokens"),
    ("input_tokens", 1.0, "avg_input tokens_in input_len input_length prompt_len"),
    ("output_tokens", 1.0, "out output osl out_tok output_tok completion_tok output_tokens"),
    ("output_tokens", 1.0, "completion_tokens avg_output tokens_out output_len output_length"),
    ("output_tokens", 1.0, "tokens_out/req out_tok/req output_tokens/req tokens_out_per_req"),
    ("reasoning_tokens", 1.0, "reasoning reasoning_tok reasoning_tokens thinking_tokens"),
    ("reasoning_tokens", 1.0, "thinking think thinking_tok reasoning_(tokens) cot"),
    ("output_tokens", 1.0, "visible_answer visible_output visible answer answer_tokens"),
    ("context_tokens", 1.0, "ctx context context_tokens max_context context_window window"),
    ("context_tokens", 1.0, "context_length context_len max_context_length max_seq_len"),
    ("peak_to_average", 1.0, "p2a peak_to_average peak/avg peak_factor peak_ratio"),
    ("requests_per_day", 1.0, "anfragen_pro_tag anfragen/tag peticiones_por_día"),
    ("requests_per_day", 1.0, "solicitudes_por_día per_day_requests"),
    ("requests_per_day", 1.0, "requisições_por_dia requêtes_par_jour richieste_al_giorno"),
    ("input_tokens", 1.0, "eingabe-tokens_je_anfrage eingabe-tokens tokens_de_entrada"),
    ("input_tokens", 1.0, "tokens_d'entrée token_di_input token_in_ingresso"),
    ("output_tokens", 1.0, "ausgabe-tokens_je_anfrage ausgabe-tokens tokens_de_salida"),
    ("output_tokens", 1.0, "tokens_de_saída tokens_de_sortie token_di_output token_in_uscita"),
    ("reasoning_tokens", 1.0, "reasoning-tokens_je_anfrage tokens_de_razonamiento"),
    ("peak_to_average", 1.0, "peak-to-average peak-to-average_ratio peak/avg_ratio peak:avg"),
    ("max_ttft_s", 1.0, "ttft ttft_s max_ttft_s"),
    ("max_ttft_s", 0.001, "ttft_ms ttft_target_ms ttft_p95_target_ms ttft_p99_target_ms"),
    ("max_ttft_s", 0.001, "ttft_p50_ms ttft_p90_ms ttft_p95_ms ttft_p99_ms"),
    ("min_per_user_tokens_per_s", 1.0, "tok/s/user per_user_tps tokens_per_s_per_user"),
    ("min_per_user_tokens_per_s", 1.0, "tok/s_per_user tokens/s_per_user tps_per_user"),
    ("price_per_gpu_hour", 1.0, "$/gpu-hr $/gpu-hour $/gpuh price price_per_gpu_hour usd/gpu-hr"),
    ("price_per_gpu_hour", 1.0, "price_usd_per_gpu_hour usd_per_gpu_hour lease lease_price"),
    ("price_per_gpu_hour", 1.0, "unit_price unit price"),
    ("monthly_growth", 1.0, "growth monthly_growth growth_rate mom_growth"),
    ("monthly_growth", 1.0, "volume_growth traffic_growth demand_growth usage_growth"),
    ("monthly_growth", 1.0, "yoy_growth growth_yoy annual_growth yearly_growth qoq_growth"),
    ("term_months", 1.0, "term term_months lease_months term_(months)"),
    ("utilization", 1.0, "util utilization utilisation target_utilization"),
    ("utilization", 1.0, "planned_utilization planned_util planned_utilisation"),
    ("price_per_gpu_hour", 1 / 730, "monthly_price_/_gpu monthly_price_per_gpu $/gpu-month"),
):
    for _n in _names.split(" "):
        _ALIASES[_key(_n)] = (_field, _factor)

_NAMED = {"model", "gpu", "precision"}
"""Fields whose value is a catalog name, not a number."""
_LABELLED = re.compile(
    r"^[ \t]*(?:[-*•][ \t]+)?(?P<k>[A-Za-z#$][^:\n]{0,50}?)[ \t]*(?::|\.{2,}|\s\.\s)[ \t.]*"
    r"(?P<v>[^\n]{1,40}?)\s*$",
    re.M,
)
"""A form's line: "GPU count: 16", "- avg rps: 58", or with dot leaders "Model ....... GLM-5"."""
_TOKEN_COUNT = re.compile(r"^\s*([\d.,]+\s*[kK]?)\s*(?:tokens?|toks?)\s*$")
_REQUEST_COUNT = re.compile(r"^\s*([\d.,]+\s*[kKmM]?)\s*(?:requests?|reqs?|calls?|queries)\s*$")
_JSON_PAIR = re.compile(r'"(?P<k>[^"\n]{1,40})"\s*:\s*"?(?P<v>[^",}\n]{1,60}?)"?\s*[,}\n]')


@dataclass
class Structured:
    pairs: list[tuple[str, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    peaks: dict[str, tuple[float, str]] = field(default_factory=dict)
    """A volume's peak column: field -> (value in the field's unit, the column's name)."""
    said: dict[str, str] = field(default_factory=dict)
    """A pair converted from its row's words: field -> "Year-1 volume: 73,000,000 requests"."""


def structured(text: str) -> Structured:
    """The pairs in ``text``'s tables, CSV, tab-separated lines and JSON objects."""
    out = Structured()
    if "|" in text or "," in text or "\t" in text:
        _tables(text, out)
    found = [m for m in _LABELLED.finditer(text) if _key(m["k"]) in _ALIASES]
    leaders = any(".." in m.group() for m in found)  # "requests/s ...... avg 41.7  max 118"
    if len(found) >= 3 or leaders:  # a form pasted line by line: "GPU count: 16"
        for m in found:
            _form_line(out, m["k"], m["v"])
    if '"' in text:
        for m in _JSON_PAIR.finditer(text):
            _add(out, m["k"], m["v"].strip())
    if out.peaks:
        _peaks(out)
    return out


_MEAN_AND_PEAK = re.compile(
    r"(?:avg|mean|average)\s*[:=]?\s*(?P<mean>[\d.,]+\s*[kKmM]?)\s+"
    r"(?:max|peak|p99|p95)\s*[:=]?\s*(?P<peak>[\d.,]+\s*[kKmM]?)",
    re.IGNORECASE,
)
_PER_REQUEST = re.compile(r"^(?:avg|mean|average)\s+|\s*(?:/|per)\s*req(?:uest)?s?$", re.I)


def _form_line(out: Structured, name: str, value: str) -> None:
    """A form's line; a dashboard's gives the mean and the peak on one ("avg 41.7  max
    118"), or a mean per request ("avg 410 / req")."""
    both = _MEAN_AND_PEAK.fullmatch(value.strip())
    if both is not None:
        _add(out, name, both["mean"], names=False)
        _add(out, f"peak {name}", both["peak"], names=False)
        return
    _add(out, name, _PER_REQUEST.sub("", value.strip()), names=False)


def _tables(text: str, out: Structured) -> None:
    raw = text.splitlines()
    lines = [ln.strip() for ln in raw]
    for i, line in enumerate(lines):
        sep = separator(line)
        if sep is None:
            continue
        head = _cells(line, sep)
        known = _key(head[0]) in _ALIASES or _IN_OUT_NAME.search(head[0]) is not None
        if sep in "\t|" and len(head) == 2 and known:
            _add(out, head[0], head[1], names=False)  # "Requests/sec<TAB>65"
            continue
        if one_figure_a_row(head):
            # spaces only stripped: a tab keeps a blanked id's column in its place
            _vertical([ln.strip(" ") for ln in raw[i + 1 :]], sep, out, _ids(head))
            return
        if _key(head[0]) in _WEEK_COLUMNS:  # "Week of | Requests | Output tokens": a week's
            head = [head[0], *(_WEEKLY_COUNTS.get(_key(h), h) for h in head[1:])]
        field_of = {c: f[0] for c, h in enumerate(head) if (f := _ALIASES.get(_key(h)))}
        labelled = _key(head[0]) not in _ALIASES and set(field_of.values()) <= _PER_DAY
        if len(field_of) < 2 and not (labelled and field_of):
            continue  # one known column: a day's volume by a column of labels ("Region")
        end = i + 1
        while end < len(lines) and separator(lines[end]) == sep:
            end += 1  # the table runs on while its lines have cells
        rows = [_cells(ln, sep) for ln in lines[i + 1 : end] if not set(ln) <= set("|-: \t")]
        rows = [r + [""] * (len(head) - len(r)) for r in rows if 2 <= len(r) <= len(head)]
        if len(field_of) < 2 and any(amount(r[0]) is not None for r in rows):
            continue
        totals = [r for r in rows if _key(r[0]) in ("total", "sum", "all")]
        parts = [r for r in rows if r not in totals]
        if not parts:
            continue
        rest = "\n".join(lines[:i] + lines[end:])
        choice = chosen(head, parts, totals, rest, field_of)
        for name, value in zip(head, choice.cells, strict=True):
            _add(out, name, value)
        if choice.note:
            out.notes.append(choice.note)
        return


_PER_DAY = frozenset({"requests_per_day", "output_tokens_per_day"})
_WEEK_COLUMNS = frozenset({"week", "weekof", "wk", "weekstarting", "weekending", "weekbeginning"})
_WEEKLY_COUNTS = {
    "requests": "requests/week",
    "reqs": "requests/week",
    "calls": "requests/week",
    "outputtokens": "output_tokens/week",
    "tokensout": "output_tokens/week",
    "output": "output_tokens/week",
}
"""A count column of a table by week: that week's count, a seventh of it a day."""


_NAME_COLUMNS = frozenset(
    {"metric", "field", "parameter", "param", "item", "name", "key", "input", "requirement"}
)
_ID_COLUMNS = frozenset({"id", "reqid", "ref", "#", "no", "requirementid", "section"})
"""A first column of ids before the column of names ("| Req ID | Requirement | Value |"):
an id is no figure."""
_VALUES = frozenset(
    {"value", "values", "amount", "figure", "number", "qty", "quantity", "target", "targets"}
    | {"requirement", "requirements", "spec", "specification", "limit", "sla"}
)
"""A column of figures beside the column naming them; a bill of materials' quantity too
("| Item | Qty |", then "| B300 GPUs | 32 |")."""
_GPU_ITEM = re.compile(r"\bgpus?\b", re.IGNORECASE)


def _ids(head: list[str]) -> int:
    """How many columns of ids lead a table of one figure a row (0 or 1)."""
    return 1 if len(head) == 3 and _key(head[0]) in _ID_COLUMNS else 0


def one_figure_a_row(head: list[str]) -> bool:
    """A table's header names a column of names and one of their figures, perhaps a unit
    column after: "| metric | value | unit |", "| Item | Qty |". A third column that
    names a field ("| Item | Qty (GPUs) | Unit price |") makes it a table of columns."""
    head = head[_ids(head) :]
    if len(head) not in (2, 3) or _key(head[0]) not in _NAME_COLUMNS:
        return False
    third = _key(head[2]) if len(head) == 3 else "unit"
    return _key(head[1]) in _VALUES and (third in ("unit", "units") or third not in _ALIASES)


def as_sentences(text: str) -> str:
    """``text`` with a table of one figure a row ("| Peak request rate | 75 | req/s |")
    written as sentences ("Peak request rate 75 req/s."), for the prose reader: a row's
    name says what its figure is in words no column alias lists."""
    if "|" not in text and "\t" not in text:
        return text
    lines = text.split("\n")
    for i, line in enumerate(lines):
        sep = separator(line.strip())
        if sep is None:
            continue
        head = _cells(line.strip(), sep)
        if not one_figure_a_row(head):
            continue
        ids = _ids(head)
        lines[i] = ""
        for k in range(i + 1, len(lines)):
            row = lines[k].strip()
            if separator(row) != sep:
                break
            cells = _cells(lines[k].strip(" "), sep)[ids:]
            cells = [c for c in cells if c] if not set(row) <= set("|-: \t") else []
            both = _BOTH_SIDES.search(cells[1]) if len(cells) > 1 else None
            if both is not None and _IN_OUT_NAME.search(cells[0]):  # "2,000 / 350" of a
                cells = [f"{both['i'].strip()} in / {both['o'].strip()} out"]  # request's sides
            lines[k] = " ".join(cells) + "." if cells else ""
        return "\n".join(lines)
    return text


def _vertical(lines: list[str], sep: str, out: Structured, ids: int = 0) -> None:
    """A table of one figure a row, "| metric | value | unit |": each row is a pair, its
    unit column read as part of its name ("requests | 850,000 | per day"); ``ids``
    columns of ids before the names are passed over."""
    for line in lines:
        if line.count(sep) < 1 or set(line) <= set("|-: \t"):
            continue
        cells = _cells(line, sep)[ids:]
        if len(cells) >= 2 and cells[1]:
            name = " ".join(c for c in (cells[0], *cells[2:3]) if c)
            if _key(name) not in _ALIASES and _GPU_ITEM.search(name) and cells[1].isdigit():
                name = "gpus"  # "| B300 GPUs | 32 |": an item of GPUs, counted
            _add(out, name, cells[1], names=False)


def separator(line: str) -> str | None:
    """The cell separator of a table row, if ``line`` looks like one."""
    if line.count("|") >= 2:
        return "|"
    if "\t" in line:
        return "\t"
    if line.count(",") >= 2 and ", " not in line:
        return ","
    if line.count("|") == 1 and _key(line.split("|")[0]) in _ALIASES:
        return "|"  # "Concurrency | 16": a two-column form
    return None


def _cells(line: str, sep: str) -> list[str]:
    cells = [c.strip() for c in line.split(sep)]
    if sep == "|" and line.count("|") == 1:
        return cells
    if sep == "|":
        cells = [c for c in cells[1:-1]] if line.startswith("|") else cells
    return cells


_COUNTED = frozenset(
    {"input_tokens", "output_tokens", "reasoning_tokens", "context_tokens", "requests_per_day"}
    | {"output_tokens_per_day", "gpus", "concurrency"}
)
"""Fields that count whole things: a dot between groups of three digits groups thousands."""
_DOTTED_THOUSANDS = re.compile(r"\d{1,3}(?:\.\d{3})+")


def contract_pair(name: str, value: str) -> tuple[str, str] | None:
    """``(name, value)`` in the contract's field and unit ("bs", "32" -> concurrency 32;
    "rps", "45" -> requests_per_day 3888000), or None for a name no field goes by."""
    hit = _ALIASES.get(_key(name))
    value = value.strip().lstrip("~≈").strip()  # "~5k": about is how people fill forms
    if "(" in value and value[0].isdigit():
        value = _ASIDE.sub(" ", value).strip()  # "12万 (average)": what the figure is, aside
    if hit is None or not value:
        return None
    field_name, factor = hit
    if field_name in _COUNTED and _DOTTED_THOUSANDS.fullmatch(value):
        value = value.replace(".", "")  # "Eingabe-Tokens je Anfrage: 3.000": three thousand
    if field_name == "peak_to_average" and ":" in value and (ratio := _ratio(value)):
        return field_name, f"{ratio:g}"  # "3:1"
    unit = _unit_said(name, field_name) if "(" in name or "[" in name else None
    if field_name == "monthly_growth" and unit is None:
        unit = _growth_over(name.lower())  # "Expected YoY growth | 100%"
    counting = factor != 1.0 and unit is None and field_name == "requests_per_day"
    if counting and amount(value) is None:
        counted = _REQUEST_COUNT.match(value)  # "Year-1 volume …… 73,000,000 requests"
        number = amount(counted.group(1)) if counted else None
        return (field_name, f"{number * factor:.10g}") if number is not None else None
    if factor != 1.0 or unit is not None:
        number = amount(value)
        if number is None:
            return None
        value = f"{unit(number * factor) if unit else number * factor:.10g}"
    elif field_name not in _NAMED and amount(value) is None:
        counted = _TOKEN_COUNT.match(value) if field_name.endswith("_tokens") else None
        if counted is None:
            return None  # "Term: 36 mo" is the prose's to read
        value = counted.group(1)  # "6,000 tokens"
    return field_name, value


_PERIOD = re.compile(
    r"(?:/|\bper\s+|\b)(?:(?P<month>mo|mon|month|mth)|(?P<year>yr|year|y|annum|yoy)"
    r"|(?P<quarter>q|qtr|quarter|qoq))\b"
)
"""The period a bracketed unit is per: "$/GPU/mo", "%/yr", "% per quarter"."""


def _unit_said(name: str, field_name: str) -> Callable[[float], float] | None:
    """The unit a column's brackets give its figures, as a conversion to the field's own:
    "Daily output tokens (M)" counts millions, "TTFT (ms)" milliseconds, "Lease
    ($/GPU/mo)" a month's price, "Growth (%/yr)" a yearly percentage."""
    for aside in _ASIDE.findall(name.lower()):
        words = aside.strip("()[] ").replace("tokens", "").replace("tok", "").strip()
        if field_name == "max_ttft_s" and words == "ms":
            return lambda x: x / 1000
        scale = SCALES.get(words) or SCALES.get(words.removesuffix("s"))  # "thousands"
        if scale is not None:
            return lambda x: x * scale
        period = _PERIOD.search(words)
        unit = period.lastgroup if period else None
        if field_name == "price_per_gpu_hour" and unit in ("month", "year"):
            hours = HOURS_PER_MONTH * months(unit)
            return lambda x: x / hours
        if field_name == "monthly_growth" and "%" in words:
            over = months(unit) if unit else 1
            return lambda x: (1 + x / 100) ** (1 / over) - 1
        if field_name == "monthly_growth" and unit is not None:  # "Volume growth (YoY) | 50%"
            return _growth_over(unit)
    return None


def _growth_over(said: str) -> Callable[[float], float] | None:
    """A growth said over a period ("YoY", "quarterly") as a monthly one, compounded; the
    figure is a fraction ("50%" reads 0.5), or a percentage when above 1 ("50")."""
    period = _PERIOD.search(said)
    unit = period.lastgroup if period else None
    if unit is None or unit == "month":
        return None
    over = months(unit)
    return lambda x: (1 + (x / 100 if x > 1 else x)) ** (1 / over) - 1


_IN_OUT_NAME = re.compile(r"\b(?:input|in|prompt)\s*/\s*(?:output|out|completion)\b", re.I)
_BOTH_SIDES = re.compile(
    r"^\s*(?P<i>\d[\d,.]*\s*[kK]?)\s*/\s*(?P<o>\d[\d,.]*\s*[kK]?)\s*(?:tokens?)?\s*$"
)
"""A row of both a request's sides: "Input / output tokens | 2,000 / 350"."""
_PEAK_NAME = re.compile(r"\b(?:peak|max|busiest|p9\d)\b", re.IGNORECASE)
_PEAKABLE = frozenset({"requests_per_day", "output_tokens_per_day", "concurrency"})


def _add(out: Structured, name: str, value: str, *, names: bool = True) -> None:
    """One cell as a pair; a form's names (model, GPU) are left to the prose, which reads
    "INT4 (AWQ)" or "8 x H20" where a catalog lookup of the cell would not. A volume's
    peak column ("QPS (peak)") is kept apart: it gives the ratio, not the volume."""
    both = _BOTH_SIDES.search(value) if _IN_OUT_NAME.search(name) else None
    if both is not None:  # "| Input / output tokens | 2,000 / 350 |"
        out.pairs += [("input_tokens", both["i"].strip()), ("output_tokens", both["o"].strip())]
        return
    pair = contract_pair(name, value)
    if pair is not None and pair[0] in _PEAKABLE and _PEAK_NAME.search(name):
        number = amount(pair[1])
        if number is not None:
            out.peaks[pair[0]] = (number, name.strip())
        return
    if pair is not None and (names or pair[0] not in _NAMED):
        out.pairs.append(pair)
        if pair[1] != value.strip():  # converted: said back with the row's own words
            out.said[pair[0]] = f"{' '.join(name.split())}: {' '.join(value.split())}"


_RATIO = re.compile(r"\s*(\d+(?:\.\d+)?)\s*:\s*(\d+(?:\.\d+)?)\s*$")


def _ratio(cell: str) -> float | None:
    """A peak-to-average cell: "3", "2.5x" or "3:1"."""
    found = _RATIO.match(cell)
    if found is not None and float(found[2]) > 0:
        return float(found[1]) / float(found[2])
    return amount(cell)


def _peaks(out: Structured) -> None:
    """A peak column beside its average gives peak_to_average; alone, it is the volume,
    said to be sized as steady."""
    have = {k: v for k, v in out.pairs}
    for field_name, (peak, said) in out.peaks.items():
        mean = amount(have[field_name]) if field_name in have else None
        if mean:
            if "peak_to_average" not in have and peak >= mean:
                out.pairs.append(("peak_to_average", f"{peak / mean:g}"))
                out.notes.append(f"'{said}' is the peak: peak_to_average {peak / mean:.3g}")
        elif (ratio := _ratio(have.get("peak_to_average", ""))) is not None and ratio >= 1:
            out.pairs.append((field_name, f"{peak / ratio:g}"))  # "| Peak QPS | 120 |" and
            out.notes.append(f"'{said}' is the peak: ÷ {ratio:g} (the peak-to-average said)")
        else:
            out.pairs.append((field_name, f"{peak:g}"))
            out.notes.append(f"'{said}' is the peak: sized as if steady (give the average)")
