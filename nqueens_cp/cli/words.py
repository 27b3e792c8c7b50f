"""The command line's words for what the package says in the API's: its option flags, and its
error messages rewritten with them. Imports nothing of the command line (``cli`` uses it when a
command fails)."""

from __future__ import annotations

#: The backend options that have a flag of their own on the solving commands (others go by ``-O``).
OPTION_FLAGS: dict[str, str] = {
    "encoding": "--encoding",
    "solver": "--solver",
    "search_workers": "--search-workers",
    "time_limit": "--time-limit",
}


def command_line_words(message: str) -> str:
    """An error message of the package in the command line's words: ``backend "A" or "B"`` becomes
    ``--backend A or B``, ``option NAME=VALUE`` its flag (``--encoding seqcounter``) or ``-O NAME=VALUE``,
    and the memory budget (``memory_budget_mb``) ``--max-model-mb``."""
    import re

    def backends(match: re.Match[str]) -> str:
        return "--backend " + match.group(1).replace('"', "")

    def option(match: re.Match[str]) -> str:
        name, value = match.group(1), match.group(2)
        return f"{OPTION_FLAGS[name]} {value}" if name in OPTION_FLAGS else f"-O {name}={value}"

    message = message.replace("(memory_budget_mb)", "(--max-model-mb)")
    message = re.sub(r'\bbackend ("[\w-]+"(?:(?:, | or )"[\w-]+")*)', backends, message)
    return re.sub(r"\boption (\w+)=([\w.-]+)", option, message)
