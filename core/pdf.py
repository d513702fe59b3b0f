"""PDFs from HTML that a Django template made, by WeasyPrint (the report PDFs, the rule sheets', a
reportable fault's). A PDF loads nothing from outside itself: its CSS inline, any image a data: URL;
any other URL stops the rendering. WeasyPrint is imported when a PDF is made: importing it alone
takes about a second."""

from django.conf import settings


def weasyprint_html(html: str):
    from weasyprint import HTML, URLFetcher

    data_only = URLFetcher(allowed_protocols=("data",), fail_on_errors=True)
    return HTML(string=html, base_url=str(settings.BASE_DIR), url_fetcher=data_only)


def pdf_document(html: str):
    """WeasyPrint's rendered document of `html`: its `pages`, and `write_pdf()` for the PDF."""
    return weasyprint_html(html).render()


def pdf_from_html(html: str) -> bytes:
    return weasyprint_html(html).write_pdf()
