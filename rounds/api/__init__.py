"""The rounds app's REST API: round ingest and round history (this package's views and urls),
re-settlements and incidents (resettlements.py, incidents.py)."""
