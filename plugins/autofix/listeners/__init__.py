"""Airflow listeners the autofix plugin registers (they run where Airflow decides a run's state)."""
