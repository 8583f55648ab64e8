"""Extensions, created once here and bound to each app by `init_app` in the factory."""

import sqlite3

from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    pass


db = SQLAlchemy(model_class=Base)
migrate = Migrate()


@event.listens_for(Engine, "connect")
def _tune_sqlite(dbapi_connection, connection_record) -> None:
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
