"""A project's real check tools: run them, parse their machine output, rank what they found.

``model`` is the issue/report value, ``run`` runs one tool (lookup, argv, timeout, fail-safe),
``parsers`` reads each tool's output, ``detect`` picks the checks for a project and ``report``
groups and renders the issues for a fix prompt. No Airflow here.
"""
