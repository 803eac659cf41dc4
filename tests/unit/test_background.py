"""Calls started early and collected later (`agents.verifier.background`)."""

from __future__ import annotations

import threading

import pytest

from agents.verifier import background
from agents.verifier.background import Background


def test_collects_results_and_errors() -> None:
    bg = Background()
    ok = bg.start(lambda: 42)
    bad = bg.start(lambda: 1 / 0)
    assert bg.collect(ok, timeout=5) == 42
    with pytest.raises(ZeroDivisionError):
        bg.collect(bad, timeout=5)
    with pytest.raises(KeyError):
        bg.collect(ok)  # collected already
    bg.close()


def test_a_slow_call_times_out() -> None:
    bg = Background()
    gate = threading.Event()
    ticket = bg.start(lambda: gate.wait(5))
    with pytest.raises(TimeoutError):
        bg.collect(ticket, timeout=0.05)
    gate.set()
    bg.close()


def test_uncollected_tickets_are_dropped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(background, "MAX_PENDING", 3)
    bg = Background(workers=1)
    tickets = [bg.start(lambda i=i: i) for i in range(5)]
    with pytest.raises(KeyError):
        bg.collect(tickets[0])
    assert [bg.collect(t, timeout=5) for t in tickets[2:]] == [2, 3, 4]
    bg.close()
