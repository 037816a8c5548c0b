"""The JSON doors onto the engine."""
