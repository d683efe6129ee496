"""Pass 2 of the tokenizer: neighbouring terminals combined into the ones the grammar reads.

``$`` + number -> ``MONEY``, number + ``%`` -> ``PCT``, number + ``x`` -> ``MULT``,
``per``/``/``/``a`` + time -> ``PER_TIME``, ``per user`` -> ``PER_USER``, ``/M`` ->
``PER_MILLION``; "4:1", "1-2k", "3k/800" and "2x8" each one figure; words that mean
something else beside others ("thinking an 18-month lease", "Answer:", "700 in the final
answer"). Fillers are dropped and runs of ``BREAK`` collapse to one.
"""

from __future__ import annotations

import re

from core.parse import numbers
from core.parse.lexicon import BREAK, FILLER
from core.parse.terminals import Tok

_DIRECTION_WORDS = frozenset({"OUT", "IN", "REASON"})
_THINKING_ABOUT = frozenset({"a", "an", "about", "of", "we", "maybe", "that", "to", "the"})
"""After these, "thinking" is what the writer does, not the model's reasoning."""
_THINKERS = frozenset({"i", "we", "they", "you", "he", "she", "customer", "client", "team"})
"""Before "think", someone reckoning, not the model's thinking tokens."""
_ASKED = frozenset({"questions", "prompts"})
"""Lengths before a number ("prompts 300"), but counted by the time ("4k questions a day")."""
_LENGTH_NOUNS = frozenset({"completions", "completion"})
"""Counted as requests ("2M completions a day"), but before a bare number, a length."""
_VOLUME_AFTER = frozenset({"OUT", "OUTS", "IN", "INS", "REASON", "TOKENS", "REQUESTS"})
_HARDWARE = frozenset({"GPU", "GPUWORD", "NODES"})
"""After "and", a direction word starts the next amount ("1.200 tokens and output 350")."""
_HOURS = frozenset({"hour", "minute", "second"})
_HOUR_VERBS = frozenset({"sees", "saw", "gets", "hits", "handles", "carries", "takes", "brings"})
"""Verbs between a peak or average hour and its count: "busiest hour sees 90,000 requests"."""
_NUMBER_THEN = {"PCTWORD": "PCT", "TIMESWORD": "MULT", "FXWORD": "FX"}
"""A number and the word after it that says what it is, as one terminal."""
_OVER = frozenset({"over", "in", "during", "across", "within"})
_NOT_GENERATED = ("embed", "rerank", "retriev", "vector", "search", "ocr", "asr", "tts")
"""Calls that go to something other than the model sized: not requests to it."""
_CONTEXT_VERBS = frozenset(
    {"has", "have", "to", "must", "should", "needs", "need", "support", "supports", "handle"}
    | {"cover", "be", "at", "least", "up", "is", "of", "reach", "hold", "fit", "take"}
)
"""Words between "context" and its length: "the context window has to support 32k"."""
_LABELLED = frozenset({"TOKENS", "OUT", "IN", "REASON", "REQUESTS", "CONCURRENT", "TTFT", "TPOT"})
"""Words a bracketed "(avg)" or "(peak)" after them qualifies, as a label does."""
_DOES = frozenset(
    {"does", "do", "gets", "gives", "pushes", "delivers", "hits", "handles", "serves", "can"}
)
"""Verbs after "GPU" that make the figure after them what it does, not how many GPUs."""
_PAIR_JOINTS = frozenset({":", "-", "to", "To", "TO", "/", "x", "X", "×"})


def combine(lex: list[Tok]) -> list[Tok]:
    """The lexemes with their neighbours combined (see the module docstring)."""
    out: list[Tok] = []
    i, n = 0, len(lex)

    def at(k: int) -> str:
        return lex[k].type if k < n else ""

    while i < n:
        t = lex[i]
        kind = t.type
        if kind == "NUM" and _summed_batch(lex, i, out):
            total = float(lex[i].value or 0) + float(lex[i + 2].value or 0)
            t = _merge("NUM", lex[i : i + 3], total)
            t.note = f"'{t.text}' read as {total:g} (the parts added)"
            out.append(t)  # "Two tenants sharing one box: 64 + 32 concurrent"
            i += 3
            continue
        if kind == "OUTS" and _out_clause(lex, i, out):
            t = lex[i] = Tok("OUT", t.text, t.value, t.start, t.end, t.flag, t.note)
            kind = "OUT"  # "1M/day. out 500. h200": a clause of its own, the output's length
        if (
            t.text == "("
            and i + 2 < n
            and lex[i + 2].text == ")"
            and out
            and out[-1].type not in (BREAK, FILLER, "NUM")
            and out[-1].type == lex[i + 1].type
        ):
            i += 3  # "Inter-token latency (TPOT) shall be ≤ 30 ms": the name's abbreviation
            continue
        if (
            kind == BREAK
            and t.text == "("
            and i + 2 < n
            and lex[i + 2].text == ")"
            and out
            and _bracketed_side(out[-1], lex[i + 1])
        ):
            out.append(lex[i + 1])  # "Reasoning tokens (avg): 6,000", "$2.19 (output)"
            i += 3
            continue
        if kind == "INS" and at(i + 1) in ("IN", "OUT") and out and out[-1].type == "TOKENS":
            i += 1  # "1 500 tokens in input and 400 tokens in output": the word after says it
            continue
        if kind == BREAK:  # most terminals are breaks and fillers: a break is kept once
            if out and out[-1].type != BREAK:
                out.append(t)
            i += 1
            continue
        if kind == "CONTEXT":
            j = i + 1
            while j < n and j - i <= 5 and lex[j].type in (BREAK, FILLER) and (
                lex[j].text.lower() in _CONTEXT_VERBS
            ):
                j += 1
            if j > i + 1 and at(j) == "NUM":
                out.append(t)  # "the context window has to support 32k": the window's length
                i = j
                continue
        if kind == FILLER and out and out[-1].type == "GPUWORD" and t.text.lower() in _DOES:
            out.append(Tok(BREAK, t.text, None, t.start, t.end))  # "a GPU does 2,500 tok/s"
            i += 1
            continue
        if kind == FILLER:  # dropped, but for two that say something beside a figure
            made = _filler(t, out, at(i + 1)) if t.text.lower() in ("window", "and") else None
            if made is not None:
                out.append(made)
            i += 1
            continue
        if (
            kind == "NUM"
            and at(i + 1) == BREAK
            and lex[i + 1].text.lower() in _NOT_TOKENS
            and out
            and out[-1].type in ("OUT", "IN")
        ):  # "Responses shall not exceed 40 pages": pages, not output tokens
            out.append(Tok(BREAK, t.text, None, t.start, t.end))
            i += 1
            continue
        if kind in ("AVG", "GPUWORD") and (
            at(i + 1) == "UTIL" or (at(i + 1) == "GPUWORD" and at(i + 2) == "UTIL")
        ):  # "planned average utilization", "60% average GPU utilization": one target
            if kind == "GPUWORD" and out and out[-1].type == "NUM" and t.text.endswith("s"):
                out.append(Tok(BREAK, t.text, None, t.start, t.end))  # "below 50 GPUs util…"
            i += 1
            continue
        ceiling = kind == "PEAK" and out and out[-1].type == "UTIL"
        if ceiling and at(_after_fillers(lex, i + 1)) == "NUM":
            i += 1  # "utilization at peak does not exceed 80%": the planned ceiling, at peak
            continue
        if kind == "OUT" and _qualifies(out, lex, i):
            i += 1  # "OSL 1.2k visible plus 4.5k reasoning": 1.2k's own word, said again
            continue
        if kind == "BATCH" and at(i + 1) == FILLER and lex[i + 1].text == ":":
            lex[i + 1] = t  # "Nightly batch: 400k requests": the colon only labels
            i += 1
            continue
        if kind == "BATCH" and at(i + 1) == "NUM" and at(i + 2) == "REQUESTS":
            own_time = at(i + 3) not in (BREAK, "")  # "nightly batch: 400k requests." is nightly
            if out and out[-1].type == "PER_TIME" and out[-1].end < t.start and own_time:
                out.pop()  # "the nightly batch": how often it runs, not the rate's time
            i += 1  # "the nightly batch 9M req/month": a workload's name, not a batch size
            continue
        if (
            kind == "REASON"
            and t.text.lower() == "thinking"
            and i + 1 < n
            and lex[i + 1].text.lower() in _THINKING_ABOUT
        ):  # "thinking an 18-month lease": the verb
            out.append(Tok(BREAK, t.text, None, t.start, t.end))
            i += 1
            continue
        if kind == "REASON" and t.text.lower() in ("think", "thinks") and i and (
            lex[i - 1].text.lower() in _THINKERS
        ):  # "They think ~24 concurrent users": what someone reckons, no reasoning
            out.append(Tok(BREAK, t.text, None, t.start, t.end))
            i += 1
            continue
        if kind == "NUM" and isinstance(t.value, float) and t.value > 0:
            mean = _said_in_brackets(lex, i + 1, 0.0, t.value, averages=True)
            if mean is not None:  # "output up to 800 tokens (mean 350)": the mean is sized
                t = lex[i] = Tok(t.type, t.text, mean, t.start, t.end)
                t.note = f"'{t.text}' is the most: its mean, {numbers.compact(mean)}, read"
        if (
            kind == "NUM"
            and at(i + 1) == "PER_TIME"
            and lex[i + 1].text.lower().endswith("ly")
            and at(i + 2) == BREAK
            and lex[i + 2].text.isalpha()
            and lex[i + 2].start - lex[i + 1].end <= 1
        ):  # "on each of 2 daily shifts": a count of shifts, no rate of 2 a day
            out.append(t)
            out.append(Tok(BREAK, lex[i + 1].text, None, lex[i + 1].start, lex[i + 1].end))
            i += 2
            continue
        if kind == "NUM" and at(i + 1) in (BREAK, FILLER):
            k = _counted_noun(lex, i + 1)
            if k is not None:  # "4.3M classification calls a day": the count's own noun
                out.append(t)
                i = k
                continue
        if kind == "NUM":
            if at(i + 1) == "INS" and at(i + 2) == BREAK and lex[i + 2].text.isalpha():
                out.append(t)  # "one in Virginia", "TLS 1.3 in transit": no input tokens
                i += 2
                continue
            arrow = _arrow(lex, i)
            if arrow is not None:  # "2k→200": a request's tokens in and out, written short
                out.append(arrow)
                i += 3
                continue
            joint = lex[i + 1].text if i + 1 < n else ""
            if joint in _PAIR_JOINTS:  # "4:1", "1-2k", "3k/800", "2x8"
                paired = (
                    _ratio(lex, i)
                    or _range(lex, i)
                    or _in_out(lex, i)
                    or _product(lex, i)
                    or _split(lex, i)
                )
                if paired is not None:
                    label = _io_label(lex, i) if paired.type == "INOUT" else None
                    if label is not None and len(out) >= label:
                        del out[-label:]  # "Input / output tokens: 1,000 / 500": the pair's
                    out.append(paired)
                    i += 3
                    continue
            if at(i + 1) in _NUMBER_THEN:  # "10 percent", "3 times", "40 euros"
                out.append(_merge(_NUMBER_THEN[at(i + 1)], lex[i : i + 2], t.value))
                i += 2
                continue
            if at(i + 1) == "CENTS":  # "two dollars and fifty cents"
                assert isinstance(t.value, float)
                money = _merge("MONEY", lex[i : i + 2], t.value / 100)
                dollars = out[-1] if out and out[-1].type == "MONEY" else None
                if dollars is not None and isinstance(dollars.value, float):
                    out.pop()
                    money = _merge("MONEY", [dollars, money], dollars.value + t.value / 100)
                out.append(money)
                i += 2
                continue
            if at(i + 1) == "MONEYWORD" and (
                lex[i + 1].text != "$"
                or at(i + 2) in ("PER", "PER_TIME")
                or (at(i + 2) == FILLER and at(i + 3) == "PER_TIME")
            ):  # "2,45 USD", "2,10 $/GPU/h", "1,95 $ l'heure"; a lone "$" opens the next price
                cents = lex[i + 2] if at(i + 2) == "NUM" and t.flag else None
                if cents is not None and cents.flag and _cents(cents.value):
                    # "two dollars fifty": said aloud, the cents follow the dollars
                    assert isinstance(t.value, float) and isinstance(cents.value, float)
                    out.append(_merge("MONEY", lex[i : i + 3], t.value + cents.value / 100))
                    i += 3
                    continue
                out.append(_whole(_merge("MONEY", lex[i : i + 2], t.value), t))
                i += 2
                continue
            out.append(t)
            i += 1
            continue
        if kind == "FXWORD" and at(i + 1) == "NUM":  # "€3.10": not dollars, said
            out.append(_merge("FX", lex[i : i + 2], lex[i + 1].value))
            i += 2
            continue
        if kind == "MONEYWORD" and at(i + 1) == "NUM":
            out.append(_whole(_merge("MONEY", lex[i : i + 2], lex[i + 1].value), lex[i + 1]))
            i += 2
            continue
        if kind == "INS" and i > 0 and lex[i - 1].type == "NUM":
            k = _after_fillers(lex, i + 1)
            if k > i + 1 and at(k) == "OUT":  # "~700 in the final answer": its output
                i += 1
                continue
        then = _in_then_out(lex, i) if kind == "INS" and at(i + 1) == "NUM" else None
        if then is not None:  # "in 8k out 1k", "in 600 / out 150", "In 2.000 tokens, out 300"
            said = lex[then]
            out.append(Tok("IN", t.text, None, t.start, t.end))
            out.append(lex[i + 1])
            out.append(Tok("OUT", said.text, None, said.start, said.end))
            out.append(lex[then + 1])
            i = then + 2
            continue
        if kind == "TTFT":
            k = _after_fillers(lex, i + 1)
            if at(k) == "NUM" and at(k + 1) in ("INS", "IN"):
                i += 1  # "the TTFT at 2k in / 300 out": the lengths it is asked at, not a wait
                continue
        if (
            kind == "IN"
            and (at(i + 1) == "PER_TIME" or (at(i + 1) == "PER" and at(i + 2) == "TIME"))
            and out
            and out[-1].type == "NUM"
            and t.text.lower() in _ASKED
        ):
            t = Tok("REQUESTS", t.text, None, t.start, t.end)  # "4k questions a day"
            kind = "REQUESTS"
        if kind == "REQUESTS" and t.text.lower() in _LENGTH_NOUNS:
            k = _after_fillers(lex, i + 1)
            after_tokens = i > 0 and lex[i - 1].type == "TOKENS"  # "500-token completions"
            if after_tokens or (
                at(k) == "NUM" and at(k + 1) not in ("PER_TIME", "TIME", "REQUESTS", "INS", "IN")
            ):  # "Completions are 4k in / 60 out": the words after say the direction
                t = Tok("OUT", t.text, None, t.start, t.end)  # "completions ~250": their length
                kind = "OUT"
        if kind == "API" and out and out[-1].type == "NUM" and at(i + 1) == "REQUESTS":
            i += 1  # "85,000 API calls/day": the calls are to an API, and they are the volume
            continue
        volume = at(k := _after_fillers(lex, i + 1)) == "NUM" and at(k + 1) == "REQUESTS"
        if kind == "OUT" and volume:
            i += 1  # "answers ~40,000 tickets a day", "answers: 60M queries a month": a volume
            continue
        if kind in _DIRECTION_WORDS and _before(lex, i) != "NUM" and not _counted(out):
            k = _after_fillers(lex, i + 1)
            own = at(k + 1) in _DIRECTION_WORDS and (k > i + 1 or at(k + 2) == "TOKENS")
            if at(k) == "NUM" and own:  # "each answer is ~5k reasoning + 1k visible", "each
                i += 1  # answer ~450 visible tokens": the number's own word wins
                continue
        answer = kind == "OUT" and t.text.lower() == "answer"
        if answer and at(i + 1) == FILLER and lex[i + 1].text == ":":
            out.append(Tok(BREAK, t.text, None, t.start, t.end))  # 'Answer: "3 years."'
            i += 2
            continue
        if kind == "TERM":
            k = _after_fillers(lex, i + 1)
            if at(k) == "NUM" and (
                at(k + 1) in _VOLUME_AFTER or (at(k + 1) in _HARDWARE and at(i - 1) != "TIME")
            ):
                i += 1  # "lease: 600M output tokens/day", "lease 24 B300 GPUs": not a term
                continue
        if kind == "USER" and at(i + 1) == "REQUESTS" and out and out[-1].type == "NUM":
            i += 1  # "180 agent steps per second", "5M user requests a day": whose requests
            continue
        if kind == "BUDGET" and _before(lex, i) in ("TPOT", "TTFT"):
            i += 1  # "TPOT budget 15 ms": a latency's budget, not money
            continue
        if kind == "UTIL" and at(i + 1) == "TIME":  # "16 busy hours a day": no utilization
            out.append(Tok(BREAK, t.text, None, t.start, t.end))
            i += 1
            continue
        if kind == "TIMESWORD" and at(i + 1) == "NUM":
            out.append(_merge("XNUM", lex[i : i + 2], lex[i + 1].value))
            i += 2
            continue
        if kind == "PER" and at(i + 1) == "TIME" and _waiting(out, t):
            toks, i = _one_unit(lex, i)  # "first token in under a second and a half"
            out.extend(toks)
            continue
        if kind == "PER" and at(i + 1) == "TIME" and _fraction_of(out, t):
            time = lex[i + 1]  # "TTFT under half a second": the fraction's unit
            out.append(Tok("TIME", f"{t.text} {time.text}", time.value, t.start, time.end))
            i += 2
            continue
        if kind in ("AVG", "PEAK"):
            hourly = _hourly(lex, i)  # "an average hour is around 50k requests", "busiest hour …"
            if hourly is not None:
                toks, i = hourly
                out.extend(toks)
                continue
        if kind == "PER" and at(i + 1) == "GPU" and at(i + 2) == "PER" and at(i + 3) == "TIME":
            gpu, time = lex[i + 1], lex[i + 3]  # "$28,032 per B200 per year"
            text = " ".join(p.text for p in lex[i : i + 4])
            out.append(Tok("PER_TIME", text, time.value, t.start, time.end, True))
            out.append(gpu)
            i += 4
            continue
        if kind == "PER":
            hit = _per(lex, i, out)
            if hit is not None:
                tok, i = hit
                if out and out[-1].type == "NUM" and out[-1].flag and _priced(tok, out):
                    out[-1] = _spoken_price(out[-1])  # "one ninety per GPU hour"
                out.append(tok)
                continue
            if t.text.lower().startswith("in "):  # "12k tokens in each," is input after all
                out.append(Tok("INS", t.text, None, t.start, t.end))
            i += 1
            continue
        if kind == "PER_TIME" and t.text.lower().endswith("night") and _before(lex, i) == "TIME":
            i += 1  # "runs 6h per night": a window of hours (core.parse.volumes), not a rate
            continue
        if kind.startswith("RATE_"):
            unit = kind.removeprefix("RATE_")
            out.append(Tok(unit, t.text, None, t.start, t.end))
            out.append(Tok("PER_TIME", t.text, t.value, t.start, t.end))
            i += 1
            continue
        if kind in ("MONEYWORD", "PCTWORD", "TIMESWORD", "SCALE_M", "CENTS", "FXWORD"):
            i += 1
            continue
        out.append(t)
        i += 1
    return _own_times(_counts_after_peak(_nodes_counted(out)))


_A_RATES_OWN = frozenset({"NUM", "REQUESTS", "TOKENS", "OUT", "OUTS", "IN", "INS"})
"""Before a time, what makes it the time of the rate said with it."""


def _bracketed_side(before: Tok, side: Tok) -> bool:
    """Whether a word in brackets is the side of what it follows: a label's average or
    peak ("Reasoning tokens (avg)"), a price's output or input ("$2.19 (output)")."""
    if side.type in ("AVG", "PEAK"):
        return before.type in _LABELLED
    return side.type in ("OUT", "IN") and before.type == "MONEY"


def _own_times(out: list[Tok]) -> list[Tok]:
    """ "10 hours a day at about 30 requests/s": a rate's own time after it is its time; the
    one before ("a day") was the hours', so it is no time of the rate's."""
    dropped = False
    for k in [k for k, t in enumerate(out) if t.type == "PER_TIME"]:
        if k + 3 >= len(out):
            break
        j = k + 2 if out[k + 1].type in ("AVG", "TRAFFIC") else k + 1  # "daily average is"
        if j == k + 2 and k and out[k - 1].type in _A_RATES_OWN:
            continue  # "35 requests/second average and 90 requests/second peak": its own
        if (
            j + 2 < len(out)
            and out[j].type == "NUM"
            and out[j + 1].type in ("REQUESTS", "TOKENS", "OUT", "OUTS")
            and out[j + 2].type == "PER_TIME"
        ):
            t = out[k]  # dropped beside "average": "~2x the yearly average of 3M/day"
            out[k] = Tok(BREAK if j == k + 1 else FILLER, t.text, None, t.start, t.end)
            dropped = dropped or j != k + 1
    return [t for t in out if t.type != FILLER] if dropped else out


def _nodes_counted(out: list[Tok]) -> list[Tok]:
    """ "2 x 8-GPU MI325X servers": the multiple counts the nodes of the GPUs after it."""
    for k in range(len(out) - 3):
        if (
            out[k].type == "MULT"
            and out[k + 1].type == "NUM"
            and out[k + 2].type == "GPUWORD"
            and any(t.type == "NODES" for t in out[k + 3 : k + 5])
        ):
            t = out[k]
            out[k] = Tok("NUM", t.text, t.value, t.start, t.end)
    return out


def _counts_after_peak(out: list[Tok]) -> list[Tok]:
    """ "Scenario sized for peak: 16x H100": the multiple counts the GPUs after it, so the
    word before is no peak-to-average ratio's ("peak 3x the average"); "60 req/s at peak
    with a 2:1 peak-to-average": the ratio names itself, so the peak word stays the rate's."""
    split: list[int] = []
    for k in range(len(out) - 2):
        if out[k].type == "PEAK" and out[k + 1].type == "MULT" and out[k + 2].type in _HARDWARE:
            t = out[k]
            out[k] = Tok(BREAK, t.text, None, t.start, t.end)
        elif out[k].type == "PEAK" and out[k + 1].type == "MULT" and out[k + 2].type == "P2A":
            split.append(k + 1)
    for k in reversed(split):
        t = out[k]
        out.insert(k, Tok(BREAK, "", None, t.start, t.start))
    return out


def _counted_noun(lex: list[Tok], j: int) -> int | None:
    """Where a count's requests word is, past one or two words that say what kind
    ("4.3M classification calls a day", "1,500 NPC-line requests/s"), when a time follows."""
    k = j
    while k < len(lex) and k - j < 3 and (
        (lex[k].type == BREAK and lex[k].text.isalpha()) or lex[k].text == "-"
    ):
        if lex[k].text.lower().startswith(_NOT_GENERATED):
            return None  # "1.5M embedding calls/day": no model's generation
        k += 1
    if k == j or k + 1 >= len(lex) or lex[k].type != "REQUESTS":
        return None
    after = lex[k + 1 : k + 7]
    if after[0].type in ("PER", "PER_TIME"):
        return k
    spans = [a for a in after if a.type != FILLER][:2]  # "… over the 30-day campaign"
    over = any(a.text.lower() in _OVER for a in after if a.type == FILLER)
    return k if over and [a.type for a in spans] == ["NUM", "TIME"] else None


def _hourly(lex: list[Tok], i: int) -> tuple[list[Tok], int] | None:
    """A count said of an average or a peak hour ("an average hour is around fifty thousand
    requests", "busiest hour is 72,000 requests", "Peak hour is ~42k requests"): per that
    hour, the side word kept beside it for core.parse.peaks."""
    side = lex[i]
    if i + 1 < len(lex) and lex[i + 1].type == "TIME" and lex[i + 1].value in _HOURS:
        time, j = lex[i + 1], i + 2
        unit, per_text = str(time.value), time.text
        if side.type == "PEAK":  # "busiest hour": one peak word, as "peak hour" is
            side = Tok("PEAK", f"{side.text} {time.text}", None, side.start, time.end)
            per_text = side.text
    elif side.type == "PEAK" and side.text.lower().endswith(("hour", "minute", "second")):
        unit, per_text, j = side.text.lower().rsplit(None, 1)[-1], side.text, i + 1
    else:
        return None
    k = _after_fillers(lex, j)
    if k < len(lex) and lex[k].type == "TIME" and lex[k].value in ("day", "week"):
        k = _after_fillers(lex, k + 1)  # "busiest minute of the day is ~3,000 requests"
    if k < len(lex) and lex[k].type == "TRAFFIC":
        k = _after_fillers(lex, k + 1)  # "Peak hour volume: 36,000 requests"
    if k < len(lex) and lex[k].type == BREAK and lex[k].text.lower() in _HOUR_VERBS:
        k = _after_fillers(lex, k + 1)  # "Busiest hour sees 90,000 requests"
    if (
        j < k < len(lex)
        and lex[k - 1].text.lower() in ("for", "at")
        and lex[k].type == "BREAK"
        and lex[k].text[:1].isupper()
        and lex[k].text.isalpha()
    ):
        k = _after_fillers(lex, k + 1)  # "busy hour for Calloway is ~90k requests": a name
    if k + 1 >= len(lex) or lex[k].type != "NUM" or lex[k + 1].type not in ("REQUESTS", "TOKENS"):
        return None
    if k + 2 < len(lex) and lex[k + 2].type in ("PER", "PER_TIME"):
        return None  # "peak hour 42k requests per minute": its own time
    said = lex[k + 1]
    return [side, lex[k], said, Tok("PER_TIME", per_text, unit, said.end, said.end)], k + 2


def _after_fillers(lex: list[Tok], j: int) -> int:
    """The first terminal at or after ``lex[j]`` that is not a filler (or the end)."""
    while j < len(lex) and lex[j].type == FILLER:
        j += 1
    return j


def _counted(out: list[Tok]) -> bool:
    """Whether a count of tokens comes right before: "600 tokenów wejścia" (600 tokens of
    input) gives the direction to its own number."""
    return len(out) > 1 and out[-1].type == "TOKENS" and out[-2].type == "NUM"


def _before(lex: list[Tok], i: int) -> str:
    """The type of the last terminal before ``lex[i]`` that is not a filler."""
    for k in range(i - 1, -1, -1):
        if lex[k].type != FILLER:
            return lex[k].type
    return ""


def _priced(per: Tok, out: list[Tok]) -> bool:
    """Whether a number said in words before ``per`` is a price: per GPU-hour, or per
    million tokens after another price ("ten dollars per million out and two fifty per
    million in")."""
    if per.type == "PER_TIME":
        return per.flag and per.value == "hour"
    return per.type == "PER_MILLION" and any(t.type == "MONEY" for t in out[-6:-1])


def _spoken_price(number: Tok) -> Tok:
    """A price said aloud the short way is dollars and cents ("two fifty" is $2.50)."""
    value = numbers.dollars_and_cents(number.text)
    money = Tok("MONEY", number.text, number.value, number.start, number.end, True)
    if value is not None:
        money.value = value
        money.note = f"'{number.text}' read as ${value:.2f}"
    return money


def _waiting(out: list[Tok], t: Tok) -> bool:
    """Whether "a" before a time is a wait ("TTFT within a second"), not a rate's "a day"."""
    if t.text.lower() not in ("a", "an") or not out:
        return False
    last = out[-1].type if out[-1].type != "INS" or len(out) < 2 else out[-2].type
    return last == "TTFT"


def _fraction_of(out: list[Tok], t: Tok) -> bool:
    """Whether "a" before a time follows a fraction of a wait ("TTFT under half a second")."""
    return (
        t.text.lower() in ("a", "an")
        and len(out) > 1
        and out[-1].type == "NUM"
        and out[-1].text.lower() in numbers.FRACTIONS
        and out[-2].type in ("TTFT", "INS")
    )


def _one_unit(lex: list[Tok], i: int) -> tuple[list[Tok], int]:
    """One unit of time, or one and a half ("a second and a half"): a number and its time."""
    end, value = i + 2, 1.0
    half = lex[i + 2 : i + 5]
    if (
        len(half) == 3
        and half[0].text.lower() == "and"
        and half[1].text.lower() in ("a", "an")
        and half[2].type == "FACTOR"
        and half[2].value == 0.5
    ):
        end, value = i + 5, 1.5
    number = _merge("NUM", lex[i:end], value)
    time = lex[i + 1]
    return [number, Tok("TIME", time.text, time.value, number.end, number.end)], end


def _filler(t: Tok, out: list[Tok], after: str) -> Tok | None:
    """What a filler becomes: a context ("a 64k window"; "a 2-hour window" is no fact), a
    break before a direction word ("… tokens and output …"), or nothing."""
    said = t.text.lower()
    if said == "window" and out and out[-1].type == "NUM":
        value = out[-1].value
        if isinstance(value, float) and value >= 1024:
            return Tok("CONTEXT", t.text, None, t.start, t.end)
    if said == "and" and after in _DIRECTION_WORDS:
        return Tok(BREAK, t.text, None, t.start, t.end)
    return None


def _glued(lex: list[Tok], i: int, joints: tuple[str, ...]) -> tuple[Tok, Tok, Tok] | None:
    """Two numbers written with one of ``joints`` and no space between ("4:1", "3k/800")."""
    if i + 2 >= len(lex) or lex[i + 1].text.lower() not in joints or lex[i + 2].type != "NUM":
        return None
    a, joint, b = lex[i], lex[i + 1], lex[i + 2]
    if a.end != joint.start or joint.end != b.start:
        return None
    return a, joint, b


def _io_label(lex: list[Tok], i: int) -> int | None:
    """How many terminals of an "Input / output tokens:" label end right before ``lex[i]``
    (fillers aside): the pair after it is the request's input and output."""
    j, kept = i - 1, 0
    while j >= 0 and lex[j].type == FILLER and lex[j].text != "/":
        j -= 1
    if j >= 0 and lex[j].type == "TOKENS":
        j, kept = j - 1, kept + 1
    if j < 0 or lex[j].type not in ("OUT", "OUTS"):
        return None
    j, kept = j - 1, kept + 1
    if j < 1 or lex[j].text != "/" or lex[j - 1].type not in ("IN", "INS"):
        return None
    return kept + 1


def _spaced_pair(lex: list[Tok], i: int) -> tuple[Tok, Tok, Tok] | None:
    """ "…, 1.5k / 400." : two lengths spaced around a slash, alone in their clause."""
    if i + 2 >= len(lex) or lex[i + 1].text != "/" or lex[i + 2].type != "NUM":
        return None
    a, slash, b = lex[i], lex[i + 1], lex[i + 2]
    after = lex[i + 3].type if i + 3 < len(lex) else BREAK
    before = lex[i - 1].type if i > 0 else BREAK
    alone = before in (BREAK, "GPU", "MODEL", "PRECISION") or _io_label(lex, i) is not None
    if after not in (BREAK, "TOKENS") or not alone:
        return None
    scaled = _scale_of(a.text) > 1 or _scale_of(b.text) > 1
    if not (scaled or min(float(a.value or 0), float(b.value or 0)) >= 100):
        return None
    return a, slash, b


def _product(lex: list[Tok], i: int) -> Tok | None:
    """``2x8`` written as one word: two nodes of eight, 16 (said)."""
    glued = _glued(lex, i, ("x", "×"))
    if glued is None or glued[1].type != "TIMESWORD":
        return None
    a, x, b = glued
    assert isinstance(a.value, float) and isinstance(b.value, float)
    tok = _merge("NUM", [a, x, b], a.value * b.value)
    tok.text = f"{a.text}x{b.text}"
    tok.note = f"'{tok.text}' read as {a.value * b.value:g} ({a.value:g} x {b.value:g})"
    return tok


def _split(lex: list[Tok], i: int) -> Tok | None:
    """``70/30 output/input``: shares of the tokens, not a length (``core.parse.volumes``
    reads them); a break, so neither figure is taken for a request's tokens."""
    if i + 3 >= len(lex) or lex[i + 1].text not in ("/", ":") or lex[i + 2].type != "NUM":
        return None
    a, b = lex[i].value, lex[i + 2].value
    if not isinstance(a, float) or not isinstance(b, float) or a + b != 100:
        return None
    if lex[i + 3].type not in ("OUT", "OUTS", "IN", "INS"):
        return None
    return _merge(BREAK, lex[i : i + 3], None)


def _ratio(lex: list[Tok], i: int) -> Tok | None:
    """``4:1`` (a peak-to-average ratio, glued): the multiple 4."""
    glued = _glued(lex, i, (":",))
    if glued is None:
        return None
    a, colon, b = glued
    assert isinstance(a.value, float) and isinstance(b.value, float)
    if not 0 < b.value <= 10 or a.value < b.value:
        return None  # "10:30" is a time, not a ratio
    return _merge("MULT", [a, colon, b], a.value / b.value)


def _arrow(lex: list[Tok], i: int) -> Tok | None:
    """``2k→200`` written glued: input and output tokens of a request, as ``3k/800``
    ("300 → 600 tokens" with spaces is often a change, not a pair)."""
    glued = _glued(lex, i, ("→",))
    if glued is None:
        return None
    a, _, b = glued
    slashed = [a, Tok("FILLER", "/", None, a.end, b.start), b]
    return _in_out(slashed, 0)


def _in_out(lex: list[Tok], i: int) -> Tok | None:
    """``3k/800``: input and output tokens of a request, the shorthand's order; spaced
    ("1.5k / 400") when the pair stands alone at the end of its clause."""
    glued = _glued(lex, i, ("/",)) or _spaced_pair(lex, i)
    if glued is None:
        return None
    a, slash, b = glued
    assert isinstance(a.value, float) and isinstance(b.value, float)
    if not (a.value >= 1 and b.value >= 1 and a.value == int(a.value) and b.value == int(b.value)):
        return None
    if max(a.value, b.value) < 100 and _scale_of(a.text) == _scale_of(b.text) == 1:
        return None  # "09/30" is a date, "24/7" a schedule: no request is that short
    if min(a.value, b.value) >= 1e8:
        return None  # "the 3.2 1b/3b models": sizes of models, no request is that long
    tok = _merge("INOUT", [a, slash, b], f"{a.value:.0f}/{b.value:.0f}")
    tok.note = f"'{tok.text}' read as input/output tokens of a request"
    return tok


_NOT_TOKENS = frozenset(
    {"pages", "page", "words", "characters", "chars", "slides", "images", "files", "documents"}
    | {"docs", "sections", "items", "rows", "lines", "emails", "sentences", "paragraphs"}
)
"""Counts after a prompt or answer word that make them no token count."""


def _summed_batch(lex: list[Tok], i: int, out: list[Tok]) -> bool:
    """Whether ``lex[i]`` opens "64 + 32" said of one box's concurrency ("64 + 32
    concurrent", "batch 64+32"): the tenants' batches, added."""
    if i + 2 >= len(lex) or lex[i + 1].text != "+" or lex[i + 2].type != "NUM":
        return False
    if not all(isinstance(lex[k].value, float) for k in (i, i + 2)):
        return False
    after = lex[i + 3].type if i + 3 < len(lex) else ""
    return after == "CONCURRENT" or bool(out and out[-1].type == "BATCH")


_CLAUSE_ENDS = frozenset({".", ",", ";", ""})


def _out_clause(lex: list[Tok], i: int, out: list[Tok]) -> bool:
    """Whether "out" opens a clause of its own with a bare length after it ("…, out 500.")."""
    if lex[i].text.lower() != "out" or i + 1 >= len(lex) or lex[i + 1].type != "NUM":
        return False
    opened = not out or out[-1].type == BREAK and out[-1].text in _CLAUSE_ENDS
    ends = i + 2 >= len(lex) or (lex[i + 2].type == BREAK and lex[i + 2].text in _CLAUSE_ENDS)
    value = lex[i + 1].value
    return opened and ends and isinstance(value, float) and 1 <= value <= 100_000


def _in_then_out(lex: list[Tok], i: int) -> int | None:
    """Where the "out" of "in <n> … out <m>" is, when ``lex[i]`` is its "in": the two said
    one after the other, a "tokens", a slash, a comma or an "and" between them."""
    k = i + 2
    if k < len(lex) and lex[k].type == "TOKENS":
        k += 1
    if k < len(lex) and lex[k].text.lower() in ("/", ",", ";", "and"):
        k += 1
    if k + 1 < len(lex) and lex[k].type in ("OUTS", "OUT") and lex[k + 1].type == "NUM":
        return k
    return None


def _qualifies(out: list[Tok], lex: list[Tok], i: int) -> bool:
    """Whether the output word at ``lex[i]`` repeats the direction of the figure before it
    ("OSL 1.2k visible") while the next figure is reasoning ("plus 4.5k reasoning")."""
    if len(out) < 2 or out[-1].type != "NUM" or out[-2].type != "OUT":
        return False
    k = _after_fillers(lex, i + 1)
    if k < len(lex) and lex[k].type == "NUM" and k + 1 < len(lex):
        return lex[k + 1].type == "REASON" or (
            lex[k + 1].text == "-" and k + 3 < len(lex) and lex[k + 3].type == "REASON"
        )
    return False


def _range(lex: list[Tok], i: int) -> Tok | None:
    """``1-2k``, ``8 to 16``: the top of the range, said (capacity is sized for it)."""
    if i + 2 >= len(lex) or lex[i + 1].text.lower() not in ("-", "to"):
        return None
    low, high = lex[i], lex[i + 2]
    if high.type != "NUM" or not isinstance(low.value, float):
        return None
    assert isinstance(high.value, float)
    bottom = low.value
    scale = _scale_of(high.text)
    if scale > 1 and _scale_of(low.text) == 1 and bottom * scale <= high.value:
        bottom *= scale  # "1-2k" is 1,000 to 2,000
    if not 0 < bottom < high.value:
        return None
    said = _said_in_brackets(lex, i + 3, bottom, high.value)
    said = said if said is not None else _averaging(lex, i + 3, bottom, high.value)
    tok = _merge("NUM", [low, lex[i + 1], high], said or high.value)
    if said is not None:
        tok.note = f"'{tok.text}' read as {numbers.compact(said)}, as the words after it say"
        return tok
    tok.note = (
        f"'{tok.text}' read as {numbers.compact(high.value)}, the top of the range "
        f"(say '{numbers.compact((bottom + high.value) / 2)}' for its middle)"
    )
    return tok


_RATE_UNITS = frozenset(
    {"REQUESTS", "PER_TIME", "TOKENS", "OUT", "OUTS", "IN", "INS", "PER", "TIME"}
)


def _averaging(lex: list[Tok], j: int, low: float, high: float) -> float | None:
    """ "30–40 rps, averaging 35 over the day": the range's stated mean, its own figure then
    said no more (dropped as a filler, so no second rate reads; "averaging" stays)."""
    while j < len(lex) and (lex[j].type in _RATE_UNITS or lex[j].type.startswith("RATE_")):
        j += 1
    comma = j if j < len(lex) and lex[j].text == "," else None
    if comma is not None:
        j += 1
    if j + 1 >= len(lex) or lex[j].type != "AVG" or lex[j + 1].type != "NUM":
        return None
    mean = lex[j + 1].value
    if not isinstance(mean, float) or not low <= mean <= high:
        return None
    for k in (comma, j + 1):  # "averaging" stays, joined to the rate: it is the average
        if k is not None:
            t = lex[k]
            lex[k] = Tok(FILLER, t.text, None, t.start, t.end)
    return mean


_USE_WORDS = frozenset({"use", "call", "it", "say", "assume", "plan", "take", "for", "sizing"})
_MEAN_WORDS = frozenset({"mean", "avg", "average", "typical", "typically", "usually"})


def _said_in_brackets(
    lex: list[Tok], j: int, bottom: float, top: float, *, averages: bool = False
) -> float | None:
    """The figure a range or a maximum is given as right after it: "2-3k (use 2.5k)", "4-5k
    reasoning (call it 4.5k)", "80-120 tokens, call it 100", or with ``averages`` "up to
    800 tokens (mean 350)"; within [bottom, top]. The words that said it then read as
    nothing."""
    if j < len(lex) and lex[j].type in ("REASON", "TOKENS", "OUT", "IN"):
        j += 1  # the figure's own unit before the bracket
    if j + 2 >= len(lex) or lex[j].text not in ("(", ","):
        return None
    words = _MEAN_WORDS if averages else _USE_WORDS
    k = j + 1
    while k < len(lex) and k - j <= 3 and lex[k].text.lower() in words:
        k += 1
    if k == j + 1 or k >= len(lex) or lex[k].type != "NUM":
        return None
    closed = k + 1 < len(lex) and lex[k + 1].text == ")"
    if lex[j].text == "(" and not closed:
        return None
    if lex[j].text == "," and (averages or (k + 1 < len(lex) and lex[k + 1].type != BREAK)):
        return None  # "80-120 tokens, call it 100." but never ", mean 350 requests"
    value = lex[k].value
    if not isinstance(value, float) or not bottom <= value <= top or value == top:
        return None
    for m in range(j, k + 2 if closed else k + 1):
        lex[m] = Tok(BREAK, lex[m].text, None, lex[m].start, lex[m].end)
    return value


def _scale_of(text: str) -> float:
    tail = text.replace(",", "").lstrip("0123456789.").strip().lower()
    return numbers.SCALES.get(tail, 1.0)


def _cents(value: object) -> bool:
    return isinstance(value, float) and value.is_integer() and 0 < value < 100


def _per(lex: list[Tok], i: int, out: list[Tok]) -> tuple[Tok, int] | None:
    """``per``/``/``/``a``/``each`` and what follows: a time, a user, a request, a million."""
    n = len(lex)
    j = i + 1
    while j < n and lex[j].type == FILLER and j + 1 < n and lex[j + 1].type == "TIME":
        j += 1  # "per working day"
    gpu = False
    if j < n and lex[j].type == "GPUWORD":
        gpu = True
        j += 1
        k = j
        while k + 1 < n and lex[k].type in ("PER", FILLER):
            k += 1  # "per GPU per calendar month"
        if k > j and lex[k].type == "TIME":
            j = k
        elif j < n and lex[j].type == "PER_TIME":  # "per GPU per annum"
            return _merge("PER_TIME", lex[i : j + 1], lex[j].value, flag=True), j + 1
    if j >= n:
        return None
    nxt = lex[j]
    if nxt.type == "TIME":
        end = j + 1
        if end + 1 < n and lex[end].type == "PER" and lex[end + 1].type in ("GPU", "GPUWORD"):
            gpu = True  # "$2,900/mo per H100": the GPU's own price; the GPU stays a name
            end += 2 if lex[end + 1].type == "GPUWORD" else 1
        return _merge("PER_TIME", lex[i : j + 1], nxt.value, flag=gpu), end
    if gpu:
        return None
    if nxt.type == "USER":
        return _merge("PER_USER", lex[i : j + 1], None), j + 1
    if nxt.type == "REQUESTS":
        return _merge("PER_REQ", lex[i : j + 1], None), j + 1
    if nxt.type == "NUM" and nxt.value == 1e3 and any(t.type == "MONEY" for t in out[-3:]):
        return _merge("PER_MILLION", lex[i : j + 1], "thousand"), j + 1  # "$0.0006 per 1K"
    million = nxt.type == "SCALE_M" or (nxt.type == "NUM" and nxt.value == 1e6)
    if million:
        money = any(t.type == "MONEY" for t in out[-3:]) or (
            i > 0 and lex[i - 1].type == "MONEYWORD"  # "show $/M at 70% utilization"
        )
        if money or nxt.type == "NUM" or nxt.text.lower() != "m":
            return _merge("PER_MILLION", lex[i : j + 1], None), j + 1
        return _merge("PER_TIME", lex[i : j + 1], "minute"), j + 1
    return None


_DOT_THOUSAND = re.compile(r"\d{1,3}\.000")


def _whole(money: Tok, number: Tok) -> Tok:
    """A sum said with a dot before three zeros ("USD 22.000 al mes"): a thousands dot, as
    Spanish, German and Portuguese write it; cents take two digits, never three."""
    if _DOT_THOUSAND.fullmatch(number.text) and isinstance(money.value, float):
        money.value *= 1000
        money.note = f"'{money.text}' read as {money.value:,.0f} (the dot groups thousands)"
    return money


def _merge(kind: str, parts: list[Tok], value: float | str | None, *, flag: bool = False) -> Tok:
    text = " ".join(p.text for p in parts)
    return Tok(kind, text, value, parts[0].start, parts[-1].end, flag or parts[0].flag)
