"""Results: what comes off the box and goes out again.

`sync` pulls the finished matches into the results database (`db`: SQLite or
PostgreSQL, the same SQL and migrations), `export` writes them as CSV or JSON and
`report` as one HTML page. May import the firmware's core, `host_tools.device` (the link
to a box), `host_tools.messages` and `host_tools.paths`; never the measurement or the
generators.
"""
