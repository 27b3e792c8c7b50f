"""``python -m nqueens_cp``: the same as the ``nqueens-cp`` command."""

from .cli import main

raise SystemExit(main())
