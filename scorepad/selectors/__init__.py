"""Reads: what the pages show, built from the models and the engine. Nothing here writes."""
