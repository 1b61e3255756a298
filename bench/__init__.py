"""convopt's benchmarks: one module per benchmark, run from the project root
as `python -m bench.<name>` (bench/README.md lists them; bench/RESULTS.md,
written by `python -m bench.results`, is the page of their latest results).

Shared pieces, one module each: stats (median, quartiles, geometric mean),
timing (interleaved rounds), load (how busy the machine is, pausing
helpers), host (the CPU a result was measured on, and its tag in result
file names) and testsupport (the test suite's helpers bench reuses).
"""
