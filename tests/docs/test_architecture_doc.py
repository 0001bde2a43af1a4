"""The layer diagrams of docs/engineering/architecture.md and the README
are the import-linter `layers` contract of pyproject.toml, top to bottom."""

import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _contract_layers() -> list[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    (layers,) = [c["layers"] for c in config["tool"]["importlinter"]["contracts"] if c["type"] == "layers"]
    return [" | ".join(part.strip() for part in layer.split("|")) for layer in layers]


def _diagram(text: str) -> list[str]:
    found = re.search(r"<!-- layers:start -->\n```\n(.*?)```\n<!-- layers:end -->", text, re.S)
    assert found, "the page needs its diagram between <!-- layers:start --> and <!-- layers:end -->"
    layers = []
    for line in found.group(1).splitlines():
        m = re.match(r"^([a-z]+/(?: \| [a-z]+/)*)\s{2,}\S", line)
        assert m, f"a diagram line starts with its folders, then two spaces: {line!r}"
        layers.append(m.group(1).replace("/", ""))
    return layers


@pytest.mark.parametrize("page", ["docs/engineering/architecture.md", "README.md"])
def test_the_diagram_is_the_layers_contract(page):
    assert _diagram((ROOT / page).read_text(encoding="utf-8")) == _contract_layers()


def test_every_layer_has_a_paragraph_on_the_architecture_page():
    text = (ROOT / "docs" / "engineering" / "architecture.md").read_text(encoding="utf-8")
    for layer in _contract_layers():
        for package in layer.split(" | "):
            assert f"`{package}/`" in text[text.index("## The layers") :], package
