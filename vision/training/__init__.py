"""Offline training of the reader's models (needs the ``train`` extra: torch, onnx)."""
