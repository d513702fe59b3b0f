"""The reports app's admin pages."""
