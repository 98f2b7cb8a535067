Add CSV export.
