"""What the public sheets keep: each answer rendered once, shared by every process and server
(sheets/kept.py)."""

from django.db import models

from tables.models import Table


class KeptSheet(models.Model):
    """One public answer of a sheet, rendered once and kept: its page, its PDF or the body the rules API
    returns, in one language. `key` is the SHA-256 of everything the rendering read (sheets.kept): a
    change of any of it is a new key, so a row is never changed, only added. The other fields say what
    it is, for people reading the table; rows of an earlier `revision` are no longer read."""

    class Form(models.TextChoices):
        PAGE = "page", "Page"
        PDF = "pdf", "PDF"
        BODY = "body", "API body"

    key = models.CharField(max_length=64, unique=True)
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")
    version = models.PositiveIntegerField(help_text="The configuration version the sheet states.")
    in_force_from = models.DateTimeField(
        help_text="From when the sheet reads so: its version's start, its limits' last change or the "
        "table's first opening, the latest."
    )
    language = models.CharField(max_length=8)
    form = models.CharField(max_length=4, choices=Form.choices)
    dated = models.BooleanField(
        help_text="Made for a time asked (?at=): it says from when it is in force, and its links name that."
    )
    revision = models.CharField(
        max_length=64, help_text="Digest of the templates, catalogues and code it was rendered with."
    )
    content = models.BinaryField()
    etag = models.CharField(max_length=66, help_text="The HTTP ETag: the content's SHA-256, quoted.")
    rendered_at = models.DateTimeField(auto_now_add=True)
    seconds = models.FloatField(help_text="How long rendering it took.")

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=models.Q(form__in=["page", "pdf", "body"]), name="kept_sheet_form_known"
            )
        ]

    def __str__(self) -> str:
        dated = ", dated" if self.dated else ""
        return f"{self.table_id} v{self.version} {self.language} {self.form}{dated} ({self.key[:12]})"
