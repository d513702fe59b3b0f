"""The tables app's admin pages."""
