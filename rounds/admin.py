"""The rounds app's admin pages."""
