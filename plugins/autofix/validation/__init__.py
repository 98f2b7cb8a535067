"""Validate structured agent output and retry with error feedback.

Plain Python: ``autofix.generate_and_validate(prompt, Model, llm)``. Step-wise, for operators:
``OutputValidator.validate`` (one output → ValidationOutcome), ``AttemptPolicy.decide``
(history → accept / retry / escalate / stop), ``AttemptPolicy.feedback`` (the prompt for
the next attempt), or ``AttemptLoop.run`` to loop in one task. No Airflow imports here.
"""
