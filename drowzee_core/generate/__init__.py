"""Test-case generators with provable ground truth: Drowzee QA, temporal QA, FactCHD pairs, ERBench."""

from drowzee_core.generate.temporal_qa import TemporalQAConfig, generate_temporal_qa

__all__ = ["TemporalQAConfig", "generate_temporal_qa"]
