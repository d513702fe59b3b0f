"""Table configurations, rule sets, side options and paytables, table status."""
