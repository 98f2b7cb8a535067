"""The autonomous-fixing application: an agent fixes a repository's checks, one commit at a time.

The ``autonomous_fixing`` DAG wires one task per step (``autofix.operators.fixing``), and each
task calls its step's function in ``steps``::

    plan → prepare → configure_hooks → discover_tests → check_0 → fix → summary

- ``plan``: one ``ProjectPlan`` per project, from the run's params and the config.
- ``prepare``: a clean tree on the work branch; after configure_hooks, the hooks file checked.
- ``prompts``: what the agent is asked in configure_hooks, discover_tests and fix.
- ``testconfig``: discover_tests' answer, its cache, and the checks a run uses.
- ``loop``: check_0's snapshot, the checks each fix attempt must pass (``autofix.verify``:
  every tool, and a new commit) and the outcome read from the fix's verified attempts.
- ``summary``: each project's outcome, written per run.
- ``steps``: each step as functions the operators call: values in, values out.
- ``checks/``: the real check tools, run and parsed; ``gitops``: the git calls.

Values crossing task boundaries are plain JSON dicts of these models, so the Airflow UI shows
them as readable XComs. No Airflow here.
"""
