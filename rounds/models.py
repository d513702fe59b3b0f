"""The rounds app's models."""
