import os
import tempfile

from .. import docs
from .support import CheckerTest, report

INDEX = """\
# Deploying Switchboard

| Page | What |
| --- | --- |
| [Runbook](docs/runbook.md) | alerts |

## Runbook

[docs/runbook.md](docs/runbook.md): what to do.

### Lag

[docs/runbook.md](docs/runbook.md#lag): how far behind.
"""
RUNBOOK = """\
# Runbook

Part of [Deploying Switchboard](../README.md#runbook).

```sh
# Lag by hand
```

## Lag

See [Kubernetes](kubernetes.md#kafka-topics) and [the roles file](../postgres-init/roles.psql).
"""
KUBERNETES = "# Kubernetes\n\n## Kafka topics\n\nBack to [the runbook](runbook.md#lag).\n"


def tree(root, files):
    for path, text in files.items():
        os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
        with open(os.path.join(root, path), "w", encoding="utf-8") as f:
            f.write(text)


class DocsTest(CheckerTest):
    FILES = {"README.md": "# Switchboard\n\n[Deployment](deploy/README.md).\n", "deploy/README.md": INDEX,
             "deploy/docs/runbook.md": RUNBOOK, "deploy/docs/kubernetes.md": KUBERNETES,
             "deploy/postgres-init/roles.psql": "-- roles\n"}

    def problems(self, **changes):
        files = dict(self.FILES)
        files.update(changes)
        with tempfile.TemporaryDirectory() as root:
            tree(root, {k: v for k, v in files.items() if v is not None})
            r = report()
            cache = {}
            for path in docs.documents(root):
                docs.check_links(r, root, path, files[path], cache)
            pages = {os.path.basename(p): files[p] for p in docs.documents(root) if p.startswith("deploy/docs/")}
            docs.check_index(r, files["deploy/README.md"], pages)
            return r.problems

    def test_good_documents_pass(self):
        index = INDEX + "\n## Kubernetes\n\n[docs/kubernetes.md](docs/kubernetes.md)\n\n### Kafka topics\n\n" \
                        "[docs/kubernetes.md](docs/kubernetes.md#kafka-topics): topics.\n"
        self.assertClean(self.problems(**{"deploy/README.md": index}))

    def test_section_without_an_entry(self):
        problems = self.problems()
        self.assertReports(problems, "deploy/README.md", 'no entry (### Kafka topics) for the section "Kafka topics" of deploy/docs/kubernetes.md')
        self.assertReports(problems, "the index does not link deploy/docs/kubernetes.md#kafka-topics")
        self.assertReports(problems, "the index does not link the page deploy/docs/kubernetes.md")

    def test_link_to_a_missing_file(self):
        problems = self.problems(**{"deploy/postgres-init/roles.psql": None})
        self.assertReports(problems, "deploy/docs/runbook.md:11", "link ../postgres-init/roles.psql: deploy/postgres-init/roles.psql does not exist")

    def test_link_to_a_missing_anchor(self):
        problems = self.problems(**{"deploy/docs/kubernetes.md": KUBERNETES.replace("## Kafka topics", "## Topics")})
        self.assertReports(problems, "deploy/docs/runbook.md:11", "no heading of deploy/docs/kubernetes.md has the anchor #kafka-topics")

    def test_a_comment_in_fenced_code_is_no_anchor(self):
        index = INDEX.replace("(docs/runbook.md#lag)", "(docs/runbook.md#lag-by-hand)")
        self.assertReports(self.problems(**{"deploy/README.md": index}),
                           "no heading of deploy/docs/runbook.md has the anchor #lag-by-hand")
