"""The rulebook: rule model, built-in defaults, ReDoS guard, loading and hot reload."""
