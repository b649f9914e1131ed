"""The web table's server (``scmj serve``): rooms of four seats, people and bots, over HTTP and websockets.

``wire`` builds and reads every message (plain Python); ``room`` plays one room's match (``seats`` holds its
parts); ``lobby`` holds the rooms of a process; ``store`` keeps them in SQLite; ``app`` is the Starlette
application (extra ``web``). docs/protocol.md describes the protocol with an example session.
"""
