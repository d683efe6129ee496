"""A saved quote as a document: ``/lease quote pdf`` (a file on the reply), the console
writing it, and ``leasewise quote export`` in PDF, CSV and JSON.

The PDF is read back with pypdf: it must open, and say the customer, the GPU count and
the monthly price that ``quote show`` says for the same quote.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from pypdf import PdfReader
from typer.testing import Result

from bot.commands import dispatch
from bot.console.chat import Console
from bot.conversation import Reply
from bot.services import Caller, Services

Lease = Callable[..., Reply]
SAVE = 'quote save acme-q3 customer="Acme Corp" Kimi K3 on 16x B300, batch 64, $5/GPU-hour'


def pdf_text(content: bytes) -> str:
    """The PDF's text, page after page; pypdf raises if it does not open."""
    reader = PdfReader(io.BytesIO(content))
    return "\n".join(page.extract_text() for page in reader.pages)


def shown_by_quote_show(services: Services, reply: Reply) -> tuple[str, str]:
    """What ``quote show`` says: the deployment ("16x B300") and the price a month."""
    text = services.renderer.message(reply.template, **reply.context).console_text()
    gpus = re.search(r"\d+x [A-Z0-9-]+", text)
    monthly = re.search(r"(\$[\d,.]+)/month", text)
    assert gpus and monthly, text
    return gpus.group(0), monthly.group(1)


def test_quote_pdf_hands_over_a_pdf_saying_what_quote_show_says(
    lease: Lease, desk: Services
) -> None:
    lease(SAVE)
    gpus, monthly = shown_by_quote_show(desk, lease("quote show acme-q3"))

    reply = lease("quote pdf acme-q3", user="U0SALES")

    assert reply.template == "quote_document_posted" and not reply.ephemeral
    assert reply.file is not None
    assert (reply.file.filename, reply.file.media_type) == ("acme-q3.pdf", "application/pdf")
    text = pdf_text(reply.file.content)
    assert "Acme Corp" in text and gpus in text and monthly in text
    said = desk.renderer.message(reply.template, **reply.context).text
    assert said.startswith("<@U0SALES> attached the quote document for acme-q3")


def test_quote_pdf_without_a_name_asks_which_quote(lease: Lease) -> None:
    reply = lease("quote pdf")

    assert reply.template == "error" and reply.ephemeral and reply.file is None
    assert reply.context["message"] == "which quote?"
    assert "/lease quote pdf acme-q3" in reply.context["hint"]


def test_quote_pdf_of_an_unknown_name_suggests_the_closest(lease: Lease) -> None:
    lease(SAVE)

    reply = lease("quote pdf acme-q4")

    assert reply.template == "error" and reply.ephemeral
    assert "no quote named 'acme-q4'" in reply.context["message"]
    assert "did you mean `/lease quote pdf acme-q3`?" in reply.context["hint"]


def test_quote_pdf_in_an_empty_workspace_says_how_to_save_one(lease: Lease) -> None:
    reply = lease("quote pdf acme-q3")

    assert reply.template == "error"
    assert "save one first" in reply.context["hint"]


def test_quotes_of_another_workspace_are_not_suggested(lease: Lease, desk: Services) -> None:
    lease(SAVE)
    elsewhere = Caller("T0OTHER", "C1", "U1")

    reply = dispatch.run(desk, elsewhere, "quote pdf acme-q3")

    assert reply.template == "error" and "did you mean" not in reply.context["hint"]
    assert "save one first" in reply.context["hint"]


def test_the_console_writes_the_pdf_into_its_folder_and_says_where(
    desk: Services, tmp_path: Path
) -> None:
    console = Console(desk, files=tmp_path)
    console.say(f"/lease {SAVE}")

    said = console.say("/lease quote pdf acme-q3")

    written = tmp_path / "acme-q3.pdf"
    assert said is not None and f"Wrote {written} (" in said
    assert "attached the quote document for acme-q3" in said
    assert "Acme Corp" in pdf_text(written.read_bytes())


def test_the_console_says_so_when_it_cannot_write_the_file(
    desk: Services, tmp_path: Path
) -> None:
    console = Console(desk, files=tmp_path / "missing")
    console.say(f"/lease {SAVE}")

    said = console.say("/lease quote pdf acme-q3")

    assert said is not None and "cannot write" in said and "acme-q3.pdf" in said


# --- leasewise quote export --------------------------------------------------------


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty folder the CLI runs in."""
    folder = tmp_path / "here"
    folder.mkdir()
    monkeypatch.chdir(folder)
    return folder


@pytest.fixture
def saved(desk: Services, lease: Lease, monkeypatch: pytest.MonkeyPatch, here: Path) -> str:
    """acme-q3 saved in the database DATABASE_URL names; the monthly price ``quote show``
    gives it."""
    lease(SAVE)
    monkeypatch.setenv("DATABASE_URL", desk.settings.database_url)
    return shown_by_quote_show(desk, lease("quote show acme-q3"))[1]


def test_export_writes_name_dot_pdf_here_by_default(
    run: Callable[..., Result], saved: str, here: Path
) -> None:
    result = run("quote", "export", "acme-q3")

    assert result.exit_code == 0, result.output
    assert result.output.startswith("Wrote acme-q3.pdf (")
    text = pdf_text((here / "acme-q3.pdf").read_bytes())
    assert "Acme Corp" in text and "16x B300" in text and saved in text


def test_export_csv_has_the_figures_to_compute_with_and_as_shown(
    run: Callable[..., Result], saved: str, here: Path
) -> None:
    result = run("quote", "export", "acme-q3", "--format", "csv")

    assert result.exit_code == 0, result.output
    rows = {r["item"]: r for r in csv.DictReader((here / "acme-q3.csv").open())}
    assert rows["customer"]["value"] == "Acme Corp"
    assert rows["gpus"]["value"] == "16"
    assert rows["usd_per_month"]["shown"] == saved
    assert float(rows["usd_per_month"]["value"]) == pytest.approx(
        float(saved.strip("$").replace(",", "")), rel=0.01
    )


def test_export_to_a_folder_that_does_not_exist_exits_2(
    run: Callable[..., Result], saved: str
) -> None:
    result = run("quote", "export", "acme-q3", "-o", "out/acme.csv")

    assert result.exit_code == 2 and "cannot write out/acme.csv" in result.output


def test_export_json_to_stdout_is_the_quote_as_stored(
    run: Callable[..., Result], saved: str, here: Path
) -> None:
    result = run("quote", "export", "acme-q3", "--format", "json", "-o", "-")

    assert result.exit_code == 0, result.output
    body = json.loads(result.stdout)
    assert body["customer"] == "Acme Corp" and body["question"]["gpus"] == 16
    assert body["validity"]["valid_until"]
    assert list(here.iterdir()) == []  # nothing written but stdout


def test_export_takes_the_format_from_the_output_files_extension(
    run: Callable[..., Result], saved: str, here: Path
) -> None:
    result = run("quote", "export", "acme-q3", "-o", "for-acme.json")

    assert result.exit_code == 0, result.output
    assert json.loads((here / "for-acme.json").read_text())["name"] == "acme-q3"


def test_export_of_an_unknown_name_exits_2_with_the_closest_name(
    run: Callable[..., Result], saved: str
) -> None:
    result = run("quote", "export", "acme-q4")

    assert result.exit_code == 2
    assert "no quote named 'acme-q4'" in result.output
    assert "did you mean leasewise quote export acme-q3?" in result.output
    assert "Traceback" not in result.output


def test_export_in_an_unknown_format_exits_2_naming_the_formats(
    run: Callable[..., Result], saved: str, here: Path
) -> None:
    result = run("quote", "export", "acme-q3", "--format", "xlsx")

    assert result.exit_code == 2
    assert "'xlsx' is not a format: use pdf, csv or json" in result.output
    assert list(here.iterdir()) == []


def test_a_name_saved_in_two_workspaces_needs_the_workspace(
    run: Callable[..., Result], saved: str, desk: Services, here: Path
) -> None:
    dispatch.run(desk, Caller("T0OTHER", "C1", "U1"), SAVE.replace("Acme Corp", "Other"))

    ambiguous = run("quote", "export", "acme-q3")
    chosen = run("quote", "export", "acme-q3", "--workspace", "T0OTHER", "-f", "json")

    assert ambiguous.exit_code == 2 and "--workspace T0001" in ambiguous.output
    assert chosen.exit_code == 0, chosen.output
    assert json.loads((here / "acme-q3.json").read_text())["customer"] == "Other"
