import pytest

from tests.archive.support import History, history_make


@pytest.fixture
def history(db, settings) -> History:
    """Two tables' rounds in March 2026 and one in April, before a hot window of 6 months."""
    settings.PITBOSS_HOT_MONTHS = 6
    return history_make()
