from django.urls import path

from . import proposal_views, published_views, views

app_name = "tables"
urlpatterns = [
    path("", views.TableListView.as_view(), name="table_list"),
    path("new/", views.TableCreateView.as_view(), name="table_create"),
    # Before <str:code>/: "published-rtp" is no table's code (table codes are capitals and digits).
    path("published-rtp/", published_views.PublishedFigureListView.as_view(), name="published_rtp_list"),
    path("<str:code>/", views.TableDetailView.as_view(), name="table_detail"),
    path("<str:code>/published-rtp/", published_views.PublishedRtpView.as_view(), name="published_rtp"),
    path("<str:code>/edit/", views.TableUpdateView.as_view(), name="table_update"),
    path("<str:code>/status/", views.TableStatusView.as_view(), name="table_status"),
    path("<str:code>/configuration/", views.ConfigurationChangeView.as_view(), name="configuration_change"),
    path(
        "<str:code>/proposal/",
        proposal_views.ConfigurationProposalView.as_view(),
        name="configuration_proposal",
    ),
    path(
        "<str:code>/proposal/approve/",
        proposal_views.ConfigurationDecisionView.as_view(step="approve"),
        name="configuration_approve",
    ),
    path(
        "<str:code>/proposal/reject/",
        proposal_views.ConfigurationDecisionView.as_view(step="reject"),
        name="configuration_reject",
    ),
    path(
        "<str:code>/proposal/compliance-approve/",
        proposal_views.ConfigurationDecisionView.as_view(step="compliance_approve"),
        name="configuration_compliance_approve",
    ),
    path(
        "<str:code>/proposal/compliance-reject/",
        proposal_views.ConfigurationDecisionView.as_view(step="compliance_reject"),
        name="configuration_compliance_reject",
    ),
    path(
        "<str:code>/proposal/fall-reason/",
        proposal_views.FallReasonView.as_view(),
        name="configuration_fall_reason",
    ),
]
