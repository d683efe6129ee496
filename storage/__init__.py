"""leasewise's memory: saved quotes, thread conversations, digests, admin data.

SQLAlchemy 2 on a SQLite file by default, PostgreSQL for teams; Alembic
migrations ship in the package. Repositories take a Session and never commit:
the caller owns the transaction (``with session_factory.begin() as session:``).
"""
