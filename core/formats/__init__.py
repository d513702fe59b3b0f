"""Format modules for the languages Django ships none for (FORMAT_MODULE_PATH in the settings)."""
