"""Airflow's ``[core] hostname_callable`` for several workers on one machine.

scripts/up_celery.sh gives each Celery worker its own ``AUTOFIX_WORKER_HOSTNAME``, so the task
instances (and the audit rows, which take the task instance's hostname) say which worker ran
them; every other component keeps the machine's name.
"""

from __future__ import annotations

import os
import socket


def hostname() -> str:
    return os.environ.get("AUTOFIX_WORKER_HOSTNAME") or socket.getfqdn()
