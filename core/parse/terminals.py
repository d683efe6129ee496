"""A terminal: what the tokenizer gives the grammar, one typed piece of the message.

Both tokenizer passes make them (``core.parse.tokens`` the lexemes, ``core.parse.combine``
their combinations); the grammar reads them, and every pass after it looks at them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


@dataclass(slots=True)
class Tok:
    """One terminal: its type, the words it came from, and its value."""

    type: str
    text: str
    value: float | str | None = None
    start: int = 0
    end: int = 0
    flag: bool = False  # PER_TIME: "per GPU"; NUM: written in words
    note: str | None = None  # how it was read other than as written, said back
    unsure: bool = False  # the note is a question to the user ("a typo?"), not an assumption
    index: int = 0  # position in the message's terminals, set by ``grammar.matches``

    # lark reads these off the last terminal to place its end-of-input marker.
    line: ClassVar[None] = None
    column: ClassVar[None] = None
    end_line: ClassVar[None] = None
    end_column: ClassVar[None] = None
    end_pos: ClassVar[None] = None

    @property
    def start_pos(self) -> int:
        return self.index
