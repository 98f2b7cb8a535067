-- The autofix audit database beside Airflow's (owned by the same role): run once by the
-- PostgreSQL image's /docker-entrypoint-initdb.d in docker-compose.yaml and by up_celery.sh.
CREATE DATABASE autofix OWNER airflow;
