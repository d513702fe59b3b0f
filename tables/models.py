"""The tables app's models."""
