"""Benchmarks: time to a proven optimum on seeded corpora, side by side with the PyPI
``rummikub-solver``. Run ``python -m benchmarks --help``; figures land in RESULTS.md."""
