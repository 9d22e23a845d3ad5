from app.core.usecases.project_state import Problem
from tests.unit.services.world import DATA, world


def test_first_run_until_the_profiles_are_saved() -> None:
    w = world()
    assert w.s.profiles.first_run() == (True, [])
    w.s.profiles.save(w.s.profiles.list()[-1:])
    assert w.s.profiles.first_run() == (False, [])


def test_an_unreadable_settings_file_is_reported_once_and_left_alone() -> None:
    w = world()
    w.fs.files[f"{DATA}/settings.json"] = "{nope"
    shows, problems = w.s.profiles.first_run()
    [problem] = problems
    assert not shows and problem.file == f"{DATA}/settings.json"
    assert problem.message.startswith("invalid JSON at line 1") and DATA not in problem.message
    assert w.fs.files[f"{DATA}/settings.json"] == "{nope"
    assert isinstance(problem, Problem)
