"""Daily statistics, RTP and exposure reports, PDFs and their Celery jobs."""
