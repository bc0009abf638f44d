"""Offline checks of the deployment material, one module per checker, run by scripts/validate-deploy.sh
(issue 38): compose, kubernetes, dockerfile, prometheus, grafana, production; common holds what
they share. Each runs as `PYTHONPATH=scripts python3 -m deploycheck.<module> ...` (see its
docstring); the unit tests are in tests/."""
