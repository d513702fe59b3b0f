from django.contrib import admin, messages

from .models import ApiToken
from .services import tokens_revoke


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """Tokens are made with `manage.py create_user` or `token_rotate`, which show the key once;
    here they are only seen and revoked (a revoked token stays, for the record)."""

    list_display = ["prefix", "user", "name", "created_at", "last_used_at", "expires_at", "revoked_at"]
    list_filter = ["revoked_at", "expires_at"]
    search_fields = ["user__username", "prefix", "name"]
    readonly_fields = ["user", "name", "prefix", "created_at", "last_used_at", "expires_at", "revoked_at"]
    exclude = ["digest"]
    actions = ["revoke"]

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.action(description="Revoke the selected tokens", permissions=["change"])
    def revoke(self, request, queryset):
        count = tokens_revoke(queryset)
        self.message_user(request, f"{count} token(s) revoked.", messages.SUCCESS)
