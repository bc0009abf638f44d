# Switchboard's entry points. Each target is a thin wrapper around a script in scripts/.

.PHONY: run test build lint format bench-ingest bench-decode bench-analyst bench-hook bench-console bench-receiver bench-staffing browser-test fuzz-hook fuzz topology-test schema clean

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

bench-ingest: ## ≥ 200,000 CTRs end to end through the embedded Kafka vs psql \copy of the same rows
	scripts/bench-ingest.sh

bench-decode: ## The ingest worker's CPU per CTR without I/O: decoding and the upsert's binds (one thread)
	scripts/bench-decode.sh

bench-analyst: ## A year of a large center (10M CTRs, 10M agent events) generated in SQL; the analyst views' dashboard queries
	scripts/bench-analyst.sh

bench-hook: ## IVR hook benchmark: evaluations/s, p99 at 5,000 req/s, peak vs static route
	scripts/bench-hook.sh

bench-console: ## 500 WebSocket clients, 2,000 events/s to Kafka for 60 s (scripts/bench-console.sh --duration N to shorten)
	scripts/bench-console.sh

bench-receiver: ## CTRs/s through the Firehose receiver into the embedded Kafka (500 per request, plain and gzip) vs kcat -P
	scripts/bench-receiver.sh

bench-staffing: ## A simulated year: the staffing backtest's WAPE per day type vs naive baselines; the plan and the console panel timed
	scripts/bench-staffing.sh

browser-test: ## Headless Chromium checks the console fed through the embedded Kafka; screenshot in .artifacts/browser/
	scripts/browser-test.sh

topology-test: ## The compose topology as local processes: rolling SIGTERM of serve under load (0 failed calls), SIGKILL of an ingest
	scripts/topology-test.sh

fuzz-hook: ## Fuzz the hook over HTTP (schemathesis + stdlib fuzzer); no 5xx allowed
	scripts/fuzz-hook.sh

fuzz: ## Fuzz the whole API of switchboard dev for longer (schemathesis over every operation, every MCP tool; 5 min each)
	scripts/fuzz-api.sh --seconds 300

schema: ## Rewrite docs/schema.sql from a freshly migrated database (after adding a migration)
	scripts/schema-dump.sh

clean:
	rm -rf .build
