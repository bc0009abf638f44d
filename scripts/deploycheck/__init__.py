"""Offline checks of the deployment material that scripts/validate-deploy.sh runs (issue 38)."""
