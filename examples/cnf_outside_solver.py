"""Export the CNF of a board, solve it outside Python, read the answer back.

    python examples/cnf_outside_solver.py 12 seqcounter

The same as ``nqueens-cp export 12 --format dimacs --encoding seqcounter -o
q.cnf``, then ``cadical q.cnf`` (or ``minisat``), then ``nqueens-cp decode 12
answer.txt``. Exit status 0 with a checked board, 1 when no outside solver is
installed or its answer is not a solution.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from nqueens_cp import Instance, NQueensError, is_valid_solution
from nqueens_cp.export.decode import board_from_literals, parse_solver_output
from nqueens_cp.export.writers import export_model


def solve_outside(cnf: Path) -> str:
    """The answer of CaDiCaL (printed) or MiniSat (written to a file).

    A ``FileNotFoundError`` when neither is installed.
    """
    if shutil.which("cadical"):
        return subprocess.run(
            ["cadical", "-q", str(cnf)], capture_output=True, text=True
        ).stdout
    if shutil.which("minisat"):
        answer = cnf.with_suffix(".answer")
        subprocess.run(
            ["minisat", "-verb=0", str(cnf), str(answer)],
            capture_output=True,
            text=True,
        )
        return answer.read_text()
    raise FileNotFoundError("neither cadical nor minisat is on PATH")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        description="Solve the CNF of a board with an outside SAT solver."
    )
    parser.add_argument("n", type=int)
    parser.add_argument("encoding", nargs="?", default="seqcounter")
    args = parser.parse_args(argv)
    n, encoding = args.n, args.encoding
    instance = Instance(n)
    with tempfile.TemporaryDirectory() as scratch:
        cnf = Path(scratch) / f"queens{n}.cnf"
        cnf.write_text(export_model(instance, "dimacs", encoding))
        header = next(
            line
            for line in cnf.read_text().splitlines()
            if line.startswith("p cnf")
        )
        try:
            text = solve_outside(cnf)
        except FileNotFoundError as error:
            print(f"cnf_outside_solver: {error}", file=sys.stderr)
            return 1
    answer = parse_solver_output(text)
    board = board_from_literals(instance, answer.literals)
    print(f"{header} ({encoding}); the solver says {answer.status}")
    if board.solution is None or not is_valid_solution(
        instance, board.solution
    ):
        print("not a solution:", "; ".join(board.problems), file=sys.stderr)
        return 1
    print(" ".join(map(str, board.solution)), "(checked)")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except NQueensError as error:  # one line, as the command line says it
        print(f"cnf_outside_solver: {error}", file=sys.stderr)
        sys.exit(2)
