"""Players, table (seat and bet) limits, personal limits and the effective limit."""
