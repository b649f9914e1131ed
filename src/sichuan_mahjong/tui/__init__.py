"""The terminal table (``scmj play``): the player at seat 0 against three bots.

Only this package imports Textual (the optional extra ``tui``), and only in :mod:`sichuan_mahjong.tui.app`;
:mod:`~sichuan_mahjong.tui.session`, :mod:`~sichuan_mahjong.tui.settings` and :mod:`~sichuan_mahjong.tui.text`
are plain Python, so ``scmj play --help`` and the table's logic work without it.
"""
