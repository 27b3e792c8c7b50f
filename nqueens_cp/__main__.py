"""``python -m nqueens_cp``: the same as the ``nqueens-cp`` command."""

from nqueens_cp.cli import run

if __name__ == "__main__":  # worker processes re-import the main module: they must not run the CLI
    run()
