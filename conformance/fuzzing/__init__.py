"""Differential fuzzing of any engine against the reference, shrinking, and identifying house rules."""
