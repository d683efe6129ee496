"""Numbers written as words in the customer's own language are read as their digits."""

from __future__ import annotations

import pytest

from core.catalog import Catalog
from core.parse import parse
from core.parse.numerals import in_digits


@pytest.mark.parametrize(
    ("said", "digits"),
    [
        ("tremila", "3000"),  # Italian, glued
        ("duecentocinquanta", "250"),
        ("quatre-vingt-quinze", "95"),  # French, four twenties and fifteen
        ("soixante-dix", "70"),
        ("mille deux cents", "1200"),
        ("cuatrocientos mil", "400000"),  # Spanish
        ("treinta y cinco", "35"),
        ("trezentos e cinquenta", "350"),  # Portuguese
        ("dreitausendzweihundert", "3200"),  # German, glued
        ("siebenundvierzig", "47"),
    ],
)
def test_a_foreign_number_word_becomes_its_digits(said: str, digits: str) -> None:
    assert in_digits(f"about {said} requests") == f"about {digits} requests"


@pytest.mark.parametrize(
    "text",
    ["un client, une demande", "due to the holidays", "a 2 millones budget", "in September"],
)
def test_articles_english_words_and_a_scale_after_digits_are_left_alone(text: str) -> None:
    assert in_digits(text) == text


def test_romanised_japanese_numbers_only_in_a_japanese_message() -> None:
    assert in_digits("go hyaku, ni sen") == "go hyaku, ni sen"
    said = in_digits("ichinichi sanjuuman rikuesuto, nyuuryoku nisen desu")
    assert said == "a day 300000 requests, input 2000 desu"


def test_an_italian_rate_in_words_is_sized(catalog: Catalog) -> None:
    got = parse("Qwen3 32B su H100, circa quattromila richieste al minuto, 500 token in "
                "ingresso, 120 in uscita", catalog).fields
    assert got["requests_per_day"] == 4000 * 1440


def test_a_french_forward_with_lengths_in_words(catalog: Catalog) -> None:
    got = parse("Volume : environ trois millions de requêtes par jour. Prompt moyen : "
                "mille cinq cents tokens ; réponse : trois cents tokens. Modèle : GLM-5",
                catalog).fields
    assert got["requests_per_day"] == 3_000_000
    assert (got["input_tokens"], got["output_tokens"]) == (1500, 300)


def test_a_spanish_term_restated_in_brackets_is_read_once(catalog: Catalog) -> None:
    got = parse("GLM-5 en 8x H200, batch 32, contrato de dos (2) años", catalog)
    assert got.fields["term_months"] == 24
    assert not any("two values" in a for a in got.ambiguities)


def test_a_romaji_request_with_its_rate_per_second_and_peak(catalog: Catalog) -> None:
    got = parse("heikin wa 1-byou atari 40 rikuesuto, pi-ku wa sono 3 bai gurai desu. "
                "model: glm-5, input 1500 / output 300", catalog).fields
    assert (got["requests_per_day"], got["peak_to_average"]) == (40 * 86400, 3.0)
