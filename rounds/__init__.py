"""Shoes, rounds, hands, bets, findings, incidents, re-settlements and ingest."""
