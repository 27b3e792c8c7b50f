"""Draw the fixed stratified sample of CSPLib problem 079's Excluded Diagonals instances.

Reads the paper's data (``../shared/csplib-prob079`` beside the repository, or ``--source``):
the instance tarballs ``diag-N.tar.gz`` and the results of the paper's bit solver,
``results-shiftqueens.tsv.gz``. For every n from 10 to 21 the sample holds

- ``hardest``: the 10 (D, id) rows with the most search nodes of the paper's solver (ties: more
  seconds, then smaller D and id). Nodes, not seconds: the paper's times have a resolution of
  1 ms, which ranks nothing for n <= 13; for n >= 16 the two rankings share most rows;
- ``D=k``: 2 instances drawn at random (fixed seed) for each k in {n/2, 3n/4, n, 5n/4, 3n/2}
  (rounded down; at most the largest D the paper ran for that n, so n = 10 has four strata),
  among the rows the hardest stratum did not take: both sides of the phase transition, which
  lies near D = n.

It writes ``instances/diag-N-4-ID.param`` (the CSPLib files, unchanged), ``answers.tsv`` (the
paper's rows for the sample, in its own columns: a file ``--answers`` reads) and ``sample.tsv``
(n, diagonals, id, stratum). Running it again gives the same files.

    python benchmarks/csplib079/make_sample.py [--source DIR]
"""

from __future__ import annotations

import argparse
import csv
import gzip
import io
import random
import tarfile
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_SOURCE = HERE.parents[2] / "shared" / "csplib-prob079"
SIZES = range(10, 22)
HARDEST = 10
PER_STRATUM = 2
FRACTIONS = ((1, 2), (3, 4), (1, 1), (5, 4), (3, 2))
COLUMNS = ("n", "diagonals", "id", "satisfiable", "nodes", "seconds")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--source", type=Path, default=DEFAULT_SOURCE, help="the csplib-prob079 folder")
    args = parser.parse_args(argv)
    rows_by_n: dict[int, list[dict[str, str]]] = defaultdict(list)
    with gzip.open(args.source / "results-shiftqueens.tsv.gz", "rt", encoding="utf-8") as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            rows_by_n[int(row["n"])].append(row)
    rng = random.Random("csplib079 sample 1")
    chosen: list[tuple[dict[str, str], str]] = []
    for n in SIZES:
        rows = rows_by_n[n]
        ranked = sorted(rows, key=lambda r: (-int(r["nodes"]), -float(r["seconds"]), int(r["diagonals"]), int(r["id"])))
        hardest = ranked[:HARDEST]
        taken = {(r["diagonals"], r["id"]) for r in hardest}
        chosen += [(r, "hardest") for r in hardest]
        largest = max(int(r["diagonals"]) for r in rows)
        for d in sorted({min(n * numerator // denominator, largest) for numerator, denominator in FRACTIONS}):
            pool = sorted((r for r in rows if int(r["diagonals"]) == d and (r["diagonals"], r["id"]) not in taken),
                          key=lambda r: int(r["id"]))
            chosen += [(r, f"D={d}") for r in rng.sample(pool, PER_STRATUM)]
    out = HERE / "instances"
    out.mkdir(exist_ok=True)
    wanted = {(int(r["n"]), int(r["id"])) for r, _ in chosen}
    for n in SIZES:
        with tarfile.open(args.source / f"diag-{n}.tar.gz") as archive:
            for member in archive.getmembers():
                name = Path(member.name).name
                if not name.endswith(".param"):
                    continue
                ident = int(name.removesuffix(".param").rsplit("-", 1)[1])
                if (n, ident) in wanted:
                    extracted = archive.extractfile(member)
                    assert extracted is not None
                    (out / name).write_bytes(extracted.read())
    chosen.sort(key=lambda item: (int(item[0]["n"]), item[1] != "hardest", int(item[0]["diagonals"]), int(item[0]["id"])))
    answers = io.StringIO()
    answers.write("\t".join(COLUMNS) + "\n")
    sample = io.StringIO()
    sample.write("n\tdiagonals\tid\tstratum\n")
    for row, stratum in chosen:
        answers.write("\t".join(row[c] for c in COLUMNS) + "\n")
        sample.write(f"{row['n']}\t{row['diagonals']}\t{row['id']}\t{stratum}\n")
    (HERE / "answers.tsv").write_text(answers.getvalue(), encoding="utf-8")
    (HERE / "sample.tsv").write_text(sample.getvalue(), encoding="utf-8")
    print(f"{len(chosen)} instances ({len(wanted)} files) written to {HERE}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
