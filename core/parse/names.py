"""Catalog names as people write them: short forms, families, and typos.

The catalog lists each entry's id, name and aliases. People also write a model by
its family and size ("llama 70b", "qwen 235b"), by its family alone ("deepseek"),
and with typos ("deepseak", "h1oo"). This module derives those spellings once per
catalog, so the tokenizer can read them *and say so*:

- a short form that several models share reads as the newest of them, said back
  ("'llama 70b' read as Llama 3.1 70B Instruct; also: Llama 2 70B Chat");
- a family alone names no model: it is asked ("which DeepSeek: DeepSeek-V3 or
  DeepSeek-R1?"), never guessed;
- a word one edit from a name word ("deepseak") is read as that word, and said; a
  digit read as a letter ("h1oo": o for 0) likewise; a name-like word no edit
  explains ("h2000") is said with the closest name, and not used.

Edit distance is rapidfuzz's optimal string alignment (a transposition is one edit).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rapidfuzz.distance import OSA

from core.catalog import Catalog, normalize

_PARTS = re.compile(r"[\s\-_/]+")
_SIZE = re.compile(r"\d+(?:\.\d+)?b")
_VERSION = re.compile(r"\d+(?:\.\d+)?")
_ROOT = re.compile(r"[a-z]+")
_CONFUSABLES = (
    str.maketrans({"o": "0", "l": "1", "i": "1"}),
    str.maketrans({"o": "0"}),
    str.maketrans({"l": "1", "i": "1"}),
)
"""Letters typed for digits, all at once or one kind at a time ("mi3oox": its "i" is an i)."""
NOT_OURS = frozenset(
    {"mistral", "gemma", "gemini", "claude", "phi", "falcon", "grok", "command", "jamba"}
    | {"yi", "nemotron", "granite", "olmo"}
)
"""Model families people name that the catalog does not hold: never read as a typo of ours."""
MIN_TYPO_LENGTH = 4


@dataclass(frozen=True)
class Spelling:
    """What the tokenizer needs beyond exact names: derived keys, families, name words."""

    derived: dict[str, tuple[str, str, str | None]]
    """Key -> (terminal, id, note): short forms; the note says which of several it chose."""
    families: dict[str, tuple[str, ...]]
    """A family word ("deepseek") -> the names of its models, when there are several."""
    words: dict[tuple[str, int], tuple[str, ...]]
    """(first letter, length) -> the words of catalog names, for typo correction."""
    exact: frozenset[str]
    _seen: dict[str, str | None] = field(default_factory=dict)
    _near: dict[str, str | None] = field(default_factory=dict)
    plain: set[str] = field(default_factory=set)
    """Words seen that are no name, no typo of one and no family: skipped at once."""

    def corrected(self, key: str) -> str | None:
        """The name word ``key`` is a typo of (one edit, two from 8 letters), or None."""
        if key in self._seen:
            return self._seen[key]
        found = self._correct(key)
        if len(self._seen) > 50_000:
            self._seen.clear()
        self._seen[key] = found
        return found

    def _correct(self, key: str) -> str | None:
        if len(key) < MIN_TYPO_LENGTH or key in NOT_OURS:
            return None
        if any(c.isdigit() for c in key):
            for table in _CONFUSABLES:  # "h1oo": o and l for digits; "mi3oox": o alone
                swapped = key[0] + key[1:].translate(table)
                if swapped != key and swapped in self.exact:
                    return swapped
            return None
        limit = 2 if len(key) >= 8 else 1
        best: tuple[int, str] | None = None
        for size in range(len(key) - limit, len(key) + limit + 1):
            for word in self.words.get((key[0], size), ()):
                d = OSA.distance(key, word, score_cutoff=limit)
                if d <= limit and (best is None or (d, word) < best):  # a tie: the first by name
                    best = (d, word)
        return None if best is None else best[1]

    def closest(self, key: str) -> str | None:
        """The catalog key nearest a name-like word that is not one, for "did you mean"."""
        if key not in self._near:
            if len(self._near) > 50_000:
                self._near.clear()
            self._near[key] = self._closest(key)
        return self._near[key]

    def _closest(self, key: str) -> str | None:
        best: tuple[int, str] | None = None
        for word in self.exact:
            if word[0] != key[0]:
                continue
            d = OSA.distance(key, word, score_cutoff=2)
            if d <= 2 and (best is None or (d, word) < best):  # a tie: first by name
                best = (d, word)
        return None if best is None else best[1]


def spelling(catalog: Catalog, names: dict[str, tuple[str, str]]) -> Spelling:
    """Derived spellings for ``catalog``; ``names`` are its exact keys (they always win)."""
    derived: dict[str, list[tuple[tuple[float, ...], str, str]]] = {}
    members: dict[str, list[tuple[tuple[float, ...], str]]] = {}
    for model in catalog.models:
        version, keys, roots = _short_forms(model.id)
        for key in keys:
            derived.setdefault(key, []).append((version, model.id, model.name))
        for root in roots:
            members.setdefault(root, []).append((version, model.name))
            derived.setdefault(root, []).append((version, model.id, model.name))
    out: dict[str, tuple[str, str, str | None]] = {}
    families: dict[str, tuple[str, ...]] = {}
    for key, found in derived.items():
        if key in names:
            continue
        ranked = sorted(set(found), reverse=True)
        if key in members and len(ranked) > 1:
            if len(key) >= MIN_TYPO_LENGTH:  # "gpt" alone is more often OpenAI's
                families[key] = tuple(name for _, _, name in ranked)
            continue
        _, rid, name = ranked[0]
        others = [n for _, i, n in ranked[1:] if i != rid]
        note = None
        if others:
            note = f"read as {name}, the newest we hold by that name (also: {', '.join(others)})"
        out[key] = ("MODEL", rid, note)
    words: dict[tuple[str, int], set[str]] = {}
    for text in _name_texts(catalog):
        for word in _PARTS.split(text.lower()):
            word = normalize(word)
            if len(word) >= MIN_TYPO_LENGTH and not any(c.isdigit() for c in word):
                words.setdefault((word[0], len(word)), set()).add(word)
    exact = frozenset(k for k, (t, _) in names.items() if t in ("MODEL", "GPU")) | frozenset(out)
    return Spelling(
        derived=out,
        families=families,
        words={k: tuple(sorted(v)) for k, v in words.items()},
        exact=exact,
    )


def _name_texts(catalog: Catalog) -> list[str]:
    return [
        text
        for table in (catalog.models, catalog.gpus, catalog.stacks)
        for entry in table
        for text in (entry.id, entry.name, *entry.aliases)
        if "/" not in text  # a Hugging Face repo id is copied, not typed
    ]


def _short_forms(model_id: str) -> tuple[tuple[float, ...], list[str], list[str]]:
    """A model id's version, its family-and-size keys, and its family roots.

    ``llama-3.1-70b`` -> version (3, 1); keys llama70b, llama370b; roots llama.
    """
    parts = [p for p in _PARTS.split(model_id.lower()) if p]
    family = parts[0]
    root_match = _ROOT.match(family)
    root = root_match.group() if root_match else family
    size = next((p for p in parts[1:] if _SIZE.fullmatch(p)), None)
    numbers = [p for p in (family[len(root) :], *parts[1:]) if p and _VERSION.fullmatch(p)]
    version_text = numbers[0] if numbers else ""
    version = tuple(float(v) for v in version_text.split(".") if v) or (0.0,)
    keys: list[str] = []
    if size:
        major = version_text.split(".")[0] if version_text else ""
        bare = size[:-1]  # "qwen3.5 397", "llama 70": the size without its b
        keys = list(
            dict.fromkeys(
                [root + size, root + major + size, family + size, root + bare, family + bare]
            )
        )
    roots = list(dict.fromkeys(r for r in (root, family) if len(r) >= 3))
    return version, keys, roots
