"""OR-Tools' messages read and written as bytes (rummikub/solver/wire.py) agree with
protobuf's own messages: the template's records, their bounds, a node's values."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ortools.linear_solver import linear_solver_pb2, pywraplp

from rummikub.rules import STANDARD, Rules
from rummikub.solver import wire
from rummikub.solver.candidates import group_candidates
from rummikub.solver.group_counts import counts_groups
from rummikub.solver.template import lay_base, play_template
from rummikub.tile_index import TileIndex

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
    """The template's records (written without a solver, rummikub/solver/records.py) are
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
    lay_base(built, rules, index, columns, flow=True, played=every, balanced=every, groups=counted)
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
    row = template.base.balance[0]
    loaded = template.load({0: 2.0}, {row: (1.0, 1.0)})
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
