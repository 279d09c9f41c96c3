"""The assistant's turn as a pure flow: typed state, the graph of nodes, prompts and the deps they call.

Nothing here touches the database, the channel layer or Celery: a turn's effects reach the world only
through the ports in ``deps`` (``TurnServices``), filled in by the Django edge (``agent/turn_services.py``,
``agent/toolbox.py``). A purity test keeps it so (``agent/tests/test_flow_purity.py``).
"""
