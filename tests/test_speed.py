"""The suite's own layout for its xdist workers (tests/speed.py ``share_out``)."""

import pytest

from tests import speed
from tests.speed import kind, share_out


class Item:
    def __init__(self, name: str, fixtures=(), transaction=None, long=False):
        self.name = self.nodeid = name
        self.fixturenames = list(fixtures)
        self.markers = {"long": pytest.mark.long.mark} if long else {}
        if transaction is not None:
            self.markers["django_db"] = pytest.mark.django_db(transaction=transaction).mark

    def get_closest_marker(self, name):
        return self.markers.get(name)

    def __repr__(self):
        return self.name


def collection():
    db = [Item(f"db{i}", transaction=False) for i in range(6)]
    browser = [Item(f"br{i}", ["live_server"], transaction=True) for i in range(4)]
    plain = [Item(f"plain{i}") for i in range(10)]
    return db + browser + plain  # as pytest-django orders them


def test_each_worker_gets_its_share_of_each_kind_in_pytest_djangos_order():
    items = collection()
    runs = share_out(items, 2)
    assert sorted(map(repr, runs)) == sorted(map(repr, items))  # nothing lost, nothing twice
    first, second = runs[:10], runs[10:]  # worksteal hands each worker an equal run
    for run in (first, second):
        kinds = [kind(item) for item in run]
        assert kinds == sorted(kinds)  # database, then transactional, then none
        assert kinds.count(0) == 3
        assert kinds.count(1) == 2
    assert [repr(i) for i in first if kind(i) == 1] == ["br0", "br2"]  # dealt in turn


def test_each_worker_starts_with_its_share_of_the_long_tests_then_keeps_pytest_djangos_order():
    long = [Item(f"long{i}", long=True) for i in range(3)]
    items = collection()[:6] + long + collection()[6:]  # as collected: among the plain tests
    runs = share_out(items, 2)
    assert sorted(map(repr, runs)) == sorted(map(repr, items))
    first, second = runs[:11], runs[11:]
    assert [repr(i) for i in first[:2]] == ["long0", "long2"]  # dealt in turn, each run's first
    assert [repr(i) for i in second[:1]] == ["long1"]
    for rest in (first[2:], second[1:]):
        assert [kind(item) for item in rest] == sorted(kind(item) for item in rest)
        assert [kind(item) for item in rest].count(0) == 3
    assert not long_marked(runs[2:11] + runs[12:])


def long_marked(items) -> list:
    return [item for item in items if item.get_closest_marker("long")]


def test_the_longest_are_dealt_first_each_to_the_worker_with_the_fewest_seconds_and_started_first(monkeypatch):
    monkeypatch.setattr(speed, "SECONDS", {"long0": 10, "br0": 1, "br1": 9, "br2": 4, "br3": 4})
    items = [*collection()[:6], Item("long0", long=True), *collection()[6:]]
    runs = share_out(items, 2)
    assert sorted(map(repr, runs)) == sorted(map(repr, items))
    first, second = runs[:10], runs[10:]
    # long0 (10 s) on one worker; br1 (9), then br2 (4) where there is less, br3 (4) on the other, br0 last
    assert [repr(i) for i in first if kind(i) == 1 or long_marked([i])] == ["long0", "br3"]
    assert [repr(i) for i in second if kind(i) == 1] == ["br1", "br2", "br0"]  # longest first
    for run in (first, second):
        kinds = [kind(item) for item in run if not long_marked([item])]
        assert kinds == sorted(kinds)


def test_a_test_is_expected_to_take_its_seconds_else_its_kinds_guess(monkeypatch):
    monkeypatch.setattr(speed, "SECONDS", {"tests/x.py::test_evening[one]": 30, "tests/x.py::test_tour": 12})
    assert speed.seconds(Item("tests/x.py::test_evening[one]", ["live_server"], transaction=True)) == 30
    assert speed.seconds(Item("tests/x.py::test_tour[en]", ["live_server"], transaction=True)) == 12  # every parameter
    assert speed.seconds(Item("tests/x.py::test_evening[two]", ["live_server"], transaction=True)) == speed.GUESS[1]
    assert speed.seconds(Item("tests/x.py::test_bench", long=True)) == speed.GUESS["long"]
    assert speed.seconds(Item("tests/x.py::test_plain")) == 0


def test_every_test_timed_is_a_test_that_exists():
    """A renamed or removed test leaves no stale name in SECONDS (which would quietly count as a guess)."""
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    missing = [
        nodeid
        for nodeid in sorted(speed.SECONDS)
        if f"def {nodeid.split('::')[-1].split('[')[0]}("
        not in (root / nodeid.split("::")[0]).read_text(encoding="utf-8")
    ]
    assert missing == []


def test_each_run_is_laid_out_as_long_as_worksteal_hands_it_out(monkeypatch):
    monkeypatch.setattr(speed, "SECONDS", {"long0": 9, "long1": 8, "long2": 7})
    items = [*collection(), Item("plain10"), *(Item(f"long{i}", long=True) for i in range(3))]  # 24 for 3 runs
    items.pop(0)  # 23: runs of 7, 8 and 8
    assert speed.run_sizes(23, 3) == [7, 8, 8]
    runs = share_out(items, 3)
    starts = [0, 7, 15]
    assert [repr(runs[start]) for start in starts] == ["long0", "long1", "long2"]  # each run's first
    assert not long_marked(runs[1:7] + runs[8:15] + runs[16:])


def test_a_collection_that_cannot_be_shared_out_is_left_as_it_was():
    items = [Item(f"br{i}", ["live_server"], transaction=True) for i in range(7)]  # 4 for a run of 3
    assert share_out(items, 2) == items


def test_every_slow_test_named_is_a_test_that_exists():
    """A renamed or removed test leaves no stale name in SLOW (which would quietly put nothing aside)."""
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    missing = [
        nodeid
        for nodeid in sorted(speed.SLOW)
        if f"def {nodeid.split('::')[-1]}(" not in (root / nodeid.split("::")[0]).read_text(encoding="utf-8")
    ]
    assert missing == []
    assert len(speed.SLOW) < 150  # the slowest twentieth at most, not a second suite
