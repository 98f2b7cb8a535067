"""Checks after the agent: ``verify=`` on an agent task (docs/verification.md)."""
