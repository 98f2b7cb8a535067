"""One agent task without Airflow: run the agent, stream its log, parse, validate, audit."""
