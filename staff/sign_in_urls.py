"""The sign-in record's pages, under /staff/ (staff.urls gives them the "staff:" namespace)."""

from django.urls import path

from .sign_in_views import SignInDayListView, SignInListView, SignInReviewView, TokenUseListView

urlpatterns = [
    path("sign-ins/", SignInListView.as_view(), name="sign_ins"),
    path("sign-ins/days/", SignInDayListView.as_view(), name="sign_in_days"),
    path("sign-ins/<int:pk>/review/", SignInReviewView.as_view(), name="sign_in_review"),
    path("token-uses/", TokenUseListView.as_view(), name="token_uses"),
]
