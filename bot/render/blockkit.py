"""Slack's Block Kit limits, checked before Slack refuses a reply, and fitted where possible.

Slack answers ``invalid_blocks`` for a whole message when one field is one
character too long, and the user sees nothing. Every limit that leasewise's
templates can reach is a named constant here, from Slack's reference:

- blocks: https://api.slack.com/reference/block-kit/blocks
- elements: https://api.slack.com/reference/block-kit/block-elements
- composition objects (text, option): https://api.slack.com/reference/block-kit/composition-objects
- views (modal, App Home): https://api.slack.com/reference/surfaces/views
- message text: https://api.slack.com/methods/chat.postMessage

Lengths are counted in Python characters (code points).

``fit`` repairs what can be repaired without losing content (long sections split at
line boundaries, too many blocks moved to thread replies); ``violations`` reports
everything else, so a template that overflows a header or a modal fails its test.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any, Literal

Surface = Literal["message", "modal", "home"]
Block = dict[str, Any]

MAX_MESSAGE_BLOCKS = 50
MAX_VIEW_BLOCKS = 100
"""Blocks in one modal or App Home view."""
MAX_BLOCKS: dict[str, int] = {
    "message": MAX_MESSAGE_BLOCKS,
    "modal": MAX_VIEW_BLOCKS,
    "home": MAX_VIEW_BLOCKS,
}
MAX_SECTION_TEXT = 3000
MAX_SECTION_FIELDS = 10
MAX_FIELD_TEXT = 2000
MAX_HEADER_TEXT = 150
MAX_CONTEXT_ELEMENTS = 10
MAX_CONTEXT_TEXT = 3000
"""A text object's own limit; Slack names none lower for a context element."""
MAX_ACTIONS_ELEMENTS = 25
MAX_BUTTON_TEXT = 75
MAX_BUTTON_VALUE = 2000
MAX_URL = 3000
MAX_ID = 255
"""``action_id``, ``block_id``, ``callback_id`` and ``external_id``."""
MAX_MESSAGE_TEXT = 40_000
"""chat.postMessage truncates ``text`` beyond this."""
MAX_FALLBACK_TEXT = 3_000
"""Our own cap on a message's ``text`` (Slack allows 40,000): with blocks present the text
is only the notification and the screen-reader fallback, which nobody reads past a
screen; keeping it to a section's length also keeps a text-only console reply short."""
MAX_VIEW_TITLE = 24
MAX_VIEW_BUTTON = 24
"""A modal's ``submit`` and ``close`` texts."""
MAX_PRIVATE_METADATA = 3000
MAX_INPUT_LABEL = 2000
MAX_INPUT_HINT = 2000
MAX_PLACEHOLDER = 150
MAX_OPTION_TEXT = 75
MAX_OPTION_VALUE = 150
MAX_OPTIONS = 100
MAX_INPUT_LENGTH = 3000
"""A plain_text_input's ``max_length``."""
MAX_ALT_TEXT = 2000

THREAD_BREAK = "thread_break"
"""leasewise's own block type, never sent to Slack: a template ends the first message with
``{"type": "thread_break"}`` and everything after it goes to replies in the thread (the
full list of rejected sizes, say)."""

CONTINUED: Block = {
    "type": "context",
    "elements": [{"type": "mrkdwn", "text": "continued in the thread…"}],
}

KNOWN_BLOCKS = frozenset(
    {"section", "header", "context", "actions", "divider", "input", "image", "rich_text", "file"}
)


# --- violations ----------------------------------------------------------------------


def violations(blocks: list[Block], *, surface: Surface = "message") -> list[str]:
    """Every limit the blocks break on that surface; an empty list means Slack accepts them."""
    out: list[str] = []
    limit = MAX_BLOCKS[surface]
    if len(blocks) > limit:
        out.append(f"{len(blocks)} blocks: over the {limit} a {surface} allows")
    seen: set[str] = set()
    for i, block in enumerate(blocks):
        out.extend(_block(f"block {i} ({block.get('type')})", block, seen))
    return out


def view_violations(view: dict[str, Any]) -> list[str]:
    """A modal's or App Home's own fields, then its blocks."""
    kind = view.get("type")
    if kind not in ("modal", "home"):
        return [f"view type {kind!r}: must be 'modal' or 'home'"]
    out: list[str] = []
    if kind == "modal":
        out += _text("view title", view.get("title"), MAX_VIEW_TITLE, plain=True)
        for key in ("submit", "close"):
            if key in view:
                out += _text(f"view {key}", view[key], MAX_VIEW_BUTTON, plain=True)
        has_input = any(b.get("type") == "input" for b in view.get("blocks", []))
        if has_input and "submit" not in view:
            out.append("view: a modal with input blocks needs a submit button")
    for key in ("callback_id", "external_id"):
        out += _length(f"view {key}", view.get(key), MAX_ID)
    out += _length("view private_metadata", view.get("private_metadata"), MAX_PRIVATE_METADATA)
    blocks = view.get("blocks")
    if not isinstance(blocks, list):
        return [*out, "view blocks: missing or not a list"]
    return out + violations(blocks, surface=kind)


def _block(where: str, block: Block, seen: set[str]) -> list[str]:
    kind = block.get("type")
    out = _length(f"{where} block_id", block.get("block_id"), MAX_ID)
    block_id = block.get("block_id")
    if block_id is not None:
        if block_id in seen:
            out.append(f"{where} block_id {block_id!r}: used twice")
        seen.add(block_id)
    if kind not in KNOWN_BLOCKS:
        return [*out, f"{where}: unknown block type {kind!r}"]
    if kind == "section":
        out += _section(where, block)
    elif kind == "header":
        out += _text(f"{where} text", block.get("text"), MAX_HEADER_TEXT, plain=True)
    elif kind == "context":
        out += _context(where, block)
    elif kind == "actions":
        out += _elements(where, block.get("elements"), MAX_ACTIONS_ELEMENTS)
    elif kind == "input":
        out += _text(f"{where} label", block.get("label"), MAX_INPUT_LABEL, plain=True)
        if "hint" in block:
            out += _text(f"{where} hint", block["hint"], MAX_INPUT_HINT, plain=True)
        out += _element(f"{where} element", block.get("element"))
    elif kind == "image":
        out += _length(f"{where} alt_text", block.get("alt_text"), MAX_ALT_TEXT, required=True)
    return out


def _section(where: str, block: Block) -> list[str]:
    out: list[str] = []
    if "text" not in block and "fields" not in block:
        out.append(f"{where}: needs text or fields")
    if "text" in block:
        out += _text(f"{where} text", block["text"], MAX_SECTION_TEXT)
    if "fields" in block:
        fields = block["fields"]
        if not isinstance(fields, list) or not fields:
            return [*out, f"{where} fields: must be a non-empty list"]
        if len(fields) > MAX_SECTION_FIELDS:
            out.append(f"{where} fields: {len(fields)}, over the limit of {MAX_SECTION_FIELDS}")
        for j, item in enumerate(fields):
            out += _text(f"{where} field {j}", item, MAX_FIELD_TEXT)
    if "accessory" in block:
        out += _element(f"{where} accessory", block["accessory"])
    return out


def _context(where: str, block: Block) -> list[str]:
    elements = block.get("elements")
    if not isinstance(elements, list) or not elements:
        return [f"{where} elements: must be a non-empty list"]
    out: list[str] = []
    if len(elements) > MAX_CONTEXT_ELEMENTS:
        out.append(f"{where} elements: {len(elements)}, over the limit of {MAX_CONTEXT_ELEMENTS}")
    for j, item in enumerate(elements):
        if isinstance(item, dict) and item.get("type") == "image":
            out += _length(f"{where} element {j} alt_text", item.get("alt_text"), MAX_ALT_TEXT)
        else:
            out += _text(f"{where} element {j}", item, MAX_CONTEXT_TEXT)
    return out


def _elements(where: str, elements: object, limit: int) -> list[str]:
    if not isinstance(elements, list) or not elements:
        return [f"{where} elements: must be a non-empty list"]
    out: list[str] = []
    if len(elements) > limit:
        out.append(f"{where} elements: {len(elements)}, over the limit of {limit}")
    ids = [e.get("action_id") for e in elements if isinstance(e, dict) and e.get("action_id")]
    if len(ids) != len(set(ids)):
        out.append(f"{where}: an action_id is used twice")
    for j, element in enumerate(elements):
        out += _element(f"{where} element {j}", element)
    return out


def _element(where: str, element: object) -> list[str]:
    if not isinstance(element, dict):
        return [f"{where}: missing or not an object"]
    kind = element.get("type")
    where = f"{where} ({kind})"
    out = _length(f"{where} action_id", element.get("action_id"), MAX_ID)
    if "placeholder" in element:
        out += _text(f"{where} placeholder", element["placeholder"], MAX_PLACEHOLDER, plain=True)
    if kind == "button":
        out += _text(f"{where} text", element.get("text"), MAX_BUTTON_TEXT, plain=True)
        out += _length(f"{where} value", element.get("value"), MAX_BUTTON_VALUE)
        out += _length(f"{where} url", element.get("url"), MAX_URL)
        if element.get("style") not in (None, "primary", "danger"):
            out.append(f"{where} style {element.get('style')!r}: must be primary or danger")
    elif kind == "static_select":
        out += _options(where, element)
    elif kind == "plain_text_input":
        most = element.get("max_length", MAX_INPUT_LENGTH)
        if not isinstance(most, int) or not 0 < most <= MAX_INPUT_LENGTH:
            out.append(f"{where} max_length {most!r}: must be 1 to {MAX_INPUT_LENGTH}")
        else:
            out += _length(f"{where} initial_value", element.get("initial_value"), most)
    elif kind == "number_input":
        out += _number_input(where, element)
    return out


def _options(where: str, element: Block) -> list[str]:
    options = element.get("options")
    if not isinstance(options, list) or not options:
        return [f"{where} options: must be a non-empty list"]
    out: list[str] = []
    if len(options) > MAX_OPTIONS:
        out.append(f"{where} options: {len(options)}, over the limit of {MAX_OPTIONS}")
    for j, option in enumerate(options):
        out += _text(f"{where} option {j} text", option.get("text"), MAX_OPTION_TEXT, plain=True)
        out += _length(
            f"{where} option {j} value", option.get("value"), MAX_OPTION_VALUE, required=True
        )
    initial = element.get("initial_option")
    if initial is not None and initial not in options:
        out.append(f"{where} initial_option: not one of the options")
    return out


def _number_input(where: str, element: Block) -> list[str]:
    if not isinstance(element.get("is_decimal_allowed"), bool):
        return [f"{where} is_decimal_allowed: required, true or false"]
    out: list[str] = []
    for key in ("initial_value", "min_value", "max_value"):
        value = element.get(key)
        if value is None:
            continue
        try:
            number = float(value) if isinstance(value, str) else None
        except ValueError:
            number = None
        if number is None or (not element["is_decimal_allowed"] and not number.is_integer()):
            out.append(f"{where} {key} {value!r}: must be a number in a string")
    return out


def _text(where: str, obj: object, limit: int, *, plain: bool = False) -> list[str]:
    if not isinstance(obj, dict) or not isinstance(obj.get("text"), str):
        return [f"{where}: missing text object"]
    kinds = ("plain_text",) if plain else ("plain_text", "mrkdwn")
    out = [] if obj.get("type") in kinds else [f"{where}: type must be {' or '.join(kinds)}"]
    return out + _length(where, obj["text"], limit, required=True)


def _length(where: str, value: object, limit: int, *, required: bool = False) -> list[str]:
    if value is None:
        return [f"{where}: missing"] if required else []
    if not isinstance(value, str):
        return [f"{where}: must be a string"]
    if required and not value.strip():
        return [f"{where}: empty"]
    if len(value) > limit:
        return [f"{where}: {len(value):,} chars, over the limit of {limit:,}"]
    return []


# --- fit -----------------------------------------------------------------------------


def fit(
    blocks: list[Block], *, surface: Surface = "message"
) -> tuple[list[Block], list[list[Block]]]:
    """The first message's blocks, and the thread replies' blocks, each within the limits.

    Sections too long for one block are split at line boundaries (their fields ten at a
    time); past the block limit, the first message keeps one block fewer plus a
    "continued in the thread…" note. A ``thread_break`` block sends the rest to the
    thread whatever the length. Text is moved, never rewritten, and never dropped (but for
    a newline that fits in no chunk: see ``split_text``).
    """
    limit = MAX_BLOCKS[surface]
    main, thread = _at_thread_break(blocks)
    main = [piece for block in main for piece in _split_block(block)]
    thread = [piece for block in thread for piece in _split_block(block)]
    if len(main) > limit:
        main, thread = [*main[: limit - 1], copy.deepcopy(CONTINUED)], main[limit - 1 :] + thread
    return main, [thread[i : i + limit] for i in range(0, len(thread), limit)]


def _at_thread_break(blocks: list[Block]) -> tuple[list[Block], list[Block]]:
    for i, block in enumerate(blocks):
        if block.get("type") == THREAD_BREAK:
            rest = [b for b in blocks[i + 1 :] if b.get("type") != THREAD_BREAK]
            return blocks[:i], rest
    return list(blocks), []


def _split_block(block: Block) -> list[Block]:
    if block.get("type") != "section":
        return [block]
    text = block.get("text")
    fields = block.get("fields") or []
    fits = (text is None or len(text.get("text", "")) <= MAX_SECTION_TEXT) and (
        len(fields) <= MAX_SECTION_FIELDS and all(len(f["text"]) <= MAX_FIELD_TEXT for f in fields)
    )
    if fits:
        return [block]
    pieces = _pieces(text, fields)
    head = {k: v for k, v in block.items() if k not in ("text", "fields")}
    out = [{**head, **pieces[0]}]
    out += [{"type": "section", **piece} for piece in pieces[1:]]
    return out


def _pieces(text: Block | None, fields: list[Block]) -> list[Block]:
    """Section bodies in order: the text in chunks, then the fields ten at a time (the first
    ten under the text's last chunk, as they were); a field too long for a field becomes
    section text of its own."""
    heads = [] if text is None else split_text(text["text"], MAX_SECTION_TEXT)
    out: list[Block] = [{"text": {**(text or {}), "text": chunk}} for chunk in heads]
    group: list[Block] = []

    def flush() -> None:
        if group:
            if out and "fields" not in out[-1] and len(out) == len(heads):
                out[-1] = {**out[-1], "fields": list(group)}
            else:
                out.append({"fields": list(group)})
            group.clear()

    for item in fields:
        if len(item["text"]) > MAX_FIELD_TEXT:
            flush()
            out += [
                {"text": {**item, "text": c}} for c in split_text(item["text"], MAX_SECTION_TEXT)
            ]
            continue
        group.append(item)
        if len(group) == MAX_SECTION_FIELDS:
            flush()
    flush()
    return out


def split_text(text: str, limit: int) -> list[str]:
    """Chunks of at most ``limit`` characters whose concatenation is ``text``.

    Cuts fall at line ends; a line longer than ``limit`` is cut at a space, else at
    the limit but never inside an entity (``&amp;``) or a link (``<url|title>``) that
    fits in a chunk. A chunk of only blanks (a newline that fitted nowhere) is
    dropped, as Slack refuses blank text.
    """
    chunks: list[str] = []
    current = ""
    for line in text.splitlines(keepends=True):
        for piece in _hard_split(line, limit):
            if len(current) + len(piece) > limit:
                chunks.append(current)
                current = ""
            current += piece
    chunks.append(current)
    return [c for c in chunks if c.strip()]


def _hard_split(line: str, limit: int) -> Iterator[str]:
    while len(line) > limit:
        cut = _cut_at(line, limit)
        yield line[:cut]
        line = line[cut:]
    yield line


def _cut_at(line: str, limit: int) -> int:
    head = line[:limit]
    link = head.rfind("<")
    if link > 0 and ">" not in head[link:]:
        return link
    space = head.rfind(" ", limit // 2)
    if space > 0:
        return space + 1
    entity = head.rfind("&")
    if entity > 0 and ";" not in head[entity:]:
        return entity
    return limit


# --- fallback text -------------------------------------------------------------------


def clip_text(text: str, limit: int = MAX_FALLBACK_TEXT) -> str:
    """The text, or as much as fits in whole lines (the last one perhaps cut), with a note of
    how many lines were left out."""
    if len(text) <= limit:
        return text
    lines = text.splitlines()
    kept: list[str] = []
    size = 0
    for line in lines:
        room = limit - size - len(_left_out(len(lines) - len(kept) - 1))
        if len(line) + 1 > room:
            cut = split_text(line, room - 2) if room > MIN_CUT_LINE else []
            if cut:
                kept.append(cut[0].rstrip() + "…")
            break
        kept.append(line)
        size += len(line) + 1
    return "\n".join([*kept, _left_out(len(lines) - len(kept))])


MIN_CUT_LINE = 80
"""Room left below which a long last line is dropped rather than shown cut."""


def _left_out(count: int) -> str:
    if count == 0:
        return "… cut to fit a notification."
    return f"… {count:,} more line{'s' if count != 1 else ''} not shown here."


def plain_text(blocks: list[Block]) -> str:
    """What the blocks say, one line per text, for the fallback of a thread reply."""
    out: list[str] = []
    for block in blocks:
        kind = block.get("type")
        if kind in ("section", "header") and isinstance(block.get("text"), dict):
            out.append(block["text"]["text"])
        if kind == "section":
            out += [f["text"] for f in block.get("fields") or []]
        if kind == "context":
            out += [e["text"] for e in block.get("elements", []) if "text" in e]
    return "\n".join(out)
