"""The tables app's REST API."""
