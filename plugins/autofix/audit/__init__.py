"""The audit trail: every agent call recorded, counted and explainable (stores, budgets,
events, metrics, alerts, reports). The public names are exported by ``autofix`` itself."""
