"""A bot module whose own dependency is missing (tests/sim/test_sim_spec.py): the error names that dependency."""

import importlib

importlib.import_module("a_dependency_nobody_installed")
