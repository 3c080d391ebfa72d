"""The AND-OR prover over belief states and its last-move kernel."""
