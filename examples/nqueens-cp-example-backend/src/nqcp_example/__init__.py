"""An example nqueens-cp backend, registered through an entry point."""
