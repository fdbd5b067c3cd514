"""What the tests and the benchmarks share and the bot does not run: the test run's PostgreSQL server, the
tests' Discord stand-in (``standin``: the console's, with what Discord refuses, shards, RESUME and validators),
the OpenAPI conformance validator it is given in tests, and what a player types for an engine action."""
