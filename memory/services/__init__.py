"""Memory writes, by subdomain: ``items`` (versioned rows and the student's controls), ``vectors``
(keeping the vector store in step with the rows), ``jobs`` (the extraction job's lifecycle) and
``extraction`` (the LLM's candidate facts and the ADD / UPDATE / INVALIDATE / NONE decisions)."""
