"""What the checkers share: the problem report, YAML loading, the metrics Sources/ exports."""

import os
import re
import sys

import yaml

# The page of the Kubernetes deployment steps, the Kafka topics and the connection budget
# (deploy/README.md is the index of the deployment's pages).
STEPS = ("deploy", "docs", "kubernetes.md")
STEPS_PAGE = "/".join(STEPS)

# Words that mark a value as a placeholder nobody replaced (CHANGE-ME, changeme, PLACEHOLDER).
PLACEHOLDER_WORDS = re.compile(r"change-?me|placeholder", re.I)


class Report:
    """The problems one checker finds, and the summaries it prints as it goes.

    Each problem is `check: where: message`; `finish()` lists them on standard error and gives the
    exit status. Tests pass `out=io.StringIO()` to keep the summaries quiet.
    """

    def __init__(self, name, out=None):
        self.name = name
        self.out = out
        self.problems = []

    def problem(self, check, where, message):
        self.problems.append(f"{check}: {where}: {message}")

    def say(self, message):
        print(f"==> {message}", file=self.out or sys.stdout)

    def note(self, message):
        print(f"    {message}", file=self.out or sys.stdout)

    def finish(self):
        if not self.problems:
            return 0
        print(f"\n{self.name}: {len(self.problems)} problem(s):", file=sys.stderr)
        for p in self.problems:
            print(f"  - {p}", file=sys.stderr)
        return 1


def where_of(path, root):
    """`path` relative to the repository when it is inside it (renders in WORK stay absolute)."""
    return os.path.relpath(path, root) if root and path.startswith(root) else path


def load_all(report, path, root=None):
    """The non-empty YAML documents of `path`; a file that does not parse is a problem."""
    try:
        with open(path, encoding="utf-8") as f:
            return [d for d in yaml.safe_load_all(f) if d is not None]
    except (OSError, yaml.YAMLError) as error:
        report.problem("yaml", where_of(path, root), f"does not parse: {error}")
        return []


def read(root, *parts):
    with open(os.path.join(root, *parts), encoding="utf-8") as f:
        return f.read()


def exported_metrics(root):
    """The metric names Sources/ defines: every string literal "switchboard_…" of a .swift file."""
    names = set()
    for dirpath, _, files in os.walk(os.path.join(root, "Sources")):
        for f in files:
            if f.endswith(".swift"):
                with open(os.path.join(dirpath, f), encoding="utf-8") as source:
                    names.update(re.findall(r'"(switchboard_[a-z0-9_]+)"', source.read()))
    return names


def metric_base(name):
    """A histogram's or summary's series name without its _bucket / _sum / _count suffix."""
    return re.sub(r"_(bucket|sum|count)$", "", name)


# ---------------------------------------------------------------------------------- Markdown
FENCE = re.compile(r"^\s*(```|~~~)")


def prose(text):
    """The lines of a Markdown text outside fenced code blocks (a `# comment` in a ```sh block is
    no heading), with their line numbers."""
    lines, fenced = [], False
    for number, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            lines.append((number, line))
    return lines


def headings(text):
    """The headings of a Markdown text as (level, title), in order."""
    found = []
    for _, line in prose(text):
        m = re.match(r"^(#{1,6})\s+(.*?)\s*#*\s*$", line)
        if m:
            found.append((len(m.group(1)), m.group(2)))
    return found


def slug(title):
    """The anchor GitHub gives a heading: lower case, punctuation dropped (hyphens and underscores
    kept), spaces as hyphens."""
    title = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", title)  # a link's text
    return re.sub(r"[^\w\- ]", "", title.strip().lower()).replace(" ", "-")


def anchors(text):
    """The anchors of a Markdown text's headings; a repeated one gets -1, -2, … as on GitHub."""
    seen, result = {}, []
    for _, title in headings(text):
        base = slug(title)
        n = seen.get(base, 0)
        seen[base] = n + 1
        result.append(base if n == 0 else f"{base}-{n}")
    return result


LINK = re.compile(r"\[((?:[^\[\]\\]|\\.)*)\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def links(text):
    """The targets of a Markdown text's inline links, outside fenced and inline code, as
    (line number, target)."""
    lines = prose(text)
    body = "\n".join(re.sub(r"`[^`\n]*`", lambda m: " " * len(m.group(0)), line) for _, line in lines)
    numbers = [n for n, _ in lines]
    found = []
    for m in LINK.finditer(body):
        found.append((numbers[body.count("\n", 0, m.start(2))], m.group(2)))
    return found
