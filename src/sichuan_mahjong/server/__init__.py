"""The web table's server (``scmj serve``): rooms of four seats, people and bots, over HTTP and websockets.

``wire`` builds and reads every message (plain Python); ``room`` plays one room's match (``seats`` holds its
parts); ``lobby`` holds the rooms of a process; ``store`` keeps them in SQLite; ``limits`` holds what one client
may ask (rate limits per address, JSON depth, text checks, log limits); ``app`` is the Starlette application
and ``httpguard`` the uvicorn protocols under it (extra ``web``). docs/protocol.md describes the protocol
with an example session.
"""
