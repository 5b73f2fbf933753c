"""The serve benchmark's page burst, without the burst: every request it sends is answered
as it expects (through Starlette's TestClient), and its report says what it measured."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx")

from starlette.testclient import TestClient

from benchmarks.serve_load import END, START, Run, markdown, page_requests
from rummikub.web import create_app


def test_every_page_request_is_answered_as_expected() -> None:
    client = TestClient(create_app())
    requests = page_requests()
    assert len({path for path, _, _ in requests}) == len(requests) == 8
    for path, body, good in requests:
        response = client.post(path, json=body)
        assert response.status_code == 200, (path, response.text)
        assert good(response.json()), path
    # The checks can fail: a wrong answer is caught.
    path, body, good = requests[1]
    assert not good({"value": 7})


def test_the_report_has_the_page_burst_and_the_start() -> None:
    runs = [Run(10.0, (0.5,) * 200, ())]
    page = Run(4.0, (0.2,) * 199 + (2.0,), ("request 3 /api/check: HTTP 500",))
    section = markdown(runs, 200, 2, "python -m benchmarks serve", page=page, start=(0.9, 2.5))
    assert section.startswith(START) and section.rstrip().endswith(END)
    assert "| page | 50.0 | 200 ms |" in section
    assert "1 of 400 requests lost or failed" in section
    assert "answers after **0.90 s**" in section and "first solve after **2.50 s**" in section
    plain = markdown(runs, 200, 2, "python -m benchmarks serve")
    assert "| page |" not in plain and "0 of 200 requests" in plain
