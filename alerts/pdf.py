"""A reportable fault as a PDF for the regulator's key-event report: HTML from a Django template
(alerts/fault_pdf.html), made into PDF by WeasyPrint (core/pdf.py). Its times are in UTC, whoever
makes it."""

from django.template.loader import render_to_string
from django.utils import timezone

from core.pdf import pdf_from_html

from .models import ReportableFault
from .tables import subject_text

PDF_TEMPLATE = "alerts/fault_pdf.html"


def fault_pdf_html(fault: ReportableFault, *, made_by, made_at=None) -> str:
    alert = fault.alert
    context = {
        "fault": fault,
        "alert": alert,
        "subject": subject_text(alert.monitor, alert.subject),
        "events": alert.events.select_related("by"),
        "made_by": made_by,
        "made_at": made_at or timezone.now(),
    }
    with timezone.override("UTC"):
        return render_to_string(PDF_TEMPLATE, context)


def fault_pdf(fault: ReportableFault, *, made_by, made_at=None) -> bytes:
    return pdf_from_html(fault_pdf_html(fault, made_by=made_by, made_at=made_at))


def fault_pdf_name(fault: ReportableFault) -> str:
    return f"reportable-fault-{fault.pk}-{fault.table.code}.pdf"
