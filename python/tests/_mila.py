"""MILA's `diplomacy` package for the tests that compare with it.

Without MILA those tests are skipped, so that dip's own tests run anywhere;
with DIP_REQUIRE_MILA=1 (scripts/python-tests.sh, CI) a missing or broken
MILA is an error instead of a silent skip."""
import importlib
import os

import pytest


def mila_module(name):
    """The module `name` of MILA's package (e.g. 'diplomacy.tests.test_datc')."""
    if os.environ.get('DIP_REQUIRE_MILA') == '1':
        return importlib.import_module(name)
    return pytest.importorskip(name)
