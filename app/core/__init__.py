"""Pure core of IdeA: domain, ports and use cases.

Nothing here performs I/O, starts threads or imports an adapter; `tests/unit/test_core_purity.py`
enforces it.
"""
