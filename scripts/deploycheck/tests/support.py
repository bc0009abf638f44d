"""Helpers of the checkers' unit tests."""

import io
import unittest

from ..common import Report


def report():
    """A Report that keeps the checkers' summaries out of the test output."""
    return Report("test", out=io.StringIO())


class CheckerTest(unittest.TestCase):
    """assertReports / assertClean over the problems a Report collected."""

    def assertReports(self, problems, *fragments):
        """Some problem contains every fragment."""
        for problem in problems:
            if all(f in problem for f in fragments):
                return
        self.fail(f"no problem contains {fragments}; problems: {problems}")

    def assertClean(self, problems):
        self.assertEqual(problems, [], "the good document must pass")
