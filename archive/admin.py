"""The archive app's admin pages: the deletions under retention, to be read, never changed."""

from django.contrib import admin

from .models import ArchiveDeletion


@admin.register(ArchiveDeletion)
class ArchiveDeletionAdmin(admin.ModelAdmin):
    """Recorded by manage.py archive_retention alone: what was deleted, when, by whom and why."""

    list_display = [
        "table",
        "month_shown",
        "deleted_at",
        "deleted_by",
        "reason",
        "rounds",
        "bets",
        "wagered",
        "returned",
        "files",
        "bytes",
        "location",
    ]
    list_filter = ["table", "deleted_at"]
    search_fields = ["table__code", "deleted_by", "reason"]
    list_select_related = ["table"]

    @admin.display(description="month", ordering="month")
    def month_shown(self, deletion: ArchiveDeletion) -> str:
        return f"{deletion.month:%Y-%m}"

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
