"""The reports app's models."""
