"""Reading torch ops, the rewrite patterns and the passes that lower or decompose them."""
