"""The club server: a table's store replicated to PostgreSQL (psycopg 3).

- ``schema``: the club schema, versioned, its migrations, registering a table.
- ``sync``: the table's background sync (local first: never blocks a stroke).
"""
