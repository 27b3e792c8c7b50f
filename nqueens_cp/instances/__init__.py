"""Where instances come from beyond a plain board size: CSPLib 079's instance files, the Excluded
Diagonals problem and random completion instances."""
