"""How each agent's CLI gets its credentials, as the next step of a failed login: said the same
way by the plan's preflight and by a task whose agent the API refused."""

from __future__ import annotations

LOGIN_STEPS: dict[str, str] = {
    "claude": "set ANTHROPIC_API_KEY (or CLAUDE_CODE_OAUTH_TOKEN from `claude setup-token`) in "
    "the worker's environment or the task's env, or run `claude /login` as the worker's user",
    "codex": "set CODEX_API_KEY (or OPENAI_API_KEY) in the worker's environment or the task's "
    "env, or run `codex login` as the worker's user",
    "gemini": "set GEMINI_API_KEY in the worker's environment or the task's env (or "
    "GOOGLE_GENAI_USE_VERTEXAI=true with GOOGLE_CLOUD_PROJECT), or run `gemini` once as the "
    "worker's user to log in",
    "openai": "check the key in the Connection the task names as conn_id (its password)",
}
