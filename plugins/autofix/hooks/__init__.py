"""Airflow hooks: Airflow Connections read into the plain values autofix's core takes."""

from __future__ import annotations

from autofix.hooks.git_remote import GitRemoteHook
from autofix.hooks.openai_endpoint import OpenAIEndpointHook

__all__ = ["GitRemoteHook", "OpenAIEndpointHook"]
