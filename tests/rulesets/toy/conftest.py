import importlib
import sys

import pytest

from scoring.engine.ruleset import unregister

ENGINE = "tests.rulesets.toy.engine"
BARE = "tests.rulesets.toy.bare.engine"


def registered(engine: str):
    """The ruleset an engine package registers (its one ``register_package`` call runs on import,
    or again on a reload once an earlier test took it out)."""
    module = sys.modules.get(engine)
    module = importlib.import_module(engine) if module is None else importlib.reload(module)
    return module.BARE if engine == BARE else module.TOY


@pytest.fixture
def toy():
    """The toy ruleset registered for one test, and taken out after."""
    yield registered(ENGINE)
    unregister("toy")


@pytest.fixture
def bare_toy():
    """The toy registered from tests/rulesets/toy/bare/, whose form side overrides nothing of the
    plug-in class (scoring/handform/base.py FormSide), for one test."""
    yield registered(BARE)
    unregister("toy")
