"""Writes of the assistant, one module per job (reads are ``agent.selectors``).

- ``conversations``: create, rename, archive and delete conversations.
- ``turns``: start, resume, regenerate and cancel turns, holding one running turn per conversation.
- ``dispatch``: where a started turn runs (a Celery worker, or this process's ``agent.embedded_turns``).
- ``running``: run a turn through the graph to its end, checkpointing, then release the conversation.
- ``tickets``: single-use tickets that open the websocket for API clients.

- ``leases``, ``recovery``: a running turn's lease, and the sweeper that resumes or ends stalled turns.
- ``reservations``: the quota a running turn's calls hold, given back when a dead attempt left it open.

Imports go one way, so none comes back round: ``turns`` -> ``dispatch`` -> ``running`` -> ``leases``;
``agent.tasks`` queues nothing itself (services queue it by name) and calls ``running`` and ``recovery``.
"""
