# xqtour — the README's promise: `make run` and `make test` on a fresh machine.
# Everything else a target needs comes through the Go module proxy: staticcheck
# is a go.mod tool; the smoke installs the pinned Lambda Runtime Interface
# Emulator into a temporary directory itself.

GO        ?= go
FUNCTIONS := $(notdir $(wildcard functions/*))
LAMBDA    := CGO_ENABLED=0 GOOS=linux GOARCH=arm64 $(GO) build -tags lambda.norpc -trimpath -ldflags=-s

.PHONY: all build run test vet lint lint-openapi smoke template bench livebench roundbench perft checkpairings eventcost bigevent fmt clean webtest webunit engine chaos mirror

all: test

## engine: the browser's rules engine: web/wasm (shared/xiangqi, shared/notation) built with
## GOOS=js GOARCH=wasm, and the toolchain's wasm_exec.js, into web/engine/ (git-ignored), which
## package web embeds; so every target that compiles the Web function or the local stack runs it
## first (the smoke runs go generate ./web itself)
engine:
	$(GO) generate ./web

## build: every function's bootstrap for Lambda (linux/arm64) under build/<function>/
build: engine
	@for f in $(FUNCTIONS); do \
		echo "build/$$f/bootstrap"; \
		$(LAMBDA) -o build/$$f/bootstrap ./functions/$$f || exit 1; \
	done

## build-<LogicalId>: what `sam build` runs for each function (BuildMethod: makefile,
## CodeUri: .), with ARTIFACTS_DIR set; the source is functions/<logical id in lower case>.
build-%:
	$(if $(ARTIFACTS_DIR),,$(error build-$*: ARTIFACTS_DIR is not set (sam build sets it)))
	$(LAMBDA) -o $(ARTIFACTS_DIR)/bootstrap ./functions/$(shell echo '$*' | tr '[:upper:]' '[:lower:]')

# The Web function embeds the browser's engine: build it first (the recipe is build-%'s).
build-Web: engine

## run: every route on $$ADDR (127.0.0.1:3000) over an embedded DynamoDB; data under $$DATA_DIR (./data)
run: engine
	$(GO) run ./infra/local

## test: vet, staticcheck and the race-enabled test suite (offline, embedded DynamoDB)
test: vet lint
	$(GO) test -race -count=1 ./...

vet:
	$(GO) vet ./...

lint:
	$(GO) tool staticcheck ./...

## lint-openapi: Redocly CLI (pinned in infra/openapi-lint) lints the OpenAPI document the API
## serves; needs node and npm, so .ci/run calls it and make test does not
lint-openapi:
	cd infra/openapi-lint && npm ci --no-audit --no-fund
	REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true infra/openapi-lint/node_modules/.bin/redocly lint \
		--config infra/openapi-lint/redocly.yaml shared/httpapi/openapi.yaml

## smoke: every function's bootstrap, built for the host's architecture (not arm64), under the AWS Lambda Runtime Interface Emulator, over an embedded DynamoDB
smoke:
	$(GO) run ./infra/smoke

## chaos: a 64-player, 5-round Swiss played move by move on the local stack while the embedded
## DynamoDB injects faults (DYNAMODB_FAULTS, default conflict=0.05,throttle=0.05,internal=0.03,
## ambiguous=0.03,latency=0-30ms), by clients that retry 429/503 with the same Idempotency-Key;
## then every invariant is checked and the figures printed (make test runs a short one)
chaos:
	bash -o pipefail -c "CHAOS=full $(GO) test -count=1 -run '^TestChaos\$$' -v -timeout 60m ./infra/local | grep -E '^(=== RUN|--- |\s+chaos_test|ok|FAIL|PASS)'"

## mirror: two local stacks over HTTP, an 8-player Swiss on A mirrored live to B (which has a
## creation key); B stopped for $$MIRROR_OUTAGE (20s) and restarted, then B takes the event
## over (~30 s; .ci/run calls it, make test skips it)
mirror: engine
	MIRROR_OUTAGE=$(or $(MIRROR_OUTAGE),20s) $(GO) test -count=1 -run '^TestMirrorTwoStacks$$' -v -timeout 5m ./infra/local

## template: regenerate template.yaml's functions and HttpApi events from httpapi.Routes
template:
	$(GO) test ./infra/deploy -run TestTemplateInSync -count=1 -update

## bench: the speed, memory and cost benchmarks
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

## livebench: live updates on the local stack, 100 games live, two subscribers each: move accepted → both
## notified, p50/p99 over 1,000 moves per run, five runs (goal p99 < 100 ms; report the median run)
livebench:
	$(GO) test -run '^$$' -bench BenchmarkLive_MoveToSubscribers -benchtime 1000x -count $(or $(COUNT),5) ./shared/live/localws/

## roundbench: the round channel at a broadcast's scale, 100 games of one round followed by 500
## sockets each subscribed to the round: move accepted → all 500 notified, p50/p99 over 500 moves
roundbench:
	$(GO) test -run '^$$' -bench BenchmarkLive_RoundToSubscribers -benchtime 500x -count $(or $(COUNT),1) ./shared/live/localws/

## perft: every row of the perft reference table (make test runs the rows within a node budget)
perft:
	XQ_PERFT_ALL=1 $(GO) test -count=1 -run Perft -timeout 60m -v ./shared/xiangqi/ | grep -E '^(---|ok|FAIL|PASS)|perft'

## checkpairings: COUNT small Swiss events (default 20000) with every round held to the
## brute-force optimum, then LARGE bigger events (default 300) checked rule by rule
checkpairings:
	$(GO) run ./infra/checkpairings -small $(or $(COUNT),20000) -count $(or $(LARGE),300)

## eventcost: a whole event on the local stack — PLAYERS (100) players, ROUNDS (9) Swiss rounds,
## PLIES (150) plies entered per game, standings read after each round — and what it used and
## would cost on AWS (DynamoDB units, requests, Lambda GB-s, dollars at shared/pricing's prices)
eventcost:
	$(GO) run ./infra/eventcost -players $(or $(PLAYERS),100) -rounds $(or $(ROUNDS),9) -plies $(or $(PLIES),150)

## bigevent: a PLAYERS-player (10000), ROUNDS-round (11) Swiss built on the local stack, every route
## measured as Lambda runs it (largest response, handler time, CPU, DynamoDB units); VCPU (e.g. 1)
## holds the handlers to that many CPUs through a cgroup, as Lambda does by memory size. The store
## enforces DynamoDB's per-partition throughput (1,000 WCU, 3,000 RCU a second per key) unless
## PARTITION=false; the report counts what it throttled and whether any client saw it. PAIRJOB=N
## pairs the rounds of an event of more than N players as jobs (202, polled; default 20,000)
bigevent:
	$(GO) run ./infra/bigevent -players $(or $(PLAYERS),10000) -rounds $(or $(ROUNDS),11)$(if $(VCPU), -vcpu $(VCPU))$(if $(PARTITION), -partition=$(PARTITION))$(if $(PAIRJOB), -pairjob $(PAIRJOB))

## webtest: the web client's browser tests in Debian's Chromium (CHROMIUM, default
## /usr/bin/chromium) with playwright-core and axe-core from web/package-lock.json;
## each test file starts the local stack itself on a free port with a temporary DATA_DIR.
## Needs Node.js 20+ and npm (.ci/run installs Chromium when missing). The client
## itself has no build step: its ES modules are embedded by Go as they are (the rules
## engine's .wasm is a Go build, make engine).
webtest: engine webunit
	cd web && npm ci --no-audit --no-fund --loglevel=error
	cd web && node --test --test-concurrency=1 test/*.test.mjs

## webunit: the web client's unit tests in node:test (no browser, no npm
## packages): core/ (fetch, outbox, strings, store, tokens), the pages' pure
## functions, and the string catalogues against the API's error codes.
webunit:
	cd web && node --test unit/*.test.mjs

## fmt: gofmt the tree
fmt:
	gofmt -w $$(git ls-files '*.go')

clean:
	rm -rf build
