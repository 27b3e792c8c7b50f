"""Write the stratified sample this report ran: one instance per stratum per n = 10..18.

For each n and each stratum of ``benchmarks/csplib079/sample.tsv`` (``hardest``, and the five
``D=k`` near the phase transition; n = 10 has four ``D=k``), the sampled instance on which the
paper's solver needed the most nodes; its row of ``benchmarks/csplib079/answers.tsv`` (the
paper's answer, CC BY 4.0, Gent, Jefferson, Nightingale, JAIR 59 (2017)) is written unchanged.

    python reports/csplib079/pick_strata.py > reports/csplib079/answers-sample.tsv
"""

import csv
import sys
from pathlib import Path

DATA = Path(__file__).resolve().parents[2] / "benchmarks" / "csplib079"


def main() -> None:
    with open(DATA / "answers.tsv", newline="") as handle:
        answers = list(csv.DictReader(handle, delimiter="\t"))
    by_key = {(row["n"], row["diagonals"], row["id"]): row for row in answers}
    picked: dict[tuple[int, str], dict[str, str]] = {}
    with open(DATA / "sample.tsv", newline="") as handle:
        for sampled in csv.DictReader(handle, delimiter="\t"):
            if not 10 <= int(sampled["n"]) <= 18:
                continue
            row = by_key[(sampled["n"], sampled["diagonals"], sampled["id"])]
            key = (int(sampled["n"]), sampled["stratum"])
            if key not in picked or int(row["nodes"]) > int(picked[key]["nodes"]):
                picked[key] = row
    writer = csv.DictWriter(sys.stdout, fieldnames=list(answers[0]), delimiter="\t", lineterminator="\n")
    writer.writeheader()
    for key in sorted(picked):
        writer.writerow(picked[key])


if __name__ == "__main__":
    main()
