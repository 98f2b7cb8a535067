"""stderr → verdict: normalise, group multi-line blocks, match rules, stream with bounded memory."""

from __future__ import annotations

from autofix.classify.classifier import Classifier, ClassifyReport, LineVerdict

__all__ = ["Classifier", "ClassifyReport", "LineVerdict"]
