"""The vocabulary: catalog names, units, keywords and filler words, each mapped to a terminal.

Terminals are the grammar's (``grammar.lark``). Words not listed here and not a
catalog name become ``BREAK`` (facts never span them); filler words are dropped.
Keywords of five letters or more also match one typo away ("tokns", "requets",
"concurent", "outptu"), through a table of single-letter deletions built once per catalog,
each candidate checked to be one edit away (a deletion on both sides can be two).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rapidfuzz.distance import OSA

from core.catalog import Catalog, normalize
from core.parse.names import Spelling, spelling

FILLER = "FILLER"
BREAK = "BREAK"

# One word -> (terminal, value). Values: a unit for time words, a factor for FACTOR.
_GROUPS: dict[str, tuple[str, str]] = {
    "TOKENS": ("", "tokens token tok toks tkns tokns"),
    "REQUESTS": (
        "",
        "docs documents messages message requests request req reqs calls call queries query "
        "completions tasks task conversations conversation convos convo chats sessions turns "
        "descriptions summaries emails tickets images translations articles reviews reports "
        "transcripts searches lookups jobs invocations invocation hits msgs msg steps step alerts "
        "lines letters records claims contracts listings filings invoices submissions",
    ),
    "OUT": (
        "",
        "output outputs generated generation completion decode decoded visible answer answers "
        "response responses reply replies osl gen writes returning",
    ),
    "OUTS": ("", "out back"),
    "IN": ("", "input inputs prompt prompts prefill isl question questions"),
    "INS": ("", "in"),
    "REASON": ("", "reasoning thinking thought thinks think"),
    "CONTEXT": ("", "context ctx"),
    "PEAK": (
        "",
        "peak peaks peaky peaking peaked burst bursts bursting spikes spike spiking busiest spiky "
        "spikey bursty pk",
    ),
    "NODES": (
        "",
        "node nodes server servers box boxes host hosts machine machines rack racks "
        "servidor servidores nodo nodos serveur serveurs nœud nœuds knoten",  # "3 servidores de 8×"
    ),
    "CENTS": ("", "cents cent ¢"),
    "FXWORD": (
        "",
        "€ £ ₹ ¥ eur euro euros gbp pound pounds yen jpy rmb cny yuan inr rupees rupee brl reais "
        "chf sek nok dkk cad aud sgd hkd krw nzd mxn twd",
    ),
    "AVG": (
        "",
        "average averaged averaging avg mean baseline normal usual typical typically usually "
        "overall",
    ),
    "P2A": ("", "p2a ptoa"),
    "BUDGET": ("", "budget budgets budgeted"),
    "TTFT": ("", "ttft"),
    "TPOT": ("", "tpot itl tbt"),
    "BATCH": ("", "batch bs"),
    "CONCURRENT": (
        "",
        "concurrent concurrency conc simultaneous parallel inflight concurrently simultaneously "
        "streams seqs sequences",
    ),
    "USER": ("", "user users seat seats agents agent"),
    "TERM": ("", "term lease commitment contract commit"),
    "GROWTH": ("", "growth grows grow growing grown grew increase increases increased"),
    "UTIL": ("", "utilization utilisation util utilized utilised busy occupancy"),
    "API": ("", "api apis hosted"),
    "GPUWORD": ("", "gpu gpus cards card accelerators accelerator"),
    "NOT": ("", "without no disable disabled skip minus"),
    "TRAFFIC": ("", "traffic volume load usage it workload"),
    "UNDO": ("", "undo revert"),
    "RESET": ("", "reset restart clear"),
    "PER": ("", "per / each every a an"),
    "MONEYWORD": ("", "dollars dollar usd bucks $ dolar dólares dollari dolarów"),
    "PCTWORD": ("", "% percent pct"),
    "TIMESWORD": ("", "x × times veces fois mal volte keer razy guna kat"),
    FILLER: (
        "",
        "the of at about around roughly approximately approx circa ~ near nearly almost up "
        "under below less than within max maximum most least over above more plus some like "
        "maybe probably currently today now so that this these those which who if then by "
        "from into across total and or but also just only "
        "still all any ratio size rate speed price pricing cost costs priced quote target "
        "goal model models is are was were be been being have has had will would should could "
        "can must we our they their them us you your i my me want wants wanted need needs "
        "needed expect expects expecting require requires required see seeing get gets "
        "getting do does doing run runs running serve serves serving hit hits hitting handle "
        "handles handling with on for to - _ = : + & < > ≤ ≥ ( ) [ ] what how many much "
        "please pls thanks hi hey ok okay sure let lets let's make change switch use using "
        "try instead set go say assume assuming add adding around ~ for kind sort roughly "
        "tops top ceiling sustained steady daily-ish customer's their's it's its want expected "
        "higher bigger larger greater "
        "spending spend charge charges charging list via on-prem throughput "
        "p50 p90 p95 p99 p999 percentile median worst-case working business calendar "
        "plan plans planned planning aim assumption actual ca approx. env window count shall "
        "exceed exceeds pieces pcs units receive receives received "
        "stays stay remains remain capped llm going coming ing final actual chat nos number af "
        "sits sit sitting hovers hover hovering "
        "summary next abt generate generates produce produces closer nearer r u aggregate "
        "aggregated sustain projected forecast forecasted",
    ),
}

_FOREIGN: dict[str, str] = {
    "REQUESTS": "anfragen anfrage aufrufe requêtes requête requetes peticiones petición sessões "
    "solicitudes consultas llamadas requisições requisicoes chamadas richieste chiamate "
    "verzoeken aanvragen zapytań zapytania żądań istek isteği förfrågningar anrop pedidos pedido",
    "OUT": "ausgabe antwort antworten sortie réponse réponses salida respuesta respuestas "
    "saída saida resposta respostas ut uscita risposta wyjścia wyjściowych çıkış uitvoer raus",
    "IN": "eingabe entrée entrées entrada entradas ingresso wejścia wejściowych giriş invoer rein",
    "TOKENS": "jetons tokenów tokeny tokenı tokeni",
    "CONTEXT": "kontext kontextfenster contexte contexto contesto",
    "PEAK": "spitzenlast lastspitze spitze pic pico picos picchi picco piek pieken szczyt "
    "szczycie toppen topp pointe",
    "REASON": "razonamiento raisonnement ragionamento raciocínio raciocinio rozumowania "
    "redenering",
    "AVG": "durchschnitt durchschnittlich moyenne promedio média media gemiddeld gemiddelde "
    "średnio średnia ortalama snittet genomsnitt genomsnittet mittelwert mittel ø moyen medio "
    "médio",
    "CONCURRENT": "gleichzeitig gleichzeitige gleichzeitigen simultanés simultanées "
    "simultáneos simultáneas simultâneos simultâneas concurrentes samtidiga contemporanei "
    "concorrência concorrencia concurrencia concorrenza parallele parallelen "
    "simultanei gelijktijdige jednoczesnych eşzamanlı",
    "USER": "nutzer benutzer utilisateurs usuarios usuários utenti utente gebruikers "
    "użytkowników kullanıcı",
    "TERM": "laufzeit vertragslaufzeit vertrag durée plazo contrato contrat durata looptijd "
    "contract süre",
    "GROWTH": "wachstum croissance crecimiento crescimento crescita groei wzrost büyüme tillväxt",
    "UTIL": "auslastung zielauslastung utilización utilizzo utilização utilizacao utilizacion",
    "BATCH": "batchgröße batchgrösse lote",
    "PER": "pro par por har za na cada chacun chacune jeweils ciascuno ciascuna",
    FILLER: "de la le les des du da et und pour para con com mit avec en sur auf etwa environ unos "
    "cerca el los las y ist das vom der die im schnitt à un une di del della circa ongeveer "
    "van het een en ok około yaklaşık ve ka ki ke hai mein lagbhag ska vara ungefär "
    "は で の を が に と も へ です ます から まで 的 是 在 "
    "doit être inférieur inférieure supérieur supérieure moins "
    "pianificato pianificata previsto prevista planificado planificada planejado planejada "
    "geplant geplante prévu prévue al menos até hasta entro esperada esperado rechnen wir "
    "d'environ d’environ est mind mindestens höchstens em entro",
}
"""German, French and Spanish words for the same terminals: the sales team's customers
write in their own language ("1.500.000 Anfragen pro Tag", "250 en sortie")."""
_FOREIGN_TIME: dict[str, str] = {
    "day": "tag tage jour jours día dia días dias din giorno giorni dag dagen dzień gün dygn "
    "dygnet",
    "month": "monat monate mois mês mes meses månad månader mahina mahine mese mesi maand maanden "
    "miesiąc miesięcy miesiące ay",
    "year": "jahr jahre ans año años ano anos saal anno anni jaar jaren rok lat yıl",
    "hour": "stunde stunden heure heures hora horas timme timmar ora ore uur godzinę godzina "
    "saat saati",
    "week": "woche wochen semaine semaines semana semanas",
    "quarter": "quartal quartale trimestre trimestres",
    "second": "sekunde sekunden seconde secondes segundo segundos sekund sekunder",
    "minute": "minuten minuto minutos minuti minuut minutę minuty dakika",
}
_TIME_WORDS: dict[str, str] = {
    "millisecond": "ms msec millisecond milliseconds",
    "second": "s sec secs second seconds",
    "minute": "min mins minute minutes",
    "hour": "h hr hrs hour hours",
    "day": "d day days",
    "week": "wk wks week weeks",
    "month": "mo mos mon month months",
    "quarter": "quarter quarters qtr",
    "year": "y yr yrs year years",
}

_ADVERBS: dict[str, str] = {
    "secondly": "second",
    "hourly": "hour",
    "all'ora": "hour",  # Italian "richieste all'ora", French "1,95 $ l'heure"
    "all’ora": "hour",
    "all'anno": "year",  # Italian "crescita del 50% all'anno"
    "all’anno": "year",
    "l'heure": "hour",
    "l’heure": "hour",
    "daily": "day",
    "nightly": "day",
    "weekly": "week",
    "monthly": "month",
    "quarterly": "quarter",
    "qoq": "quarter",
    "yoy": "year",
    "mom": "month",
    "yearly": "year",
    "annually": "year",
    "annual": "year",
    "täglich": "day",
    "tägliche": "day",
    "quotidien": "day",
    "quotidienne": "day",
    "quotidiennes": "day",
    "diario": "day",
    "diarios": "day",
    "diarias": "day",
    "monatlich": "month",
    "mensuel": "month",
    "mensuelle": "month",
    "mensual": "month",
    "mensuales": "month",
    "weekdays": "day",  # "Weekdays are ~1.4M requests": each weekday's ("the weekday
    # average" is no time: a peak 2x of it is no peak 2x of the week's)
    "dziennie": "day",
    "miesięcznie": "month",
    "günde": "day",
    "günlük": "day",
    "roz": "day",
    "rozana": "day",
    "dagelijks": "day",
    "giornaliere": "day",
    "mensile": "month",
    "annuo": "year",  # Italian "crescita del 50% annuo", Spanish and Portuguese "anual"
    "annua": "year",
    "anual": "year",
    "annuel": "year",
    "annuelle": "year",
    "jährlich": "year",
}
"""Words that mean "per <unit>" on their own (MoM: month over month)."""

_FACTORS: dict[str, float] = {
    "double": 2.0,
    "doubles": 2.0,
    "doubled": 2.0,
    "twice": 2.0,
    "triple": 3.0,
    "triples": 3.0,
    "tripled": 3.0,
    "doubling": 2.0,
    "tripling": 3.0,
    "doppelte": 2.0,
    "dreifache": 3.0,
    "vierfache": 4.0,
    "doble": 2.0,  # Spanish, Portuguese, Italian: "el pico es el doble del promedio"
    "dobro": 2.0,
    "doppio": 2.0,
    "triplo": 3.0,
    "triplice": 3.0,
    "dobrar": 2.0,  # the verbs: "esperam dobrar em 1 ano", "raddoppiare", "verdoppeln"
    "duplicar": 2.0,
    "raddoppiare": 2.0,
    "verdoppeln": 2.0,
    "doubler": 2.0,
    "triplicar": 3.0,
    "triplicare": 3.0,
    "verdreifachen": 3.0,
    "tripler": 3.0,
    "quadruple": 4.0,
    "half": 0.5,
    "halve": 0.5,
    "halved": 0.5,
}

_RATE_WORDS: dict[str, tuple[str, str]] = {
    "rps": ("REQUESTS", "second"),
    "rsp": ("REQUESTS", "second"),
    "qps": ("REQUESTS", "second"),
    "rpm": ("REQUESTS", "minute"),
    "rph": ("REQUESTS", "hour"),
    "tps": ("TOKENS", "second"),
    "tpm": ("TOKENS", "minute"),
    "tpd": ("TOKENS", "day"),
}
"""Abbreviations that are a unit and its time at once: 500 RPS."""

PHRASES: dict[tuple[str, ...], str] = {
    ("time", "to", "first", "token"): "TTFT",
    ("first", "token", "latency"): "TTFT",
    ("first", "token"): "TTFT",
    ("t", "/", "s"): "RATE_TOKENS",
    ("t", "/", "sec"): "RATE_TOKENS",
    ("of", "them"): "GPUWORD",
    ("of", "em"): "GPUWORD",  # texting: "gb300s, 16 of em"
    ("same", "time"): "CONCURRENT",
    ("o", "-", "tok"): "OUT",
    ("o", "-", "toks"): "OUT",
    ("i", "-", "tok"): "IN",
    ("i", "-", "toks"): "IN",
    ("per", "annum"): "PER_TIME:year",
    ("year", "over", "year"): "PER_TIME:year",
    ("year", "-", "over", "-", "year"): "PER_TIME:year",
    ("year", "-", "on", "-", "year"): "PER_TIME:year",
    ("year", "on", "year"): "PER_TIME:year",
    ("month", "-", "over", "-", "month"): "PER_TIME:month",
    ("quarter", "-", "over", "-", "quarter"): "PER_TIME:quarter",
    ("quarter", "over", "quarter"): "PER_TIME:quarter",
    ("inter", "-", "token", "latency"): "TPOT",
    ("time", "per", "output", "token"): "TPOT",
    ("per", "output", "token"): "TPOT",  # "50 ms per output token is fine"
    ("per", "-", "token", "latency"): "TPOT",  # "per-token latency no worse than 25 ms"
    ("per", "token", "latency"): "TPOT",
    ("per", "token"): "TPOT",
    ("time", "between", "tokens"): "TPOT",
    ("of", "capacity"): "UTIL",
    ("of", "the", "time"): "UTIL",
    ("of", "what", "we", "lease"): "UTIL",
    ("by", "day"): "PER_TIME:day",
    ("a", "night"): "PER_TIME:day",
    ("per", "night"): "PER_TIME:day",
    ("every", "night"): "PER_TIME:day",
    ("each", "night"): "PER_TIME:day",
    ("by", "second"): "PER_TIME:second",
    ("by", "hour"): "PER_TIME:hour",
    ("by", "month"): "PER_TIME:month",
    ("for", "day"): "PER_TIME:day",
    ("in", "a", "day"): "PER_TIME:day",  # "45 lakh requests in a month"
    ("in", "a", "week"): "PER_TIME:week",
    ("in", "a", "month"): "PER_TIME:month",
    ("in", "a", "year"): "PER_TIME:year",
    ("in", "the", "first", "year"): "PER_TIME:year",  # "146 million calls in the first year"
    ("in", "year", "one"): "PER_TIME:year",
    ("al", "día"): "PER_TIME:day",  # Spanish "al mes", German "im Monat", French "au mois"
    ("al", "dia"): "PER_TIME:day",
    ("al", "mes"): "PER_TIME:month",
    ("al", "mese"): "PER_TIME:month",
    ("in", "uscita"): "OUT",  # Italian "token in uscita": output tokens
    ("tid", "till", "första", "token"): "TTFT",  # Swedish
    ("tempo", "até", "o", "primeiro", "token"): "TTFT",
    ("tiempo", "hasta", "el", "primer", "token"): "TTFT",
    ("in", "ingresso"): "IN",
    ("al", "giorno"): "PER_TIME:day",
    ("ao", "trimestre"): "PER_TIME:quarter",  # Portuguese "25% ao trimestre"
    ("al", "trimestre"): "PER_TIME:quarter",
    ("ao", "ano"): "PER_TIME:year",
    ("in", "input"): "IN",  # Italian "700 in input, 250 in output"
    ("in", "output"): "OUT",
    ("in", "entrata"): "IN",
    ("non", "superiore", "a"): FILLER,  # Italian "TPOT non superiore a 40 ms": a ceiling
    ("inferiore", "a"): FILLER,
    ("sotto", "i"): FILLER,  # "un TPOT sotto i 40 ms", French "sous 800 ms": under
    ("sotto",): FILLER,
    ("sous",): FILLER,
    ("al", "secondo"): "PER_TIME:second",  # Italian "richieste al secondo", "al minuto"
    ("al", "minuto"): "PER_TIME:minute",
    ("all'", "ora"): "PER_TIME:hour",
    ("per", "dag"): "PER_TIME:day",
    ("na", "dzień"): "PER_TIME:day",
    ("al", "año"): "PER_TIME:year",
    ("ao", "mês"): "PER_TIME:month",
    ("ao", "dia"): "PER_TIME:day",
    ("im", "monat"): "PER_TIME:month",
    ("im", "jahr"): "PER_TIME:year",
    ("au", "mois"): "PER_TIME:month",
    ("par", "an"): "PER_TIME:year",  # French "50 % par an": "an" alone is English's article
    ("for", "hour"): "PER_TIME:hour",
    ("for", "week"): "PER_TIME:week",
    ("for", "month"): "PER_TIME:month",
    ("not", "more", "than"): FILLER,
    ("no", "more", "than"): FILLER,
    ("no", "worse", "than"): FILLER,  # "TPOT no worse than 25 ms": a ceiling, as "under"
    ("not", "worse", "than"): FILLER,
    ("no", "slower", "than"): FILLER,
    ("no", "longer", "than"): FILLER,
    ("no", "higher", "than"): FILLER,
    ("not", "over"): FILLER,
    ("not", "exceed"): FILLER,
    ("latenza", "primo", "token"): "TTFT",  # the first token's wait, in Italian, French,
    ("primo", "token"): "TTFT",  # German, Spanish, Portuguese and Dutch
    ("premier", "token"): "TTFT",
    ("erstes", "token"): "TTFT",
    ("ersten", "token"): "TTFT",
    ("primer", "token"): "TTFT",
    ("primeiro", "token"): "TTFT",
    ("eerste", "token"): "TTFT",
    ("tempo", "per", "token", "in", "uscita"): "TPOT",  # the time between output tokens
    ("tempo", "per", "token"): "TPOT",
    ("temps", "par", "token"): "TPOT",
    ("tiempo", "por", "token"): "TPOT",
    ("tempo", "por", "token"): "TPOT",
    ("zeit", "pro", "token"): "TPOT",  # "utilization shall not exceed 70%": a ceiling, read as such
    ("not", "to", "exceed"): FILLER,
    ("on", "a", "normal", "day"): "PER_TIME:day",  # "250k requests on a typical day"
    ("on", "a", "typical", "day"): "PER_TIME:day",
    ("on", "an", "average", "day"): "PER_TIME:day",
    ("on", "a", "regular", "day"): "PER_TIME:day",
    ("on", "a", "usual", "day"): "PER_TIME:day",
    ("in", "a", "typical", "day"): "PER_TIME:day",
    ("in", "a", "normal", "day"): "PER_TIME:day",
    ("for", "million"): "PER_MILLION",
    ("for", "a", "million"): "PER_MILLION",
    ("for", "1m"): "PER_MILLION",
    ("in", "one"): "PER",
    ("in", "the"): FILLER,  # "25 in the sheet": a place, not an input length
    ("in", "our"): FILLER,
    ("in", "their"): FILLER,
    ("in", "my"): FILLER,
    ("in", "this"): FILLER,
    ("in", "total"): FILLER,  # "so 64 in total": no input length
    ("in", "all"): FILLER,
    ("in", "each"): "PER",
    ("for", "each"): "PER",
    ("for", "one"): "PER",
    ("peak", "hours"): "PEAK",
    ("during", "peak"): "PEAK",  # "during" alone stays a break: "rps during our 12h window"
    ("during", "the", "peak"): "PEAK",
    ("during", "an", "average"): "AVG",
    ("during", "the", "average"): "AVG",
    ("during", "a", "typical"): "AVG",
    ("peak", "hour"): "PEAK",
    ("busy", "hour"): "PEAK",  # "busy hour is ~90k requests": telephony's word for it
    ("rush", "hour"): "PEAK",
    ("evening", "rush"): "PEAK",  # "evening rush hits 12k req/min"; "no rush" stays no peak
    ("morning", "rush"): "PEAK",
    ("lunch", "rush"): "PEAK",
    ("lunchtime", "rush"): "PEAK",
    ("holiday", "rush"): "PEAK",
    ("peak", "loads"): "PEAK",
    ("peak", "load"): "PEAK",
    ("sustained", "load"): "AVG",  # "peak loads of 2.5 times the sustained load"
    ("worst", "hour"): "PEAK",
    ("worst", "minute"): "PEAK",
    ("worst", "day"): "PEAK",
    ("p99", "minute"): "PEAK",  # "the p99 minute is 310 req/s": a rate at its peak minute
    ("p95", "minute"): "PEAK",
    ("p", ":", "a"): "P2A",
    ("peak", "time"): "PEAK",
    ("peak", "factor"): "P2A",
    ("peak", "ratio"): "P2A",
    ("pic", "/", "moyenne"): "P2A",  # "le ratio pic/moyenne est d'environ 3"
    ("pico", "/", "media"): "P2A",
    ("pico", "/", "média"): "P2A",
    ("picco", "/", "media"): "P2A",
    ("spitze", "/", "durchschnitt"): "P2A",
    ("peak", "multiplier"): "P2A",
    ("daily", "total"): "AVG",
    ("whole", "day"): "AVG",  # "the whole day comes to about 480k": the day's volume
    ("full", "day"): "AVG",
    ("entire", "day"): "AVG",
    ("comes", "to"): FILLER,
    ("adds", "up", "to"): FILLER,
    ("steady", "state"): "AVG",
    ("steady", "-", "state"): "AVG",
    ("daily", "volume"): "AVG",
    ("in", "parallel"): "CONCURRENT",
    ("in", "contemporary"): "CONCURRENT",
    ("a", "single"): "ONE",
    ("single",): "ONE",
    ("max", "_", "num", "_", "seqs"): "BATCH",  # vLLM's flags: the batch and the context
    ("max", "-", "num", "-", "seqs"): "BATCH",
    ("max", "_", "model", "_", "len"): "CONTEXT",
    ("max", "-", "model", "-", "len"): "CONTEXT",
    ("tensor", "-", "parallel", "-", "size"): BREAK,  # a layout, no concurrency
    ("tensor", "_", "parallel", "_", "size"): BREAK,
    ("pipeline", "-", "parallel", "-", "size"): BREAK,
    ("context", "window"): "CONTEXT",
    ("context", "length"): "CONTEXT",
    ("context", "size"): "CONTEXT",
    ("context", "lengths"): "CONTEXT",
    ("contract", "length"): "TERM",  # "Contract length (months): 24"
    ("contract", "length", "(", "months", ")"): "TERM",
    ("term", "length"): "TERM",
    ("lease", "length"): "TERM",
    ("contract", "duration"): "TERM",
    ("term", "(", "months", ")"): "TERM",
    ("peak", "to", "average"): "P2A",
    ("spitze", "zu", "durchschnitt"): "P2A",
    ("spitze", "zu", "mittelwert"): "P2A",  # "Verhältnis Spitze zu Mittelwert 2,5"
    ("spitze", "/", "mittel"): "P2A",
    ("spitze", "/", "mittelwert"): "P2A",
    ("pico", "a", "promedio"): "P2A",
    ("peak", "to", "avg"): "P2A",
    ("peak", "to", "mean"): "P2A",
    ("peak", "/", "average"): "P2A",
    ("peak", "/", "avg"): "P2A",
    ("peak", ":", "avg"): "P2A",
    ("peak", ":", "average"): "P2A",
    ("peak", "-", "to", "-", "average"): "P2A",
    ("peak", "-", "to", "-", "avg"): "P2A",
    ("peak", "-", "to", "-", "mean"): "P2A",
    ("peak", "/", "mean"): "P2A",
    ("batch", "size"): "BATCH",
    ("visible", "output"): "OUT",
    ("at", "once"): "CONCURRENT",
    ("in", "flight"): "CONCURRENT",
    ("on", "demand"): "ONDEMAND",
    ("on", "-", "demand"): "ONDEMAND",
    ("ondemand",): "ONDEMAND",
    ("month", "over", "month"): "MOM",
    ("start", "over"): "RESET",
    ("from", "scratch"): "RESET",
    ("new", "question"): "RESET",
    ("go", "back"): "UNDO",
    ("gets", "back"): "OUT",  # "sends about 800 tokens and gets back ~150": what it returns
    ("get", "back"): "OUT",
    ("never", "mind"): "UNDO",
    ("take", "that", "back"): "UNDO",
    ("i", "mean"): FILLER,  # "sorry, I mean 25 rps at peak": a correction, not an average
    ("what", "about"): FILLER,
    ("how", "about"): FILLER,
    ("turn", "off"): "NOT",
    ("no", "more"): "NOT",
    ("per", "cent"): "PCTWORD",
}
"""Multi-word keywords, matched on lower-cased words before single words."""

TYPO_MIN_LENGTH = 5
TYPO_MAX_LENGTH = 14


@dataclass(frozen=True)
class Lexicon:
    """Words -> terminals, and catalog names -> (table, id), for one catalog."""

    words: dict[str, tuple[str, str | float | None]]
    names: dict[str, tuple[str, str]]
    name_prefixes: frozenset[str]
    phrase_prefixes: frozenset[tuple[str, ...]]
    typos: dict[str, str] = field(default_factory=dict)
    spelling: Spelling | None = None
    ids_by_name: dict[str, str] = field(default_factory=dict)
    """GPU and model ids and aliases, lower-cased -> id (what "did you mean" offers)."""
    name_words: frozenset[str] = frozenset()
    """Every word of those names and of the catalog keys: never an unknown name."""
    _near: dict[str, tuple[str, str | float | None] | None] = field(default_factory=dict)

    def word(self, lower: str) -> tuple[str, str | float | None] | None:
        hit = self.words.get(lower)
        if hit is not None or not TYPO_MIN_LENGTH <= len(lower) <= TYPO_MAX_LENGTH:
            return hit
        if lower in EVERYDAY:
            return None
        if lower in self._near:
            return self._near[lower]
        if len(self._near) > 50_000:
            self._near.clear()
        near = None
        for candidate in _deletions(lower, keep_self=True):
            word = self.typos.get(candidate)
            if (
                word is not None
                and len(word) >= TYPO_MIN_LENGTH  # "until" is not "util"
                and OSA.distance(lower, word) <= 1  # "through" is two edits from "thought"
            ):
                near = self.words[word]
                break
        self._near[lower] = near
        return near


def _deletions(word: str, *, keep_self: bool) -> list[str]:
    out = [word[:i] + word[i + 1 :] for i in range(len(word))]
    return [word, *out] if keep_self else out


def _word_table() -> dict[str, tuple[str, str | float | None]]:
    table: dict[str, tuple[str, str | float | None]] = {}
    for terminal, (_, spelled) in _GROUPS.items():
        for w in spelled.split():
            table.setdefault(w, (terminal, None))
    for unit, spelled in _TIME_WORDS.items():
        for w in spelled.split():
            table[w] = ("TIME", unit)
    for terminal, spelled in _FOREIGN.items():
        for w in spelled.split():
            table.setdefault(w, (terminal, None))
    for unit, spelled in _FOREIGN_TIME.items():
        for w in spelled.split():
            table.setdefault(w, ("TIME", unit))
    for w, unit in _ADVERBS.items():
        table[w] = ("PER_TIME", unit)
    for w, factor in _FACTORS.items():
        table[w] = ("FACTOR", factor)
    for w, (terminal, unit) in _RATE_WORDS.items():
        table[w] = (f"RATE_{terminal}", unit)
    return table


EVERYDAY = frozenset(
    {"things", "thing", "answered", "requested"}
    | {"whats", "thats", "hows", "heres", "theres", "wheres", "whens"}  # "whats" is no "chats"
    | {"decided", "decides", "decide", "divided", "derived", "reasons", "reasoned"}
)
"""Everyday words one edit from a keyword ("things" from "thinks"): never a typo."""


def _typo_table(words: dict[str, tuple[str, str | float | None]]) -> dict[str, str]:
    """Single deletions of every long keyword -> the keyword (first one wins)."""
    typos: dict[str, str] = {}
    for w, (terminal, _) in words.items():
        if len(w) < TYPO_MIN_LENGTH or terminal in (FILLER, "TIME", "PER_TIME", "FXWORD"):
            # a currency is a word of its own: German "Preis" is no misspelt "reais"
            continue
        for d in _deletions(w, keep_self=False):
            if d not in words and not (w.endswith("s") and d == w[:-1]):  # "review": a label
                typos.setdefault(d, w)
    for w in words:
        typos[w] = w
    return typos


_CACHE: dict[int, tuple[Catalog, Lexicon]] = {}


def lexicon_for(catalog: Catalog) -> Lexicon:
    """The catalog's lexicon, built on first use and kept while the catalog lives."""
    hit = _CACHE.get(id(catalog))
    if hit is not None and hit[0] is catalog:
        return hit[1]
    if len(_CACHE) > 8:
        _CACHE.clear()
    lexicon = _build(catalog)
    _CACHE[id(catalog)] = (catalog, lexicon)
    return lexicon


_VENDORS = ("nvidia", "amdinstinct", "amd")
"""A GPU's maker said before any of its names: the name is the GPU's still."""


def _build(catalog: Catalog) -> Lexicon:
    names: dict[str, tuple[str, str]] = {}
    tables = (
        ("MODEL", catalog.models),
        ("GPU", catalog.gpus),
        ("PRECISION", catalog.precisions),
        ("STACK", catalog.stacks),
    )
    for terminal, table in tables:
        for entry in table:
            for name in (entry.id, entry.name, *entry.aliases):
                key = normalize(name)
                if key:
                    names.setdefault(key, (terminal, entry.id))
    for gpu in catalog.gpus:  # "two NVIDIA GB200 NVL72 racks", "AMD Instinct MI355X"
        for name in (gpu.id, gpu.name, *gpu.aliases):
            key = normalize(name)
            for vendor in _VENDORS if key and not key.startswith(_VENDORS) else ():
                names.setdefault(vendor + key, ("GPU", gpu.id))
    spelled = spelling(catalog, names)
    for key, (terminal, rid, _) in spelled.derived.items():
        names.setdefault(key, (terminal, rid))
    prefixes = frozenset(k[:i] for k in names for i in range(1, len(k) + 1))
    phrase_prefixes = frozenset(p[:i] for p in PHRASES for i in range(1, len(p) + 1))
    words = _word_table()
    ids_by_name: dict[str, str] = {}
    for table in (catalog.gpus, catalog.models):
        for entry in table:
            for name in (entry.id, *entry.aliases):
                ids_by_name.setdefault(name.lower(), entry.id)
    name_words = frozenset(
        w for n in (*ids_by_name, *names) for w in re.split(r"[\s/]+", n.lower())
    )
    return Lexicon(
        words=words,
        names=names,
        name_prefixes=prefixes,
        phrase_prefixes=phrase_prefixes,
        typos=_typo_table(words),
        spelling=spelled,
        ids_by_name=ids_by_name,
        name_words=name_words,
    )
