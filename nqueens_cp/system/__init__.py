"""Process plumbing: child processes and their limits, Ctrl-C and SIGTERM, atomic file writes,
progress lines, and the numba set-up of the compiled code."""
