"""Quick notes (the ``Task`` model): dashboard actions at /tasks/, API at /api/v1/tasks/."""
