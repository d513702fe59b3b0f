"""A rule sheet's PDF: the body the page shows, made into PDF by WeasyPrint (core/pdf.py)."""

from datetime import datetime

from django.template.loader import render_to_string
from django.utils import translation

from core.pdf import pdf_from_html

from .content import SHEET_LANGUAGES, RuleSheet

PDF_TEMPLATE = "sheets/pdf.html"


def sheet_pdf(sheet: RuleSheet, language: str, *, in_force_from: datetime | None = None) -> bytes:
    """The PDF of `sheet` in `language` (`in_force_from`, for a time asked: from when the sheet reads so,
    said above it). It loads nothing from outside itself (CSS inline)."""
    if language not in SHEET_LANGUAGES:
        raise ValueError(f"No sheet in {language!r}: one of {', '.join(SHEET_LANGUAGES)}.")
    with translation.override(language):
        context = {"sheet": sheet, "language": language, "in_force_from": in_force_from}
        html = render_to_string(PDF_TEMPLATE, context)
    return pdf_from_html(html)


def sheet_pdf_name(sheet: RuleSheet, language: str) -> str:
    return f"rules-{sheet.table_code}-v{sheet.version}-{language}.pdf"
