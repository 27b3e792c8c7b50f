"""Several saved comparisons joined into one (``report --merge``): runs of different days or machines.

Every run keeps where it came from (``RunRecord.origin``, an index into
``ComparisonResults.merged``, which holds each file's environment and settings). A configuration
label that an earlier file has already used on some of the same instances is renamed
``LABEL [k]`` (k: the file's place in the merge, from 1), so two machines' runs of one
configuration stand side by side rather than mixed; on disjoint instances the label is kept (a
set of instances run in parts). The files must be of one task and one time limit (PAR-2 is a
multiple of it).
"""

from __future__ import annotations

import dataclasses
import shlex
from typing import Sequence

from nqueens_cp.core.errors import ResultsFileError
from nqueens_cp.harness.configs import Configuration
from nqueens_cp.harness.results import Check, ComparisonResults, InstanceKey, MergedRun, RunRecord


def merge_results(named: Sequence[tuple[str, ComparisonResults]]) -> ComparisonResults:
    """The comparisons of ``named`` ((file name, results) pairs, at least two) as one;
    ``ResultsFileError`` when their tasks or time limits differ."""
    if len(named) < 2:
        raise ResultsFileError("--merge needs at least two results files")
    first_name, first = named[0]
    for name, results in named[1:]:
        if results.task.name != first.task.name:
            raise ResultsFileError(f"cannot merge {name} (task {results.task.name}) with {first_name} "
                                   f"(task {first.task.name})")
        if results.settings.timeout != first.settings.timeout:
            raise ResultsFileError(f"cannot merge {name} (timeout {results.settings.timeout:g} s) with {first_name} "
                                   f"(timeout {first.settings.timeout:g} s): PAR-2 needs one time limit")
    configurations: list[Configuration] = []
    instances_of: dict[str, set[InstanceKey]] = {}
    runs: list[RunRecord] = []
    checks: list[Check] = []
    merged: list[MergedRun] = []
    for index, (name, results) in enumerate(named):
        merged.append(MergedRun(name, results.environment, results.settings, results.started_at, results.finished_at))
        renamed: dict[str, str] = {}
        for configuration in results.configurations:
            mine = {r.instance_key for r in results.runs if r.config == configuration.label}
            label = configuration.label
            if label in instances_of and instances_of[label] & mine:
                label = f"{label} [{index + 1}]"
            renamed[configuration.label] = label
            if label not in instances_of:
                configurations.append(dataclasses.replace(configuration, label=label))
            instances_of.setdefault(label, set()).update(mine)
        runs += [dataclasses.replace(run, config=renamed.get(run.config, run.config), origin=index)
                 for run in results.runs]
        checks += [dataclasses.replace(check, config=renamed.get(check.config, check.config))
                   if check.config is not None else check for check in results.checks]
    ns = tuple(sorted({n for _, results in named for n in results.settings.ns}))
    command = shlex.join(["nqueens-cp", "report", "--merge", *(name for name, _ in named)])
    settings = dataclasses.replace(first.settings, ns=ns, command=command,
                                   repeat=max(results.settings.repeat for _, results in named))
    interruptions = [f"{name}: {results.interruption}" for name, results in named if not results.complete]
    return ComparisonResults(
        task=first.task, settings=settings, environment=first.environment, configurations=tuple(configurations),
        runs=tuple(runs), checks=tuple(checks), complete=not interruptions,
        started_at=min(results.started_at for _, results in named),
        finished_at=max(results.finished_at for _, results in named), interruption="; ".join(interruptions),
        merged=tuple(merged),
    )
