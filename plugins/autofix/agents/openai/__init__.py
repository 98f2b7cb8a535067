"""``agent="openai"``: any OpenAI-compatible endpoint, called by a bundled client subprocess."""
