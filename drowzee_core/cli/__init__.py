"""The `drowzee` command line."""
