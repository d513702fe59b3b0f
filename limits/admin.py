"""The limits app's admin pages."""
