"""Study plans (task classes) and their ordered blocks: pages at /plans/, API at /api/v1/task-classes/."""
