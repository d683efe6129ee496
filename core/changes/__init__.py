"""What a serving change did to saved quotes: the weekly digest's math.

``changes_between`` lists what entered the catalog in a period; ``reprice`` prices
one saved question as of the period's start and end; ``digest_for`` runs every
saved quote through it and keeps the moves worth telling a sales channel about.
"""

from core.changes.digest import Digest, QuoteRef, Trend, digest_for
from core.changes.feed import CatalogChange, changes_between
from core.changes.move import QuoteMove, is_material
from core.changes.reprice import reprice

__all__ = [
    "CatalogChange",
    "Digest",
    "QuoteMove",
    "QuoteRef",
    "Trend",
    "changes_between",
    "digest_for",
    "is_material",
    "reprice",
]
