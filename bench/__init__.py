"""Benchmarks: figures printed, never asserted. ``python -m bench`` runs them all (``--quick``, ``--only``)."""
