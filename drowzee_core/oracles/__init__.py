"""Oracles: answer parsing, triple extraction, semantic graphs, metrics and reports."""
