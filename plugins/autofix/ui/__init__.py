"""The autofix view in the Airflow UI: a FastAPI app (``app.py``) and its pages (``static/``),
reading the audit store through its query API. It imports FastAPI, never Airflow: the plugin
hands it Airflow's access checks (``access.UiAccess``)."""
