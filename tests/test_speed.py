"""The suite's own layout for two xdist workers (tests/speed.py ``share_out``)."""

import pytest

from tests.speed import kind, share_out


class Item:
    def __init__(self, name: str, fixtures=(), transaction=None):
        self.name, self.fixturenames = name, list(fixtures)
        self.marker = None if transaction is None else pytest.mark.django_db(transaction=transaction).mark

    def get_closest_marker(self, name):
        return self.marker if name == "django_db" else None

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


def test_a_collection_that_cannot_be_shared_out_is_left_as_it_was():
    items = [Item(f"br{i}", ["live_server"], transaction=True) for i in range(7)]  # 4 for a run of 3
    assert share_out(items, 2) == items
