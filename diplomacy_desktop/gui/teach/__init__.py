"""Teaching: the sandbox, explanations, step-through and the lesson library."""
