"""The administrators' pages: accounts, their role, second factor and tokens, and every change."""

from django.urls import path

from .views import (
    ChangeDecisionView,
    ChangeDetailView,
    ChangeListView,
    ChangeStepView,
    UserCreateView,
    UserDetailView,
    UserListView,
    UserStepView,
)


def user_step(route: str, step: str, name: str):
    return path(f"users/<int:pk>/{route}/", UserStepView.as_view(step=step), name=name)


urlpatterns = [
    path("users/", UserListView.as_view(), name="users"),
    path("users/new/", UserCreateView.as_view(), name="user_create"),
    path("users/<int:pk>/", UserDetailView.as_view(), name="user"),
    user_step("role", "role", "user_role"),
    user_step("deactivate", "deactivate", "user_deactivate"),
    user_step("reactivate", "reactivate", "user_reactivate"),
    user_step("second-factor-reset", "second_factor_reset", "user_second_factor_reset"),
    user_step("tokens/new", "token_issue", "token_issue"),
    user_step("tokens/rotate", "token_rotate", "token_rotate"),
    path("tokens/<int:pk>/revoke/", UserStepView.as_view(step="token_revoke"), name="token_revoke"),
    path("changes/", ChangeListView.as_view(), name="changes"),
    path("changes/<int:pk>/", ChangeDetailView.as_view(), name="change"),
    path("changes/<int:pk>/approve/", ChangeDecisionView.as_view(step="approve"), name="change_approve"),
    path("changes/<int:pk>/reject/", ChangeDecisionView.as_view(step="reject"), name="change_reject"),
    path("changes/<int:pk>/withdraw/", ChangeStepView.as_view(step="withdraw"), name="change_withdraw"),
]
