import importlib
import sys

import pytest

from scoring.engine.ruleset import unregister

ENGINE = "tests.rulesets.toy.engine"


@pytest.fixture
def toy():
    """The toy ruleset registered for one test (its engine's one ``register_package`` call runs
    on import, or again on a reload once an earlier test took it out), and taken out after."""
    module = sys.modules.get(ENGINE)
    module = importlib.import_module(ENGINE) if module is None else importlib.reload(module)
    yield module.TOY
    unregister("toy")
