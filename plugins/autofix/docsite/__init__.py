"""The docs site the provider's "Documentation" link opens (Admin → Providers in the Airflow UI).

``source.py`` finds the pages (the repository's README.md and docs/, or the installed README),
``render.py`` turns Markdown into HTML, ``app.py`` serves them on the api-server. None of them
imports Airflow: ``autofix.plugin`` hands the app Airflow's sign-in check.
"""
