"""Queries compiled to SQL once, then run again with other values.

Django compiles a queryset into SQL each time it runs. For the lookups every request, move and
chat line makes (a player's session, a game's row with its two players, 61 columns, filtered by
who may see it; the move's lock with its two ``EXISTS``), compiling costs several times running:
2.1 ms against 0.24 ms for the game's row, measured on 27 November 2026. A ``Compiled`` query is
built once per shape and process by Django's ORM, from stand-in values, and kept as its SQL;
each later call, in any thread, puts its own values in the stand-ins' places and turns the rows
into model instances the way Django's own iterable does (select_related players and
annotations included).

Its one rule: every value that varies from call to call is an argument of ``build``, and
reaches the SQL as it was given (an id, a key, a moment). ``build`` is run twice with two sets
of stand-ins, and refused unless both give the same SQL with the stand-ins in the same places
and nothing else changed: a value derived from an argument (``now - a week``), kept as a
constant, or a branch taken on one would otherwise be kept as it was at the first call.
``build`` may not run a query itself (a list read from the database would be kept too).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.core.exceptions import EmptyResultSet, FullResultSet
from django.db import connections
from django.db.models import Model, QuerySet
from django.db.models.query import get_related_populators
from django.db.models.sql.compiler import SQLCompiler
from django.db.transaction import TransactionManagementError

# Two sets of stand-ins: values no real query is made with. Small enough for any integer column
# (Django refuses a value past a 32-bit column's range before it reaches the SQL).
_FIRST_IDS = (31_001, 32_001)
_FIRST_MOMENTS = (
    datetime(1971, 2, 3, 4, 5, 6, tzinfo=UTC),
    datetime(1972, 3, 4, 5, 6, 7, tzinfo=UTC),
)


def _stand_in(value: object, number: int, batch: int) -> object:
    if isinstance(value, datetime):
        return _FIRST_MOMENTS[batch] + timedelta(microseconds=number)
    if isinstance(value, int) and not isinstance(value, bool):
        return _FIRST_IDS[batch] + number
    if isinstance(value, str):
        return f"\x1fstand-in {batch}.{number}\x1f"
    raise TypeError(f"a compiled query takes ids, keys and moments, not {type(value).__name__}")


def _adapted(connection, value: object) -> object:
    """``value`` as the backend's parameters hold it (SQLite keeps a moment as text)."""
    if isinstance(value, datetime):
        return connection.ops.adapt_datetimefield_value(value)
    return value


def _no_query(*_args, **_kwargs):
    raise ValueError("a compiled query's build may not run a query of its own")


def _unbound(function: Callable, compiler: SQLCompiler) -> Callable | str:
    """A converter as kept: the name of a backend's own (a method of its operations)."""
    if getattr(function, "__self__", None) is compiler.connection.ops:
        return function.__name__
    return function


def _bound(function: Callable | str, connection) -> Callable:
    """A converter as called: a backend's own taken from the calling thread's connection."""
    return getattr(connection.ops, function) if isinstance(function, str) else function


@dataclass(frozen=True)
class _Statement:
    alias: str
    sql: str
    slots: tuple[tuple[int | None, object], ...]  # per parameter: the value's number, or a constant
    for_update: bool
    # (position, functions, expression): the backend's value to the field's. A backend's own
    # converter (SQLite's, for dates and booleans) is kept by its name and taken from the calling
    # thread's connection: bound to the compiling thread's, it would keep that connection, and
    # its open database file, for the process's life, and convert with its time zone.
    converters: tuple
    init_list: tuple[str, ...]
    start: int
    end: int
    model: type[Model]
    populators: tuple
    annotations: tuple[tuple[str, int], ...]

    def params(self, connection, values: tuple) -> list:
        if self.for_update and connection.get_autocommit():
            # As Django's compiler says it, each time (it did once, at the first call).
            features = connection.features
            if features.has_select_for_update and features.supports_transactions:
                raise TransactionManagementError(
                    "select_for_update cannot be used outside of a transaction."
                )
        return [
            constant if number is None else _adapted(connection, values[number])
            for number, constant in self.slots
        ]

    def count(self, values: tuple) -> int:
        connection = connections[self.alias]
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT COUNT(*) FROM ({self.sql}) counted", self.params(connection, values)
            )
            return cursor.fetchone()[0]

    def run(self, values: tuple) -> list[Model]:
        alias = self.alias
        connection = connections[alias]
        with connection.cursor() as cursor:
            cursor.execute(self.sql, self.params(connection, values))
            rows = cursor.fetchall()
        found = []
        converters = [
            (position, [_bound(function, connection) for function in functions], expression)
            for position, functions, expression in self.converters
        ]
        for row in rows:
            if converters:
                row = list(row)
                for position, functions, expression in converters:
                    value = row[position]
                    for function in functions:
                        value = function(value, expression, connection)
                    row[position] = value
            obj = self.model.from_db(alias, self.init_list, row[self.start : self.end])
            for populator in self.populators:
                populator.populate(row, obj)
            for name, position in self.annotations:
                setattr(obj, name, row[position])
            found.append(obj)
        return found


class Compiled:
    """``build(*values)``, a queryset, compiled once per shape and process and run with values."""

    def __init__(self, build: Callable[..., QuerySet]) -> None:
        self._build = build
        self._kept: dict[tuple, _Statement] = {}
        self._compiling = threading.Lock()

    def all(self, *values: object, shape: Hashable = None) -> list[Model]:
        """The rows of ``build(*values)``. ``shape`` names what else the queryset's form
        depends on (whether the viewer is staff, say): each shape is compiled apart."""
        return self._statement(values, shape).run(values)

    def first(self, *values: object, shape: Hashable = None) -> Model | None:
        found = self.all(*values, shape=shape)
        return found[0] if found else None

    def count(self, *values: object, shape: Hashable = None) -> int:
        """How many rows ``build(*values)`` has, counted by the database."""
        return self._statement(values, shape).count(values)

    def _statement(self, values: tuple, shape: Hashable) -> _Statement:
        key = (shape, tuple(type(value) for value in values))
        statement = self._kept.get(key)
        if statement is None:
            with self._compiling:
                statement = self._kept.get(key)
                if statement is None:
                    statement = self._kept[key] = self._compile(values)
        return statement

    def _compile(self, values: tuple) -> _Statement:
        first, compiler = self._sql(values, 0)
        if self._sql(values, 1)[0] != first:
            raise ValueError(
                "a compiled query's values must reach its SQL as given, and nothing else vary"
            )
        alias, sql, slots = first
        select, klass_info = compiler.select, compiler.klass_info
        columns = [column[0] for column in select]
        if compiler.has_composite_fields(columns):
            raise ValueError("a compiled query reads no composite primary key")
        fields = klass_info["select_fields"]
        start, end = fields[0], fields[-1] + 1
        return _Statement(
            alias=alias,
            sql=sql,
            slots=slots,
            for_update=compiler.query.select_for_update,
            converters=tuple(
                (
                    position,
                    tuple(_unbound(function, compiler) for function in functions),
                    expression,
                )
                for position, (functions, expression) in compiler.get_converters(
                    columns[: compiler.col_count]
                ).items()
            ),
            init_list=tuple(column[0].target.attname for column in select[start:end]),
            start=start,
            end=end,
            model=klass_info["model"],
            populators=tuple(get_related_populators(klass_info, select, alias)),
            annotations=tuple((compiler.annotation_col_map or {}).items()),
        )

    def _sql(self, values: tuple, batch: int) -> tuple[tuple, SQLCompiler]:
        """``build`` compiled with the ``batch``-th stand-ins: (alias, SQL, slots), compiler."""
        stand_ins = [_stand_in(value, number, batch) for number, value in enumerate(values)]
        for connection in connections.all():
            connection.execute_wrappers.append(_no_query)
        try:
            queryset = self._build(*stand_ins)
        finally:
            for connection in connections.all():
                connection.execute_wrappers.remove(_no_query)
        alias = queryset.db
        connection = connections[alias]
        compiler = queryset.query.get_compiler(using=alias)
        try:
            sql, params = compiler.as_sql()
        except (EmptyResultSet, FullResultSet) as error:  # a filter Django answers without SQL
            raise ValueError(f"a compiled query must compile to SQL: {error!r}") from error
        numbers = {_adapted(connection, s): n for n, s in enumerate(stand_ins)}
        slots = []
        for param in params:
            try:
                number = numbers.get(param)
            except TypeError:  # unhashable: a list, say, which is no stand-in
                number = None
            slots.append((number, None) if number is not None else (None, param))
        missing = set(range(len(values))) - {number for number, _ in slots}
        if missing:
            raise ValueError(f"values {sorted(missing)} do not reach the query's SQL as given")
        return (alias, sql, tuple(slots)), compiler
