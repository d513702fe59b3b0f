"""Benchmarks: each bench_*.py module here has a main() that measures and prints its figures."""
