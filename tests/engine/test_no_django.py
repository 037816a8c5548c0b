"""The engine is plain Python: importing it and every ruleset's engine loads no Django."""

import subprocess
import sys
from pathlib import Path

MAIN = Path(__file__).resolve().parents[2]


def test_engine_imports_no_django():
    """The engine and every ruleset's engine (all of them loaded, each 算牌 too: a ruleset may have
    none, scoring/engine/ruleset.py) run without Django."""
    code = (
        "import sys, scoring.engine, scoring.engine.analyse; rulesets = scoring.engine.all_rulesets(); "
        "assert len(rulesets) >= 3 and sum(r.analyser is not None for r in rulesets) >= 3; "
        "assert not any(m.startswith('django') for m in sys.modules), sorted(m for m in sys.modules if 'django' in m)"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=MAIN, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
