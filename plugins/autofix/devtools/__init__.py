"""Optional developer tooling, not used by the product: needs the ``local-llm`` extra."""
