"""LoRA training of the Truth Guardian on generated Query-Response pairs.

Empty until the model-roles issue; it builds on the test generators of `drowzee_core.generate`.
"""
