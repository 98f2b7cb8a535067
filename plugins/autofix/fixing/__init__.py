"""The autonomous-fixing application: plan, prepare, prompts, the check/fix loop, summary.

The ``autonomous_fixing`` DAG wires these steps (``autofix.operators.fixing``). No Airflow here.
"""
