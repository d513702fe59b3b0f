"""The roof: the home page and its work queues, the search, the error pages and /healthz. It reads
every app; no app imports it."""
