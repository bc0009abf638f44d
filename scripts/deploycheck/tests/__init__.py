"""Unit tests of the deploycheck checkers: each feeds a small good document, which must pass, and
bad variants of it, each of which must be reported.

    python3 -m unittest discover -s scripts/deploycheck/tests -t scripts
"""
