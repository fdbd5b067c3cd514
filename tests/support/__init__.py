"""What the tests and the benchmarks share and the bot does not run: the test run's PostgreSQL server, the
OpenAPI conformance validator the stand-in is given in tests, and what a player types for an engine action."""
