"""Task writes: quick notes now; study plans (task classes) with the planner."""
