"""Free text -> Scenario / Traffic fields, and follow-ups that edit a thread's fields.

Pipeline (each stage a module named for its idea)::

    markup     Slack markup, entities, emoji, code -> plain text (cut at 20,000 chars)
    numerals   number words of other languages ("duemila", "soixante-quinze") -> digits
    glossary   a deployment's parts in other languages ("por nodo", "pro Knoten") -> English
    workloads  one workload of several, when the message says which ("size (a) first")
    tokens     one regex -> numbers/words/symbols; then typed terminals:
               catalog names (lexicon), numbers with scales (numbers), units of time (timeunits)
    combine    neighbouring terminals as one ("$" + 4.50 -> MONEY, "per" + day -> PER_TIME)
    grammar    lark LALR(1) over the terminals (grammar.lark) -> facts, never failing
    facts      each rule's meaning -> the JSON contract's field values, said back
    keyvalue   key=value pairs, typed; they win over prose
    products   a volume said as a population and its frequencies, multiplied out
    units      requests counted in a unit the message defines ("a session ≈ 12 calls")
    calls      voice calls × minutes × turns, and sessions open at once × their rate
    breakdowns a volume broken down under a header, one part a line, summed
    rows       which row of a pasted table the message means, or which rows add up
    deployments GPUs said by the node, rack or replica, multiplied out
    concurrency concurrency said by the node, replica, rack or GPU, multiplied out
    regions    a rate said per region, site or tenant, times the regions counted
    options    the term the customer took of those offered, with its price
    result     parse(): fields shaped by question kind, missing/assumed/ambiguities
    followups  apply_followup(): edits, undo, start over

The grammar, EBNF-ish (terminals in capitals; see grammar.lark for the exact rules)::

    message     = { fact | stray } ;
    tokdir      = (OUT | IN | REASON) [TOKENS] | TOKENS [OUT | IN | REASON] ;
    rate        = NUM tokdir PER_TIME [PER_USER] | NUM REQUESTS PER_TIME | NUM PER_TIME
                | (OUT | IN | REASON) NUM [TOKENS] PER_TIME [PER_USER] ;
    amount      = NUM tokdir [PER_REQ] | NUM INS | (OUT | IN | REASON) NUM [TOKENS] [PER_REQ] ;
    user_speed  = (USER | PER_USER) NUM [tokdir] PER_TIME ;
    context     = NUM [tokdir] CONTEXT | CONTEXT NUM [TOKENS] ;
    gpus        = (NUM | MULT) GPU [GPUWORD] | (NUM | MULT) GPUWORD [GPU] | GPU [XNUM | GPUWORD] ;
    peak        = MULT (PEAK | P2A) [AVG] | PEAK MULT [AVG] | P2A (NUM | MULT) ;
    concurrency = BATCH (NUM | MULT) | CONCURRENT NUM | NUM CONCURRENT | NUM USER CONCURRENT ;
    ttft        = TTFT NUM [TIME] | NUM TIME TTFT ;
    term        = NUM TIME [TERM] | TERM NUM [TIME] | ONDEMAND [TERM] ;
    price       = MONEY [PER_TIME] ;
    api_price   = MONEY PER_MILLION [tokdir] | API MONEY [PER_MILLION [tokdir]]
                | API tokdir MONEY [PER_MILLION] ;
    growth      = GROWTH PCT [PER_TIME] | PCT [PER_TIME] GROWTH | PCT PER_TIME ;
    utilization = UTIL (PCT | NUM) | PCT UTIL ;
    no_reasoning= NOT REASON [TOKENS] ;
    scale       = FACTOR (TRAFFIC | REQUESTS | TOKENS | BATCH | CONCURRENT | GPUWORD)
                | MULT TRAFFIC | TRAFFIC FACTOR ;
    model = MODEL ; precision = PRECISION ; stack = STACK ; undo = UNDO ; reset = RESET ;

Terminals come from the tokenizer: ``NUM`` 2B / 1,200 / 2.5 million / eight; ``MONEY``
$4.50 / 4.5 dollars; ``PCT`` 10%; ``MULT`` 3x; ``XNUM`` x8; ``PER_TIME`` per day / a
day / /s / daily / MoM (with "per GPU-hour"); ``PER_USER``, ``PER_REQ``,
``PER_MILLION`` ($15/M); ``TIME`` month / yr / s / ms; ``P2A`` peak to average;
``TTFT`` (also "time to first token"); ``MODEL``/``GPU``/``PRECISION``/``STACK`` are
catalog names and aliases; ``BREAK`` is punctuation or an unknown word (facts never
span it); filler words ("about", "the", "we", "want") are dropped.

Conflicts resolve greedily (LALR shift), e.g. ``3x peak`` is a peak, not a count.
Ambiguity is named, not guessed: ``batch 8 H200`` (batch, not 8 GPUs), ``tokens``
without input/output, ``10k a day`` without a unit, two values for one field.
"""

from core.parse.followups import FollowUp, apply_followup
from core.parse.result import Parsed, parse

__all__ = ["FollowUp", "Parsed", "apply_followup", "parse"]
