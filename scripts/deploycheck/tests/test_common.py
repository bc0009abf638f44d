import contextlib
import io
import os
import tempfile
import unittest

from .. import common
from .support import report


class MarkdownTest(unittest.TestCase):
    def test_anchors_as_github_makes_them(self):
        text = ("# Deploying Switchboard\n## Serve: spread and fenced\n### The hook's signature\n"
                "### Amazon Connect's AI agents (MCP)\n## `up`, scraped\n## Lag\n## Lag\n")
        self.assertEqual(common.anchors(text), ["deploying-switchboard", "serve-spread-and-fenced", "the-hooks-signature",
                                                "amazon-connects-ai-agents-mcp", "up-scraped", "lag", "lag-1"])

    def test_no_heading_in_fenced_code(self):
        self.assertEqual(common.headings("# Page\n```sh\n# 1. Image\n```\n## Steps\n"), [(1, "Page"), (2, "Steps")])

    def test_links_outside_code(self):
        text = ("See [the index](../README.md#runbook) and [`roles.psql`](../postgres-init/roles.psql),\n"
                "[a link over\ntwo lines](tls.md#kafka-security), not `[code](x.md)` nor\n"
                "```\n[fenced](y.md)\n```\n[web](https://example.com \"title\")\n")
        self.assertEqual(common.links(text), [(1, "../README.md#runbook"), (1, "../postgres-init/roles.psql"),
                                              (3, "tls.md#kafka-security"), (7, "https://example.com")])


class CommonTest(unittest.TestCase):
    def test_load_all_reports_a_file_that_does_not_parse(self):
        with tempfile.TemporaryDirectory() as root:
            path = os.path.join(root, "bad.yaml")
            with open(path, "w", encoding="utf-8") as f:
                f.write("a: [1, 2\n")
            r = report()
            self.assertEqual(common.load_all(r, path, root), [])
            self.assertEqual(len(r.problems), 1)
            self.assertTrue(r.problems[0].startswith("yaml: bad.yaml: does not parse"), r.problems)

    def test_load_all_skips_empty_documents(self):
        with tempfile.TemporaryDirectory() as root:
            path = os.path.join(root, "two.yaml")
            with open(path, "w", encoding="utf-8") as f:
                f.write("---\na: 1\n---\n---\nb: 2\n")
            self.assertEqual(common.load_all(report(), path), [{"a": 1}, {"b": 2}])

    def test_exported_metrics_are_the_string_literals_of_swift_files(self):
        with tempfile.TemporaryDirectory() as root:
            os.makedirs(os.path.join(root, "Sources", "A"))
            with open(os.path.join(root, "Sources", "A", "M.swift"), "w", encoding="utf-8") as f:
                f.write('let a = Counter(label: "switchboard_a_total")\n// switchboard_comment_only\n')
            with open(os.path.join(root, "Sources", "A", "notes.md"), "w", encoding="utf-8") as f:
                f.write('"switchboard_in_markdown"\n')
            self.assertEqual(common.exported_metrics(root), {"switchboard_a_total"})

    def test_finish_lists_the_problems(self):
        r = report()
        self.assertEqual(r.finish(), 0)
        r.problem("c", "w", "m")
        with contextlib.redirect_stderr(io.StringIO()) as err:
            self.assertEqual(r.finish(), 1)
        self.assertIn("test: 1 problem(s):\n  - c: w: m", err.getvalue())

    def test_metric_base(self):
        self.assertEqual(common.metric_base("switchboard_hook_duration_seconds_bucket"), "switchboard_hook_duration_seconds")
        self.assertEqual(common.metric_base("switchboard_rows_total"), "switchboard_rows_total")


if __name__ == "__main__":
    unittest.main()
