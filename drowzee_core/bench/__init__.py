"""Test-case generators with provable ground truth (temporal QA so far)."""

from drowzee_core.bench.temporal_qa import TemporalQAConfig, generate_temporal_qa

__all__ = ["TemporalQAConfig", "generate_temporal_qa"]
