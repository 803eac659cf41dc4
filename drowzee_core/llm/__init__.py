"""Model access: embeddings now; model roles and the local model server later."""
