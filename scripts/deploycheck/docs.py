"""Checks of the deployment's documentation, run by scripts/validate-deploy.sh:

    PYTHONPATH=scripts python3 -m deploycheck.docs ROOT

deploy/README.md is the index of the topic pages in deploy/docs/. Checks:

- links: every relative link of README.md, deploy/README.md and deploy/docs/*.md names a file or
  folder that exists, and its #anchor a heading of that Markdown file (anchors as GitHub makes
  them; a `#` line in fenced code is no heading);
- the index: it links every page of deploy/docs/, and every section (`##`) of a page has an entry
  in the index: a heading of the same name, so that `deploy/README.md#lag` (the alerts' runbook
  links) and `deploy/README.md, "Kafka topics"` (comments of the manifests) keep finding it, and a
  link to the section.

Prints the summary; exits 1 with the list of problems.
"""

import glob
import os
import re
import sys

from .common import Report, anchors, headings, links, read, slug

D = "docs"
INDEX = "deploy/README.md"
PAGES = "deploy/docs"


def documents(root):
    """The Markdown files whose links are checked, relative to ROOT."""
    pages = sorted(os.path.relpath(p, root) for p in glob.glob(os.path.join(root, PAGES, "*.md")))
    return ["README.md", INDEX] + pages


def check_links(report, root, path, text, cache):
    """Every relative link of `text` (the file `path`, relative to ROOT) resolves."""
    checked = 0
    for number, target in links(text):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto:
            continue
        file, _, anchor = target.partition("#")
        resolved = os.path.normpath(os.path.join(os.path.dirname(path), file)) if file else path
        where = f"{path}:{number}"
        checked += 1
        if not os.path.exists(os.path.join(root, resolved)):
            report.problem(D, where, f"link {target}: {resolved} does not exist")
            continue
        if anchor and resolved.endswith(".md"):
            if resolved not in cache:
                cache[resolved] = set(anchors(read(root, resolved)))
            if anchor not in cache[resolved]:
                report.problem(D, where, f"link {target}: no heading of {resolved} has the anchor #{anchor}")
    return checked


def check_index(report, index, pages):
    """`index` is deploy/README.md's text, `pages` {name under deploy/docs: text}."""
    entries = set(anchors(index))
    targets = {os.path.normpath(t) for _, t in links(index)}
    sections = 0
    for name, text in sorted(pages.items()):
        page = f"docs/{name}"
        if page not in targets and not any(t.startswith(page + "#") for t in targets):
            report.problem(D, INDEX, f"the index does not link the page {PAGES}/{name}")
        for level, title in headings(text):
            if level != 2:
                continue
            sections += 1
            anchor = slug(title)
            if anchor not in entries:
                report.problem(D, INDEX, f"no entry (### {title}) for the section \"{title}\" of {PAGES}/{name}")
            if f"{page}#{anchor}" not in targets:
                report.problem(D, INDEX, f"the index does not link {PAGES}/{name}#{anchor}")
    return sections


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        print("usage: python3 -m deploycheck.docs ROOT", file=sys.stderr)
        return 2
    root = argv[0]
    report = Report("deploycheck.docs")
    cache, checked = {}, 0
    files = documents(root)
    for path in files:
        checked += check_links(report, root, path, read(root, path), cache)
    pages = {os.path.basename(p): read(root, p) for p in files if p.startswith(PAGES + "/")}
    sections = check_index(report, read(root, INDEX), pages)
    report.say(f"docs: {checked} links of {len(files)} Markdown files resolve; the index has an entry for each of "
               f"the {sections} sections of {len(pages)} pages")
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
