"""Collection for the whole suite. ``spec_bots_broken.py`` is a bot module whose own import fails on purpose
(tests/sim/test_sim_spec.py reads the error it gives); ``--doctest-modules`` would import it as a test module."""

collect_ignore = ["spec_bots_broken.py"]
