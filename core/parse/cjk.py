"""Chinese and Japanese messages, read with the same grammar as the rest.

Customers in Tokyo and Shanghai write "1日あたり約5万件のリクエスト" and "我们每天大约
300万次请求": no spaces between words, a figure glued to its script, and a few words
that carry every fact (per day, requests, input, output, tokens, seconds, model). Each
of those words is written out in English, with spaces around it; a figure stays glued
to its 万 or 億 (the numbers reader takes those as scales); what is left of the script
is spaced apart from Latin letters and digits, so a GPU or model name written against it
("B300希望", "モデルはQwen3") is its own word. The particles between words (は, で, の…)
are fillers to the lexicon, and any other word of the script is an unknown word there:
a break facts never span, never a wrong value.
"""

from __future__ import annotations

import re

_SCRIPT = r"\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af"
_ANY = re.compile(f"[{_SCRIPT}]")
_WORDS: dict[str, str] = {
    "1日あたり": "per day",
    "一日あたり": "per day",
    "1日": "a day",
    "每天": "per day",
    "每日": "per day",
    "毎日": "per day",
    "日あたり": "per day",
    "月間": "a month",
    "毎月": "per month",
    "每月": "per month",
    "毎時": "per hour",
    "每小时": "per hour",
    "1時間あたり": "per hour",
    "毎秒": "per second",
    "每秒": "per second",
    "リクエスト": "requests",
    "次请求": "requests",
    "请求": "requests",
    "件の": "",
    "件": "",
    "1GPU時間あたり": "per GPU-hour",
    "GPU時間あたり": "per GPU-hour",
    "每卡每小时": "per GPU-hour",
    "每卡时": "per GPU-hour",
    "GPU당 시간당": "per GPU-hour",
    "시간당": "per hour",
    "ドル": "dollars",
    "利用率": "utilization",
    "稼働率": "utilization",
    "使用率": "utilization",
    "이용률": "utilization",
    "사용률": "utilization",
    "가동률": "utilization",
    "美元": "dollars",
    "달러": "dollars",
    "服务器": "servers",
    "サーバー": "servers",
    "ノード": "nodes",
    "节点": "nodes",
    "入力": "input",
    "输入": "input",
    "出力": "output",
    "输出": "output",
    "トークン": "tokens",
    "ミリ秒": "ms",
    "毫秒": "ms",
    "秒": "seconds",
    "以内": "under",
    "以下": "under",
    "モデル": "model",
    "模型": "model",
    "約": "about",
    "くらい": "about",
    "ぐらい": "about",
    "程度": "about",
    "左右": "about",
    "约": "about",
    "大约": "about",
    "ピーク": "peak",
    "峰值": "peak",
    "平均": "average",
    "倍率": "ratio",  # "ピーク倍率": the peak's ratio
    "思考": "reasoning",  # "思考 tokens 每次约 3k": thinking tokens a request
    "推理": "reasoning",
    "个": " ",  # a counter between a figure and its noun: "120 个请求"
    "倍": "x",
    "同時": "concurrent",
    "并发": "concurrent",
    "ヶ月": "months",
    "か月": "months",
    "个月": "months",
    "日均": "a day",
    "大概是": "about",
    "大概": "about",
    "大约是": "about",
    "硬件": "hardware",
    "高峰": "peak",
    "平均值": "average",
    "合同期": "term",
    "合同": "term",
    "年": " years",
    "동시 사용자": "concurrent",
    "동시 요청": "concurrent",
    "동시": "concurrent",
    "개월": "months",
    "약정": "term",
    "개": " ",
    "요청": "requests",
    "일일": "per day",
    "하루": "per day",
    "출력": "output",
    "입력": "input",
    "토큰": "tokens",
}
_TIMES_AVERAGE = re.compile(r"平均值?\s*[のの的]?\s*(?:約|约)?\s*(\d+(?:\.\d+)?)\s*倍")
""""平均の2倍", "平均的3倍": the average's N times, said the English way round."""
_SHARE_OF_PEAK = re.compile(
    r"(?:峰值|高峰|ピーク)\s*(?:的|の)\s*(?:約|约)?\s*(\d+(?:\.\d+)?)\s*[%％]"
)
""""峰值的 40%", "ピークの40%": a share of the peak, said the English way round."""
_WORD = re.compile("|".join(sorted(map(re.escape, _WORDS), key=len, reverse=True)))
_EDGE = re.compile(f"(?<=[{_SCRIPT}])(?=[A-Za-z0-9])|(?<=[A-Za-z0-9])(?=[{_SCRIPT}])")
_SCALED = re.compile(r"(?<=\d) (?=[万億亿千만억])")


_DIGITS = {"零": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8}
_DIGITS["九"] = 9
_UNITS = {"十": 10, "百": 100, "千": 1000}
_SCALES = {"万": 10_000, "亿": 100_000_000, "億": 100_000_000}
_NUMERAL = re.compile(
    "(?<![\\d.])[零一二两三四五六七八九十百千]+[万亿億]?(?:[零一二两三四五六七八九十百千]+)?(?=[倍年个月天次件秒万亿億名]|\\s*token)"
    "|[零一二两三四五六七八九十百千]{2,}[万亿億]?"
)
"""A figure in Chinese numerals before a counter, scale or unit ("五千万 token", "两倍",
"两年"), or of two characters or more; never a scale after digits ("6千" is 6 thousand)."""
_AND_A_HALF = re.compile(r"(\d+|[一二两三四五六七八九十]+)\s*(年|个月|か月|ヶ月)半")
""""一年半", "2年半": a year and a half, two and a half years."""
_HALF_YEAR = re.compile(r"(?<![\d一二两三四五六七八九十])半年")
""""半年": half a year, six months."""
_TIMES_UNIT = re.compile(r"(\d+(?:\.\d+)?)\s*([十百千])([万亿億]?)")
"""Digits before a unit numeral, "6千": six thousand; "3千万": thirty million."""
_COUNTED = re.compile(r"(\d+)\s*[대장]")
"""Korean "H100 4대", "H200 16장": four of them, sixteen cards."""
_ITEMS = re.compile(r"(?<=\d)\s*件(?!の)")
""""毎秒15件": fifteen items a second, which in a sizing are requests."""
_CARDS_EACH = re.compile(r"(?:每台|1台あたり|各)\s*(\d+)\s*(?:卡|枚|GPU)")
""""每台 8 卡": eight cards a server."""
_NODES_COUNTED = re.compile(r"(ノード|サーバー|服务器|节点)\s*(\d+)\s*台")
""""ノード3台": three nodes, the counter after the noun."""


def _numeral(said: str) -> str:
    """ "五千万" -> "50000000", "两" -> "2", "十二" -> "12"."""
    total = section = digit = 0
    for ch in said:
        if ch in _DIGITS:
            digit = _DIGITS[ch]
        elif ch in _UNITS:
            section += (digit or 1) * _UNITS[ch]
            digit = 0
        elif ch in _SCALES:
            total += (section + digit) * _SCALES[ch]
            section = digit = 0
    return str(total + section + digit)


def spelled_out(text: str) -> str:
    """``text`` with its Chinese and Japanese fact words in English and its script spaced
    apart from Latin words and figures (unchanged when it has none: most messages)."""
    if _ANY.search(text) is None:
        return text
    text = text.replace("、", ", ").replace("。", ". ").replace("，", ", ")
    text = _COUNTED.sub(r"x\1 ", text)
    text = _ITEMS.sub(" requests ", text)
    text = _CARDS_EACH.sub(r" (\1 GPUs per node) ", text)
    text = _NODES_COUNTED.sub(r" \2 \1 ", text).replace("台", " ")
    if "半" in text:
        text = _AND_A_HALF.sub(
            lambda m: f"{float(m[1] if m[1].isdigit() else _numeral(m[1])) + 0.5:g}{m[2]}", text
        )
        text = _HALF_YEAR.sub("6个月", text)
    text = _TIMES_UNIT.sub(
        lambda m: f"{float(m[1]) * _UNITS[m[2]] * _SCALES.get(m[3], 1):.0f}", text
    )
    text = _NUMERAL.sub(lambda m: _numeral(m.group()), text)
    text = _TIMES_AVERAGE.sub(r" \1x the average ", text)
    text = _SHARE_OF_PEAK.sub(r" \1% of the peak ", text)
    text = _WORD.sub(lambda m: f" {_WORDS[m.group()]} ", text)
    text = _EDGE.sub(" ", text)
    return _SCALED.sub("", text)  # "300 万": back to "300万", a figure and its scale
