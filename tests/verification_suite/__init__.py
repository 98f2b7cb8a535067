"""The verification suite: agent tasks in which the agent claims success, each a small real
project in a git repository, with the task's ``verify=`` list and the ground truth.

``projects`` builds the projects, ``cases`` holds the case definitions, ``manifest.json`` freezes
the split into a tuned and a held-out part, ``score`` runs a case and counts the outcomes.
"""
