"""Messages in German, Italian, French, Spanish and Portuguese: their own words for the
facts an English message says, and their own way of writing numbers."""

from __future__ import annotations

import pytest

from core.catalog import Catalog
from core.parse import parse


def test_german_in_and_out_lengths_said_rein_and_raus(catalog: Catalog) -> None:
    got = parse("Llama 3.1 8B auf L40S, 40 Anfragen pro Sekunde, 900 rein, 150 raus", catalog)
    assert (got.fields["input_tokens"], got.fields["output_tokens"]) == (900, 150)


def test_a_german_peak_ratio_to_the_mean(catalog: Catalog) -> None:
    got = parse("GLM-5 auf B200: in der Spitze 9.000 Anfragen pro Minute, Verhältnis "
                "Spitze/Mittel = 3, 1.500 rein, 200 raus", catalog).fields
    assert got["peak_to_average"] == 3.0
    assert got["requests_per_day"] == 9000 * 1440 / 3


def test_italian_lengths_said_in_input_and_in_output(catalog: Catalog) -> None:
    got = parse("Qwen3 32B, 2 milioni di richieste al mese, token medi 1200 in input e "
                "300 in output", catalog).fields
    assert (got["input_tokens"], got["output_tokens"]) == (1200, 300)


def test_growth_said_annuo_or_per_quarter_in_portuguese_is_compounded(catalog: Catalog) -> None:
    it = parse("GLM-5, 80 richieste al secondo, crescita del 21% annuo", catalog).fields
    pt = parse("GLM-5, 80 pedidos por segundo, crescimento de 33,1% ao trimestre", catalog).fields
    assert abs(it["monthly_growth"] - (1.21 ** (1 / 12) - 1)) < 1e-9
    assert abs(pt["monthly_growth"] - 0.1) < 1e-3


def test_a_portuguese_year_is_a_term_of_twelve_months(catalog: Catalog) -> None:
    got = parse("llama 3.1 8b, 2 milhões de pedidos por dia, contrato de 2 anos", catalog)
    assert got.fields["term_months"] == 24


def test_mil_is_a_thousand_beside_portuguese_words(catalog: Catalog) -> None:
    got = parse("gpt-oss-120b: 30 mil pedidos/hora, 800 in, 200 out", catalog).fields
    assert got["requests_per_day"] == 30_000 * 24


def test_a_dotted_thousand_under_a_requests_heading_is_a_count(catalog: Catalog) -> None:
    got = parse("- Modello: Qwen3-32B\n- Richieste attese: 60.000 all'ora\n"
                "- Token in ingresso: 1.000; in uscita: 200", catalog)
    assert got.fields["requests_per_day"] == 60_000 * 24
    assert any("60.000" in a and "60,000" in a for a in got.assumed)


def test_the_time_per_output_token_named_in_italian_then_abbreviated(catalog: Catalog) -> None:
    got = parse("GLM-5, 50 richieste al secondo. Tempo per token in uscita (TPOT) non "
                "superiore a 50 ms", catalog).fields
    assert got["min_per_user_tokens_per_s"] == 20.0


def test_a_latency_ceiling_said_sous_or_sotto(catalog: Catalog) -> None:
    fr = parse("DeepSeek-R1, 20 requêtes par seconde, premier token sous 900 ms", catalog)
    it = parse("GLM-5, 20 richieste al secondo, TPOT sotto i 25 ms", catalog)
    assert fr.fields["max_ttft_s"] == 0.9
    assert it.fields["min_per_user_tokens_per_s"] == 40.0


def test_requirement_ids_past_the_ninth_are_no_figures(catalog: Catalog) -> None:
    got = parse("R-08: Modell Qwen3-32B, 30 Anfragen/Sekunde\nR-09: Eingabe 2.000 Token, "
                "Ausgabe 300 Token\nR-10: Kontextfenster mind. 32.000 Token\n"
                "R-11: Zielauslastung 70 %", catalog).fields
    assert (got["context_tokens"], got["planned_utilization"]) == (32_000, 0.7)


def test_doubling_in_a_counted_span_is_growth_not_a_term(catalog: Catalog) -> None:
    en = parse("kimi k2, 2B output tokens a day, expected to double in 1 year", catalog)
    pt = parse("kimi k2, 2 bilhões de tokens de saída por dia, devem dobrar em 1 ano", catalog)
    for got in (en, pt):
        assert abs(got.fields["monthly_growth"] - (2 ** (1 / 12) - 1)) < 1e-9
        assert "term_months" not in got.fields


@pytest.mark.parametrize(
    "price",
    ["2,60 $ CA/h par GPU", "CA$2.60/GPU-hour", "A$ 2.60 per GPU-hour", "R$ 13,50/GPU-hora"],
)
def test_dollars_of_another_country_are_no_lease_price(catalog: Catalog, price: str) -> None:
    got = parse(f"8x H200, Qwen3-32B, batch 32, {price}", catalog)
    assert "price_per_gpu_hour" not in got.fields
    assert any("another currency" in a for a in got.ambiguities)


def test_us_dollars_marked_as_such_stay_a_price(catalog: Catalog) -> None:
    got = parse("8x H200, Qwen3-32B, batch 32, US$ 3.10/GPU-hour", catalog)
    assert got.fields["price_per_gpu_hour"] == 3.1


def test_a_german_correction_rules_the_first_gpu_out(catalog: Catalog) -> None:
    got = parse("GLM-5 auf H100, 20 req/s, 1.000 In / 200 Out. Korrektur: nicht H100, der "
                "Kunde will jetzt H200.", catalog)
    assert got.fields["gpus"] == ("h200",)


def test_a_german_period_corrected_after_korrektur(catalog: Catalog) -> None:
    got = parse("Qwen3 32B auf H200, 200k Anfragen/Tag, Wachstum 30% pro Monat – Korrektur: "
                "30% pro Quartal", catalog)
    assert abs(got.fields["monthly_growth"] - (1.3 ** (1 / 3) - 1)) < 1e-9
    assert not any("two values" in a for a in got.ambiguities)


def test_dutch_servers_each_with_their_gpus_and_a_concurrency_per_server(
    catalog: Catalog,
) -> None:
    got = parse("Qwen3 32B op 3 servers met elke 2 H100, 16 gelijktijdige gebruikers per "
                "server", catalog).fields
    assert (got["gpus"], got["concurrency"]) == (6, 48)


@pytest.mark.parametrize(
    "said",
    [
        "pagan US$ 0,40 por millón de tokens de entrada y US$ 1,90 por millón de salida",
        "paghiamo 0,40 $ per milione di token di input e 1,90 $ per milione di token di output",
        "Sie zahlen 0,40 $ je 1 Mio. Eingabe-Token und 1,90 $ pro Mio. Ausgabe-Token",
        "ils paient 0,40 $ par million de jetons d'entrée, 1,90 $ par million de jetons de sortie",
    ],
)
def test_an_api_price_per_million_in_another_language_is_an_api_price(
    catalog: Catalog, said: str
) -> None:
    got = parse(f"Qwen3 32B, 20 req/s, 800 in 200 out. {said}", catalog).fields
    assert got["api_price_per_million_input"] == pytest.approx(0.40)
    assert got["api_price_per_million_output"] == pytest.approx(1.90)
    assert "price_per_gpu_hour" not in got


@pytest.mark.parametrize(
    "said",
    ["USD 21.900 por nodo al mes", "USD 21.900 pro Knoten im Monat", "USD 21,900 per node monthly"],
)
def test_a_nodes_monthly_price_said_after_the_node_in_any_words(
    catalog: Catalog, said: str
) -> None:
    got = parse(f"Llama 3.1 70B en 2 nodos H200, batch 32, precio {said}", catalog).fields
    assert got["price_per_gpu_hour"] == pytest.approx(21_900 / 730 / 8)
