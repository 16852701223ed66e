"""The documentation site (mkdocs.yml, docs/) builds with no warning, and the README is the
short front door that leads into it (issue 29): at most 200 lines, every relative link and
anchor resolving, hosting and the code map one click away.

The build runs `mkdocs build --strict` for real (MkDocs, Material, mkdocstrings reading
the docstrings of src/kamon); a second build of a copy with one mistake of each kind shows
that the configuration turns each into a failure rather than a note in the log."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
MAX_README_LINES = 200


def build(config: Path, site: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    """`mkdocs build --strict` of a config into `site`; its output has every warning."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(config),
         "--site-dir", str(site)],
        cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def test_the_site_builds_strictly_with_no_warning(tmp_path: Path) -> None:
    """Every page in the nav exists, every link and anchor resolves, every page is in the
    nav, and the API reference renders from the docstrings without a griffe warning."""
    started = time.perf_counter()
    done = build(ROOT / "mkdocs.yml", tmp_path / "site", ROOT)
    seconds = time.perf_counter() - started
    log = done.stdout + done.stderr
    assert done.returncode == 0, log
    assert "WARNING" not in log, log
    print(f"mkdocs build --strict: {seconds:.1f} s")
    site = tmp_path / "site"
    for page in ("index.html", "playing.html", "hosting.html", "layout.html",
                 "performance.html", "OBSERVATIONS.html", "api/core.html"):
        assert (site / page).is_file(), page
    # mkdocstrings rendered the protocol from its docstrings (not an empty page)
    core = (site / "api" / "core.html").read_text(encoding="utf-8")
    assert "kamon.core.protocol" in core and "legal_actions" in core
    assert "Every legal choice of" in core


def test_a_broken_link_an_orphan_page_and_a_missing_nav_file_fail_the_build(
        tmp_path: Path) -> None:
    """The same configuration over a copy of docs/ with one mistake of each kind: the
    build fails and names each of them."""
    work = tmp_path / "work"
    shutil.copytree(ROOT / "docs", work / "docs")
    for name in ("src", "deploy"):
        (work / name).symlink_to(ROOT / name, target_is_directory=True)
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    config["nav"].append({"Missing": "missing-page.md"})
    (work / "mkdocs.yml").write_text(yaml.safe_dump(config), encoding="utf-8")
    (work / "docs" / "orphan-page.md").write_text("# Not in the nav\n", encoding="utf-8")
    with (work / "docs" / "index.md").open("a", encoding="utf-8") as f:
        f.write("\n[a page](no-such-page.md) and [a heading](playing.md#no-such-heading)\n")
    done = build(work / "mkdocs.yml", tmp_path / "site", work)
    log = done.stdout + done.stderr
    assert done.returncode != 0, log
    assert "Aborted with" in log and "in strict mode" in log, log
    for mistake in ("missing-page.md", "orphan-page.md", "no-such-page.md",
                    "no-such-heading"):
        assert mistake in log, (mistake, log)


FENCE = re.compile(r"^\s*(```|~~~)")
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
HTML_SRC = re.compile(r"""<(?:img|a)\b[^>]*\b(?:src|href)=["']([^"']+)["']""")


def prose_lines(text: str) -> list[str]:
    """The lines of a Markdown text outside fenced code blocks."""
    out, fenced = [], False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            out.append(line)
    return out


def slug(heading: str) -> str:
    """A heading's anchor as GitHub and MkDocs' toc both make it: lower case, code marks
    and punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every heading anchor of a Markdown file."""
    return {slug(line.lstrip("#")) for line in prose_lines(path.read_text(encoding="utf-8"))
            if re.match(r"^#{1,6}\s", line)}


def readme_links() -> list[str]:
    """Every link and image target of the README's prose."""
    targets = []
    for line in prose_lines(README.read_text(encoding="utf-8")):
        targets += LINK.findall(line) + HTML_SRC.findall(line)
    return targets


def test_the_readme_is_short() -> None:
    """A newcomer reads it in five minutes: at most 200 lines."""
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= MAX_README_LINES, len(lines)


def test_every_relative_link_of_the_readme_resolves() -> None:
    """Each relative link names an existing file, and each #anchor a heading of it."""
    checked = 0
    for target in readme_links():
        if re.match(r"^[a-z]+:", target):      # http:, https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        file = (ROOT / path) if path else README
        assert file.exists(), f"README links to {target!r}: no such file"
        if anchor and file.suffix == ".md":
            assert anchor in anchors(file), f"README links to {target!r}: no such heading"
        checked += 1
    assert checked >= 10, checked


def test_hosting_and_the_code_map_are_one_click_from_the_readme() -> None:
    """Issue 29's newcomer: how to host for friends, and where a rule's code lives, are
    pages the README links to directly, and both are pages of the site's nav."""
    links = {t.partition("#")[0] for t in readme_links()}
    assert {"docs/hosting.md", "docs/layout.md"} <= links, links
    nav = yaml.safe_dump(yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
                         ["nav"])
    assert "hosting.md" in nav and "layout.md" in nav


@pytest.mark.parametrize("text,expected", [
    ("Solo: the Tokugawa clan's visit", "solo-the-tokugawa-clans-visit"),
    ("The `deploy/` recipes", "the-deploy-recipes"),
    ("In the browser", "in-the-browser"),
])
def test_the_anchor_rule_is_the_one_github_and_mkdocs_use(text: str, expected: str) -> None:
    """The README's anchors are checked with the slug rule the two renderers share."""
    assert slug(text) == expected
