"""What the assistant's tools share: the tool contract (``base``), the registry, board and rule wording,
the working schedule, errors. ``agent/tools/`` itself holds one tool per module."""
