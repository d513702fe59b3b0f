"""The limits app's models."""
