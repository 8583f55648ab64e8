"""Extensions, created once here and bound to each app by `init_app` in the factory."""

import sqlite3
from typing import TYPE_CHECKING, ClassVar

from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import Table, event
from sqlalchemy.engine import Engine
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.orm import DeclarativeBase
from sqlalchemy.pool import ConnectionPoolEntry


class Base(DeclarativeBase):
    if TYPE_CHECKING:
        # SQLAlchemy types it as any FromClause; each of our classes maps a Table of its own
        # (`__tablename__`), which the Core statements on `Model.__table__` rely on.
        __table__: ClassVar[Table]


db = SQLAlchemy(model_class=Base)
migrate = Migrate()

if TYPE_CHECKING:
    # `db.Model` is a class Flask-SQLAlchemy builds at run time from Base's bases, which a type
    # checker cannot follow; the tables subclass `Model`, read as Base, so their columns and
    # constructors are typed by SQLAlchemy's own declarative typing.
    Model = Base
else:
    Model = db.Model


@event.listens_for(Engine, "connect")
def _tune_sqlite(dbapi_connection: DBAPIConnection, connection_record: ConnectionPoolEntry) -> None:
    """SQLite settings that make concurrent web workers safe and fast.

    WAL lets readers run while one writer commits; `synchronous=NORMAL` is durable in WAL mode
    except on power loss; the busy timeout makes a second writer wait for the lock instead of
    failing, so two racing move posts become one success and one clean 409.
    """
    if isinstance(dbapi_connection, sqlite3.Connection):
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=10000")
        cursor.close()
