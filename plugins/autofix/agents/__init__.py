"""Agent output formats: one module per CLI, each turning its event stream into an AgentOutcome.

``registry.get_format(name)`` returns a format; ``format.command(request)`` builds the
Invocation and ``format.parser()`` an EventParser fed line by line. The public names are
exported by ``autofix`` itself.
"""
