"""make soak (issue 56): Pitboss's processes together under load for minutes, disrupted midway, then
checked for anything lost or done twice. Entry point: `python -m tests.soak.run`."""
