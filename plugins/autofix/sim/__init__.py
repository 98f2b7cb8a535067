"""The scripted offline agent: plays scenario YAML as Claude, Codex, Gemini or wrapper output.

``python -m autofix.sim`` (console script ``autofix-agent-sim``) is the program; ``SimFormat``
(``agent="sim"``) runs it and parses its output with the parser of the format it imitates.
Nothing here is imported by the product at run time except through the agent registry.
"""
