"""A rate said per region, site or tenant is multiplied by the regions counted."""

from __future__ import annotations

from core.catalog import Catalog
from core.parse import parse


def test_a_rate_per_region_times_the_regions_counted(catalog: Catalog) -> None:
    got = parse("GLM-5: it's 8 rps *per region* and they're in 4 regions, 2k in, 300 out",
                catalog)
    assert got.fields["requests_per_day"] == 8 * 4 * 86400
    assert any("× 4" in u for u in got.understood)


def test_a_rate_per_region_said_after_the_same_rate_alone(catalog: Catalog) -> None:
    got = parse("they said 10 rps. actually it's 10 rps per site and there are 2 sites. "
                "GLM-5, 1k in, 200 out", catalog)
    assert got.fields["requests_per_day"] == 20 * 86400


def test_a_rate_per_region_already_multiplied_is_not_multiplied_again(catalog: Catalog) -> None:
    got = parse("~90 rps per region × 3 regions, gpt-oss-20b, 1k in / 200 out", catalog)
    assert got.fields["requests_per_day"] == 270 * 86400


def test_a_rate_per_region_with_no_regions_counted_stays(catalog: Catalog) -> None:
    got = parse("GLM-5, 8 rps per region, 2k in, 300 out", catalog)
    assert got.fields["requests_per_day"] == 8 * 86400
