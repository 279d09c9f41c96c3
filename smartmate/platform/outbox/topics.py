"""Topics that more than one app names: the publisher and its consumers import the name from here.

A consumer in a lower app (memory learns from the assistant's finished turns) must not import the
publishing app above it, so the name they share lives in the shared core.
"""

TURN_FINISHED = "agent.turn_finished"
