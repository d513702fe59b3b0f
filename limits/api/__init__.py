"""The limits app's REST API."""
