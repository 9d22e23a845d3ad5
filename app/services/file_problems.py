"""Telling the windows what reading a file of `.ideai/` again found (shared by the services a
file watcher calls)."""

from __future__ import annotations

from app.core.events import ProblemRaised, ProblemResolved
from app.core.ports import EventSink
from app.core.usecases.project_files import FileReload


def announce(events: EventSink, root: str, file: str, outcome: FileReload) -> None:
    """`ProblemRaised` for each of the file's new problems, `ProblemResolved` when its earlier
    ones are gone; nothing when reading it found nothing new."""
    if not outcome.changed:
        return
    for problem in outcome.problems:
        events.publish(ProblemRaised(problem.file, problem.message, root, problem.recovery))
    if outcome.resolved:
        events.publish(ProblemResolved(file, root))
