"""OR-Tools' messages read and written as bytes (rummikub/core/lp/wire.py) agree with
protobuf's own messages: the template's records, their bounds, a node's values."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ortools.linear_solver import linear_solver_pb2, pywraplp

from rummikub.core.lp import wire
from rummikub.core.lp.rows import Rows
from rummikub.tiles.rules import STANDARD, Rules
from rummikub.tiles.solver.candidates import group_candidates
from rummikub.tiles.solver.group_counts import counts_groups
from rummikub.tiles.solver.template import lay_base, play_template
from rummikub.tiles.tile_index import TileIndex

bounds = st.floats(allow_nan=False) | st.sampled_from([0.0, -0.0, math.inf, -math.inf])
names = st.text(max_size=12)


@st.composite
def models(draw: st.DrawFn) -> Any:
    """An MPModelProto of a few variables and rows, every field that a template's has."""
    model = linear_solver_pb2.MPModelProto()
    model.name = draw(names)
    model.maximize = draw(st.booleans())
    count = draw(st.integers(0, 6))
    for _ in range(count):
        variable = model.variable.add()
        variable.lower_bound, variable.upper_bound = draw(bounds), draw(bounds)
        variable.is_integer = draw(st.booleans())
        variable.objective_coefficient = draw(bounds)
        variable.name = draw(names)
    for _ in range(draw(st.integers(0, 6))):
        row = model.constraint.add()
        row.lower_bound, row.upper_bound = draw(bounds), draw(bounds)
        row.name = draw(names)
        for index in draw(st.lists(st.integers(0, max(0, count - 1)), max_size=5)):
            row.var_index.append(index)
            row.coefficient.append(draw(bounds))
    return model


def _parsed(kind: type, data: bytes) -> Any:
    message = kind()
    message.ParseFromString(data)
    return message


@settings(max_examples=60, deadline=None)
@given(models(), bounds, bounds)
def test_records_and_their_bounds_read_as_protobuf_reads_them(
    model: Any, lower: float, upper: float
) -> None:
    data = model.SerializeToString()
    found = list(wire.fields(data))
    variables = [part for number, part, _ in found if number == wire.MODEL_VARIABLE]
    rows = [part for number, part, _ in found if number == wire.MODEL_CONSTRAINT]
    assert b"".join(whole for _, _, whole in found) == data
    assert [_parsed(linear_solver_pb2.MPVariableProto, v) for v in variables] == list(
        model.variable
    )
    assert [_parsed(linear_solver_pb2.MPConstraintProto, r) for r in rows] == list(model.constraint)
    for parts, kind, name, (low, high), originals in (
        (variables, linear_solver_pb2.MPVariableProto, wire.VARIABLE_NAME,
         wire.VARIABLE_BOUNDS, model.variable),
        (rows, linear_solver_pb2.MPConstraintProto, wire.CONSTRAINT_NAME,
         wire.CONSTRAINT_BOUNDS, model.constraint),
    ):  # fmt: skip
        for part, original in zip(parts, originals, strict=True):
            expected = kind()
            expected.CopyFrom(original)
            expected.ClearField("name")
            assert _parsed(kind, wire.without(part, (name,))) == expected
            expected.lower_bound, expected.upper_bound = lower, upper
            bounded = wire.without(part, (name, low, high))
            bounded += wire.double(low, lower) + wire.double(high, upper)
            assert _parsed(kind, bounded) == expected
            field = wire.length_delimited(wire.MODEL_CONSTRAINT, bounded)
            assert wire.payload(field) == bounded


@settings(max_examples=60, deadline=None)
@given(st.lists(bounds, max_size=40), st.integers(0, 5))
def test_values_read_as_protobuf_reads_them(values: list[float], status: int) -> None:
    response = linear_solver_pb2.MPSolutionResponse()
    response.status = status  # type: ignore[assignment]
    response.objective_value = 1.5
    response.variable_value.extend(values)
    response.dual_value.extend(values[:3])
    data = response.SerializeToString()
    assert wire.doubles(data, wire.RESPONSE_VALUES) == list(response.variable_value)
    # The same values one by one rather than packed (protobuf readers take both).
    one_by_one = b"".join(wire.double(wire.RESPONSE_VALUES, v) for v in values)
    assert wire.doubles(one_by_one, wire.RESPONSE_VALUES) == values


def test_a_message_cut_short_is_an_error() -> None:
    model = linear_solver_pb2.MPModelProto()
    model.variable.add().name = "x"
    data = model.SerializeToString()
    with pytest.raises(ValueError, match="cut short"):
        list(wire.fields(data[:-1]))


@pytest.mark.parametrize(
    "rules",
    [STANDARD, STANDARD.replace(jokers=0), Rules(numbers=26, colors="KRBOGYPW", copies=4)],
)
def test_the_template_is_the_model_it_was_built_from(rules: Rules) -> None:
    """The template's records (written without a solver, rummikub/core/lp/records.py) are
    its model laid through pywraplp as protobuf exports it, without names, byte for byte;
    a bounded record is that with its bounds changed."""
    play_template.cache_clear()  # built here, not by an earlier test
    template = play_template(rules)
    assert template is not None
    built = pywraplp.Solver.CreateSolver("CLP")
    index = TileIndex(rules)
    counted = counts_groups(rules)
    columns = [] if counted else list(enumerate(group_candidates(rules).needs))
    every = range(index.size)
    live = Rows(built)  # the same builder's calls, into the live model
    lay_base(live, rules, index, columns, flow=True, played=every, balanced=every, groups=counted)
    exported = linear_solver_pb2.MPModelProto()
    built.ExportModelToProto(exported)
    for part in (*exported.variable, *exported.constraint):
        part.ClearField("name")
    records = linear_solver_pb2.MPModelProto()
    records.ParseFromString(b"".join(template.records))
    assert list(records.variable) == list(exported.variable)
    assert list(records.constraint) == list(exported.constraint)
    assert template.variables == len(exported.variable)
    assert template.records == [
        *(
            wire.length_delimited(wire.MODEL_VARIABLE, v.SerializeToString())
            for v in exported.variable
        ),
        *(
            wire.length_delimited(wire.MODEL_CONSTRAINT, r.SerializeToString())
            for r in exported.constraint
        ),
    ]
    # Its columns (for live copies) are its rows read by column.
    terms: list[list[tuple[int, bytes]]] = [[] for _ in range(template.variables)]
    heads = []
    for r, record in enumerate(template.records[template.variables :]):
        part = wire.payload(record)
        ks = wire.varints(part, wire.CONSTRAINT_VARIABLES)
        coefficients = wire.doubles(part, wire.CONSTRAINT_COEFFICIENTS)
        for k, coefficient in zip(ks, coefficients, strict=True):
            terms[k].append((r, wire.double_bytes(coefficient)))
        heads.append(wire.without(part, (wire.CONSTRAINT_VARIABLES, wire.CONSTRAINT_COEFFICIENTS)))
    assert template.columns[:2] == (tuple(map(tuple, terms)), tuple(heads))
    row = template.base.balance[0]
    loaded = template.load({0: 2.0}, {row: (1.0, 1.0)}).solver
    assert (loaded.variable(0).lb(), loaded.variable(0).ub()) == (0.0, 2.0)
    assert (loaded.constraint(row).lb(), loaded.constraint(row).ub()) == (1.0, 1.0)
    assert loaded.NumConstraints() == len(exported.constraint)


def test_a_pywraplp_that_takes_only_protobuf_messages() -> None:
    """Where a method refuses anything but a protobuf message, the bytes go through one."""
    solver = pywraplp.Solver.CreateSolver("CLP")
    solver.NumVar(0.0, 3.0, "x")

    def strict(message: Any) -> Any:
        if not isinstance(message, linear_solver_pb2.MPModelProto):
            raise TypeError("expected an MPModelProto")
        return solver.ExportModelToProto(message)

    data = wire.through(strict)
    assert _parsed(linear_solver_pb2.MPModelProto, data).variable[0].upper_bound == 3.0
    assert wire.through(solver.ExportModelToProto) == data


def test_packed_varints_read_back() -> None:
    """Packed varints as OR-Tools writes a row's variables, one byte or more each."""
    row = linear_solver_pb2.MPConstraintProto()
    row.var_index.extend([0, 5, 127, 128, 300, 16384])
    row.coefficient.extend([1.0, -1.0, 2.0, 1.0, 1.0, 3.0])
    data = row.SerializeToString()
    assert wire.varints(data, wire.CONSTRAINT_VARIABLES) == [0, 5, 127, 128, 300, 16384]
    table = wire.varint_table(20000)
    packed = [value for n, value, _ in wire.fields(data) if n == wire.CONSTRAINT_VARIABLES]
    assert packed == [b"".join(table[k] for k in row.var_index)]


@pytest.mark.parametrize("jokers", [0, 2])
def test_the_live_part_of_a_template_is_the_template_where_it_may_move(jokers: int) -> None:
    """A model of the template's variables that may move alone, and of the rows they
    enter or that are bounded, holds exactly the terms and bounds of the whole copy
    there; every row it leaves out holds none of those variables and admits 0."""
    template = play_template(STANDARD.replace(jokers=jokers))
    assert template is not None
    base = template.base
    played = list(base.played.values())[:5]
    columns = [i for _, i in base.columns[::7]]
    flow = [i for color in base.flow.colors for i in color.start.values()] if base.flow else []
    uppers = {i: 2.0 for i in played + columns + flow[::3]}
    rows = {base.balance[3]: (1.0, 1.0), base.balance[40]: (2.0, 2.0)}
    whole = template.load(uppers, rows).solver
    model, live, kept = template.load_live(uppers, rows)
    solver = model.solver
    assert live == sorted(uppers)
    assert solver.NumVariables() == len(live) < template.variables
    for k, i in enumerate(live):
        assert (solver.variable(k).lb(), solver.variable(k).ub()) == (0.0, uppers[i])
        assert solver.variable(k).integer()
    free = set(live)
    for r in range(whole.NumConstraints()):
        row = whole.constraint(r)
        terms = {
            live.index(v.index()): row.GetCoefficient(v)
            for v in whole.variables()
            if v.index() in free and row.GetCoefficient(v)
        }
        if r not in kept:
            assert not terms and row.lb() <= 0.0 <= row.ub()
            continue
        copy = solver.constraint(kept[r])
        assert (copy.lb(), copy.ub()) == (row.lb(), row.ub())
        laid = {v.index(): copy.GetCoefficient(v) for v in solver.variables()}
        assert {k: c for k, c in laid.items() if c} == terms
    assert sorted(kept.values()) == list(range(solver.NumConstraints()))
