"""Every rules conformance vector (tests/conformance/*/*.yaml) as one test case."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.conformance import load_vector, run_file, run_vector

HERE = Path(__file__).parent
VECTORS = sorted(HERE.rglob("*.yaml"))


def test_there_are_vectors() -> None:
    assert len(VECTORS) >= 40


def test_both_systems_have_vectors_and_say_which_they_are_for() -> None:
    for system in ("dif", "lockedon"):
        mine = sorted((HERE / system).glob("*.yaml"))
        assert len(mine) >= 25, system
        for path in mine:
            assert load_vector(path).get("system", "dif") == system, path.name


def test_every_example_of_locked_on_has_a_vector() -> None:
    """LO-01..LO-28: the dogfight's, the missions' (LO-20, LO-21: game vectors) and the
    campaign's (LO-22, LO-28: campaign vectors, ``campaign:`` instead of ``setup:``)."""
    names = {p.name[:5] for p in (HERE / "lockedon").glob("lo-*.yaml")}
    wanted = {f"lo-{n:02d}" for n in range(1, 29)}
    assert sorted(wanted - names) == []
    for name in ("lo-22-campaign-total.yaml", "lo-28-campaign-scaling.yaml"):
        assert "campaign" in load_vector(HERE / "lockedon" / name), name


def test_a_campaign_vector_reports_a_wrong_expectation() -> None:
    data = load_vector(HERE / "lockedon" / "lo-22-campaign-total.yaml")
    data["expect"] = {**data["expect"], "levels": {"israel": "Operational Victory"}}
    data["expect"]["bogus"] = 1
    failures = run_vector(data).failures
    assert any("levels" in f for f in failures) and any("bogus" in f for f in failures)


def test_every_example_of_the_zero_campaigns_has_a_vector() -> None:
    """Z-15, Z-25..Z-31 (RULEBOOK-EXAMPLES section 4) as campaign vectors."""
    wanted = ["c15", *(f"c{n}" for n in range(25, 32))]
    for example in wanted:
        paths = list((HERE / "dif").glob(f"zero-{example}-*.yaml"))
        assert paths, example
        assert all("campaign" in load_vector(p) for p in paths), example


def test_a_fates_damaged_flag_reaches_the_campaign() -> None:
    """An outcome's ``damaged: true`` makes a Zero! strike's aircraft draw to land
    (§25.71); without it nothing is recovered and the vector says so."""
    data = load_vector(HERE / "dif" / "zero-c31-recovery.yaml")
    for f in data["steps"][4]["outcome"]["fates"]:
        f.pop("damaged", None)
    data["steps"][4]["expect"]["bogus"] = 1
    failures = run_vector(data).failures
    assert any("recovered" in f for f in failures) and any("bogus" in f for f in failures)


@pytest.mark.parametrize("path", VECTORS, ids=lambda p: str(p.relative_to(HERE)))
def test_vector(path: Path) -> None:
    result = run_file(path)
    assert result.ok, f"{path.name}: {result.name}\n  " + "\n  ".join(result.failures)
    data = load_vector(path)
    assert result.steps > 0 or "expect" in data or "setup_refused" in data


@pytest.mark.parametrize("path", VECTORS, ids=lambda p: str(p.relative_to(HERE)))
def test_vector_cites_its_source(path: Path) -> None:
    data = load_vector(path)
    assert data.get("name") and data.get("source"), "every vector says what it shows and where"
    assert "L" in str(data["source"]) or "zero.txt" in str(data["source"]), "cite the line"


def test_the_runner_reports_a_wrong_expectation() -> None:
    data = load_vector(HERE / "dif" / "rotl-05-maneuvering.yaml")
    data["expect"] = {"positions": {"A1 on X1": "Tailing"}, "bogus": 1}
    failures = run_vector(data).failures
    assert any("expected 'Tailing'" in f for f in failures)
    assert any("unknown expectation 'bogus'" in f for f in failures)


def test_the_runner_reports_an_accepted_setup_that_must_be_refused() -> None:
    data = load_vector(HERE / "lockedon" / "rule-campaign-only-refused-in-a-dogfight.yaml")
    assert run_vector(data).ok
    data["setup"]["seats"][0]["skills"] = []
    assert any("must be refused" in f for f in run_vector(data).failures)


def test_the_runner_reports_an_accepted_action_that_must_be_refused() -> None:
    data = load_vector(HERE / "dif" / "rotl-05-maneuvering.yaml")
    data["steps"] = [{"seat": "A1", "refuse": "stay"}]
    assert any("must be refused" in f for f in run_vector(data).failures)


def test_on_in_a_vector_is_a_key_not_a_boolean(tmp_path: Path) -> None:
    # YAML 1.1 reads "on" as true; the runner reads vectors with YAML 1.2 booleans.
    path = tmp_path / "v.yaml"
    path.write_text("positions: [{leader: A1, on: X1}]\nflag: yes\nreal: true\n")
    assert load_vector(path) == {
        "positions": [{"leader": "A1", "on": "X1"}],
        "flag": "yes",
        "real": True,
    }
