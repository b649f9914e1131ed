"""The terminal table (``scmj play``): the player at seat 0 against three bots, and the replay screen.

Only this package imports Textual (the optional extra ``tui``), and only in its screens and widgets (``app``,
``hand_over``, ``pages``, ``settings_screen``, ``replay_screen``, ``widgets``); :mod:`~sichuan_mahjong.tui.session`,
:mod:`~sichuan_mahjong.tui.settings`, :mod:`~sichuan_mahjong.text`, :mod:`~sichuan_mahjong.refusals` and
:mod:`~sichuan_mahjong.tui.replay` are plain Python, so ``scmj play --help`` and the table's logic work without it.
"""
