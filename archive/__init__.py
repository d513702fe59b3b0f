"""The archive of round history: months older than the hot window, exported to Parquet, verified
against the database, then their partitions dropped (issue 21).

`export` writes one month of one casino table's rounds (and every row written for them) as Parquet
files and a manifest; `verify` reads them back and checks them against the manifest and the database;
`drop` detaches and drops a month's partitions once every table that played in it has a verified
export; `services` keeps each (table, month)'s state in ArchivedMonth; `manage.py archive_months`
runs the three for every month past the hot window.
"""
