"""The configurations a comparison runs (see :class:`~nqueens_cp.backends.framework.configuration.Configuration`).

Every configuration is validated before anything runs, by constructing its backend: an unknown
backend, an unknown option or a bad value raises an ``NQueensError`` (exit status 2 on the
command line), and so does a backend whose solver package is missing.
"""

from __future__ import annotations

from typing import Callable, Iterable

from nqueens_cp.backends.framework.base import Answer, Backend
from nqueens_cp.backends.framework.configuration import Configuration
from nqueens_cp.backends.framework.registry import backend_class, backend_names
from nqueens_cp.core.errors import BackendOptionError, NQueensError
from nqueens_cp.harness.family_tasks import FamilyQuestion, FamilyTask

__all__ = ["DEFAULT_LARGEST_N", "DEFAULT_VARIANTS", "Configuration", "default_configuration_texts", "parse_configurations", "split_list"]

#: Backends the default comparison runs more than once, side by side (all other backends run
#: once with their default options). The three ``sat`` encodings are the classic ones: the
#: pairwise (binomial) encoding, Sinz's sequential counter and the totalizer.
DEFAULT_VARIANTS: dict[str, tuple[str, ...]] = {
    "sat": ("sat:encoding=pairwise", "sat:encoding=seqcounter", "sat:encoding=totalizer"),
}

#: Backends the default comparison of a family optimum runs more than once, side by side: the
#: ``sat`` backend's two optimisers, MaxSAT (RC2) and iterated SAT.
FAMILY_OPTIMUM_VARIANTS: dict[str, tuple[str, ...]] = {
    "sat": ("sat:optimiser=rc2", "sat:optimiser=iterated"),
}


#: Backends the default comparison runs only up to a board size, the largest n and why: each
#: enumerates by one solver call per solution, so every n of the default n = 4..11 with 3 repetitions
#: would take minutes more (measured, ``compare --n 4-11 --backends asp,pb,smt,mip --repeat 1`` under
#: load 8: pb no answer for n = 11 in 60 s, smt 52 s, mip 41 s at n = 8; asp counts n = 11 in 2 s and
#: runs every n). Their larger boards are recorded as skipped with the reason; named in
#: ``--backends`` they run every n (unless ``--largest-n`` says otherwise).
DEFAULT_LARGEST_N: dict[str, tuple[int, str]] = {
    "pb": (9, "Exact enumerates by one no-good per solution (22 s for n = 10)"),
    "smt": (9, "z3 enumerates by one blocking clause per solution (15 s for n = 10)"),
    "mip": (7, "HiGHS enumerates by one MIP solve per solution (41 s for n = 8)"),
}


def parse_configurations(texts: Iterable[str]) -> tuple[Configuration, ...]:
    """Parse and validate configurations; empty entries are ignored, repeats refused."""
    configurations: list[Configuration] = []
    for text in texts:
        if not text.strip():
            continue
        configuration = Configuration.parse(text)
        if any(existing.label == configuration.label for existing in configurations):
            raise BackendOptionError(f"configuration {configuration.label!r} is given twice")
        configurations.append(configuration)
    if not configurations:
        raise BackendOptionError("no configuration given")
    return tuple(configurations)


def refuse_unanswered(configurations: Iterable[Configuration], answer: Answer) -> None:
    """Refuse, in one line, a configuration whose backend does not give ``answer`` (before anything runs)."""
    for configuration in configurations:
        cls = configuration.backend_class()
        if answer not in cls.answers:
            raise BackendOptionError(f"{configuration.label}: {cls.refusal(answer)}")


def default_largest_n(configurations: Iterable[Configuration]) -> dict[str, tuple[int, str]]:
    """The bounds of :data:`DEFAULT_LARGEST_N` for those of ``configurations`` they concern, by label."""
    return {c.label: DEFAULT_LARGEST_N[c.backend] for c in configurations if c.backend in DEFAULT_LARGEST_N}


def parse_largest_n(text: str, configurations: Iterable[Configuration]) -> dict[str, tuple[int, str]]:
    """``--largest-n LABEL=N,...``: the largest board each named configuration is run on, by label."""
    labels = {c.label for c in configurations}
    bounds: dict[str, tuple[int, str]] = {}
    for part in split_list(text):
        label, sep, number = part.rpartition("=")
        if not sep or not label or not number.strip().isdigit():
            raise BackendOptionError(f"--largest-n: expected CONFIG=N, got {part!r}")
        label = Configuration.parse(label, available=False).label
        if label not in labels:
            raise BackendOptionError(f"--largest-n: {label!r} is not one of the configurations ({', '.join(sorted(labels))})")
        bounds[label] = (int(number), f"--largest-n {label}={int(number)}")
    return bounds


def refuse_unfixable(configurations: Iterable[Configuration]) -> None:
    """Refuse, in one line, a configuration whose backend cannot take pre-placed queens (before anything runs)."""
    for configuration in configurations:
        if not configuration.backend_class().supports_fixed:
            raise BackendOptionError(f"{configuration.label}: backend {configuration.backend} does not support "
                                     "pre-placed queens (the completion task places some)")


def split_list(text: str) -> list[str]:
    """Split a comma-separated ``--backends`` list."""
    return [part.strip() for part in text.split(",")]


def default_configuration_texts(answer: Answer = Answer.ALL, *, fixed: bool = False) -> list[str]:
    """The default comparison: every registered backend usable here that gives ``answer`` (one of
    ``Backend.answers``: the task's :attr:`~nqueens_cp.harness.tasks.Task.answer`), with the
    ``DEFAULT_VARIANTS`` side by side.

    A backend that cannot run here (``minizinc`` without the ``minizinc`` program, a broken
    plug-in) is left out of the default (:func:`default_left_out` says why); named in ``--backends``
    it is refused with the reason. The backends of :data:`DEFAULT_LARGEST_N` take part up to their
    bound (see :func:`default_largest_n`). With ``fixed`` (the completion task), backends that
    cannot take pre-placed queens are left out.
    """
    texts: list[str] = []
    left_out = default_left_out(answer, fixed=fixed)
    for name in backend_names():
        if name not in left_out:
            texts.extend(DEFAULT_VARIANTS.get(name, (name,)))
    return texts


def default_left_out(answer: Answer = Answer.ALL, *, fixed: bool = False) -> dict[str, str]:
    """The backends :func:`default_configuration_texts` leaves out, each with why: the reason
    ``nqueens-cp backends`` gives for one that cannot run here, else what it does not answer."""

    def refusal(cls: type[Backend]) -> str | None:
        if answer not in cls.answers:
            return f"it answers {', '.join(sorted(cls.answers))} only"
        if fixed and not cls.supports_fixed:
            return "it does not take pre-placed queens"
        return None

    return _left_out(lambda cls: True, refusal)


def _left_out(takes_part: Callable[[type[Backend]], bool],
              refusal: Callable[[type[Backend]], str | None]) -> dict[str, str]:
    """The registered backends that would take part (``takes_part``) but cannot, each with why:
    the reason ``nqueens-cp backends`` gives for one that cannot run here, else ``refusal``'s."""
    left_out: dict[str, str] = {}
    for name in backend_names():
        try:
            cls = backend_class(name)
            if not takes_part(cls):
                continue
            reason = cls.unavailable_reason()
        except NQueensError as error:
            left_out[name] = str(error)
            continue
        if reason is None:
            reason = refusal(cls)
        if reason is not None:
            left_out[name] = reason
    return left_out


def refuse_undeclared(configurations: Iterable[Configuration], task: FamilyTask) -> None:
    """Refuse, in one line, a configuration whose backend does not declare the family task's
    problem (``family``, or ``family_counts`` for a count), naming those that do."""
    for configuration in configurations:
        if not task.declared_by(configuration.backend_class()):
            takers = [name for name in backend_names() if task.declared_by(backend_class(name))]
            what = {FamilyQuestion.COUNT: "count placements of", FamilyQuestion.ALL: "enumerate placements of"}.get(
                task.family_question, "take")
            raise BackendOptionError(f"{configuration.label}: backend {configuration.backend} does not {what} "
                                     f"problem {task.problem} (those that do: {', '.join(takers) or 'none'})")


def default_family_texts(task: FamilyTask) -> list[str]:
    """The default comparison of a family task: every registered backend usable here that declares
    its problem (:meth:`~nqueens_cp.harness.family_tasks.FamilyTask.declared_by`), with its default options
    (an optimum: those of :data:`FAMILY_OPTIMUM_VARIANTS` once per variant)."""
    left_out = default_family_left_out(task)
    variants = FAMILY_OPTIMUM_VARIANTS if task.family_question is FamilyQuestion.OPTIMUM else {}
    return [text for name in backend_names() if name not in left_out and task.declared_by(backend_class(name))
            for text in variants.get(name, (name,))]


def default_family_left_out(task: FamilyTask) -> dict[str, str]:
    """The backends that declare the family task's problem but cannot run here, each with why
    (the backends that do not declare it never take part, and are not listed)."""
    return _left_out(task.declared_by, lambda cls: None)
