# Switchboard's entry points. Each target is a thin wrapper around a script in scripts/.

.PHONY: run test build lint format bench bench-ingest bench-hook bench-console clean

run: ## Build and run the whole system on the embedded defaults (switchboard dev)
	scripts/run.sh

test: ## Install what is missing, start a throwaway PostgreSQL, run every test
	scripts/test.sh

build:
	swift build

lint:
	swift format lint --strict --recursive --parallel Package.swift Sources Tests

format:
	swift format format --in-place --recursive --parallel Package.swift Sources Tests

clean:
	rm -rf .build
