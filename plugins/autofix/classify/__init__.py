"""stderr → verdict: normalise, group multi-line blocks, match rules, stream with bounded memory."""
