"""The scripts of examples/python run to their end."""

import pathlib
import subprocess
import sys

import pytest

EXAMPLES = sorted((pathlib.Path(__file__).resolve().parents[2] / "examples" / "python").glob("*.py"))


@pytest.mark.parametrize("script", EXAMPLES, ids=[path.name for path in EXAMPLES])
def test_the_example_runs(script):
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip(), "the example printed nothing"


def test_every_example_is_found():
    assert len(EXAMPLES) >= 3


def test_the_openspiel_extra_installs_what_the_documented_examples_need():
    """Value iteration on a simultaneous-move game (openspiel_solve.py,
    docs/python.md) needs cvxpy and its ECOS solver beside OpenSpiel."""
    tomllib = pytest.importorskip("tomllib")
    pyproject = pathlib.Path(__file__).resolve().parents[1] / "pyproject.toml"
    extra = tomllib.loads(pyproject.read_text())["project"]["optional-dependencies"]["openspiel"]
    names = {requirement.split(">")[0].split("=")[0].split("<")[0] for requirement in extra}
    assert {"open-spiel", "cvxpy", "ecos"} <= names
