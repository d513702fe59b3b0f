"""Reading a PDF back as text in Python (pypdf), so the PDF tests need no program beside the suite."""

from pathlib import Path

from pypdf import PdfReader


def pdf_pages(path: Path) -> list[str]:
    """The text of each page, laid out as printed (a row of a table stays on one line)."""
    return [page.extract_text(extraction_mode="layout") for page in PdfReader(path).pages]


def pdf_text(path: Path) -> str:
    return "\n".join(pdf_pages(path))


def pdf_page_count(path: Path) -> int:
    return len(PdfReader(path).pages)
