# Test automation service: hub (Go + PostgreSQL) and desktop agent.
# `make help` lists the targets.

SHELL := /bin/bash
GO    ?= go
# The hub's address and data folder: ADDR=/DATA= on the command line, else
# HUB_ADDR/HUB_DATA from the environment (as the README's table says).
ADDR  ?= $(or $(HUB_ADDR),127.0.0.1:8080)
# The hub keeps its private database, audit log and artifacts here.
DATA  ?= $(or $(HUB_DATA),$(CURDIR)/data)
# The hub `make agent` connects to: HUB=, else AGENT_HUB, else the one of `make run`.
HUB   ?= $(or $(AGENT_HUB),http://$(ADDR))

# The agent's version in its installers (make installers).
VERSION ?= 0.1.0
# Platforms make installers builds at once: one per core.
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

.DEFAULT_GOAL := help

.PHONY: help
help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-10s %s\n", $$1, $$2}'

.PHONY: deps
deps: ## install what a fresh Debian 12 machine lacks (as root), or say what to install
	@missing=""; \
	if ! command -v initdb >/dev/null && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then missing="$$missing postgresql"; fi; \
	if ! command -v gcc >/dev/null; then missing="$$missing gcc"; fi; \
	if ! command -v chromium >/dev/null && ! command -v google-chrome >/dev/null; then missing="$$missing chromium"; fi; \
	if ! command -v Xvfb >/dev/null; then missing="$$missing xvfb"; fi; \
	: "headless runs render on demand in Chromium's headless shell: cheap screenshots (agent/runner/frames.go)"; \
	if command -v dpkg-query >/dev/null && [ ! -x /usr/lib/chromium/chromium-headless-shell ]; then missing="$$missing chromium-headless-shell"; fi; \
	: "make installers and its tests: the Windows installer (NSIS), its signature, the Windows tray agent's C cross compiler"; \
	if ! command -v makensis >/dev/null; then missing="$$missing nsis"; fi; \
	if ! command -v osslsigncode >/dev/null; then missing="$$missing osslsigncode"; fi; \
	if ! command -v x86_64-w64-mingw32-gcc >/dev/null; then missing="$$missing gcc-mingw-w64-x86-64"; fi; \
	: "the JUnit report's schema check (xmllint)"; \
	if ! command -v xmllint >/dev/null; then missing="$$missing libxml2-utils"; fi; \
	if command -v dpkg-query >/dev/null; then \
	  : "the agent's tray (Fyne: OpenGL, GLFW) compiles against these; go build -tags headless ./agent does not"; \
	  for p in pkg-config libgl1-mesa-dev libxcursor-dev libxrandr-dev libxinerama-dev libxi-dev libxxf86vm-dev; do \
	    dpkg-query -W -f='$${db:Status-Status}' $$p 2>/dev/null | grep -qx installed || missing="$$missing $$p"; \
	  done; \
	fi; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing Debian packages:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	  else \
	    echo "missing Debian packages; run: sudo apt-get install -y$$missing"; exit 1; \
	  fi; \
	fi; \
	if [ "$$(id -u)" = 0 ] && ! id postgres >/dev/null 2>&1; then \
	  echo "creating the postgres system account (PostgreSQL refuses to run as root)"; \
	  useradd --system --home-dir /var/lib/postgresql --shell /usr/sbin/nologin postgres; \
	fi; \
	if ! command -v node >/dev/null || ! node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>20||(a===20&&b>=19)?0:1)'; then \
	  echo "Node.js 20.19 or newer with npm is needed to build the web application (Debian 12's nodejs package is too old): https://nodejs.org/en/download"; exit 1; \
	fi; \
	if ! command -v $(GO) >/dev/null; then \
	  echo "Go 1.26 or newer is needed: https://go.dev/doc/install (Debian 12's golang package is too old)"; exit 1; \
	fi

# As root the private database runs as the postgres account, which must be able
# to reach $(DATA); a checkout under /root is not, so fall back to /var/lib/tahub.
RUN_DATA = $(shell if [ "$$(id -u)" = 0 ] && ! runuser -u postgres -- test -x "$(dir $(DATA))" 2>/dev/null; then echo /var/lib/tahub; else echo "$(DATA)"; fi)

# npm ci runs again only when package-lock.json changed.
web/node_modules/.installed: web/package-lock.json
	cd web && npm ci --no-audit --no-fund --loglevel=error
	touch $@

WEB_SOURCES := $(shell find web/src web/index.html web/vite.config.ts web/tsconfig.json -type f 2>/dev/null)

web/dist/index.html: web/node_modules/.installed $(WEB_SOURCES)
	cd web && npm run build --silent

.PHONY: web
web: deps web/dist/index.html ## build the web application into web/dist (embedded by the hub)

.PHONY: run
run: deps web ## start the hub on 127.0.0.1:8080 (ADDR= or HUB_ADDR) with its own PostgreSQL in ./data (DATA= or HUB_DATA)
	@if [ "$(RUN_DATA)" != "$(DATA)" ]; then echo "note: the postgres account cannot reach $(DATA); using $(RUN_DATA) instead"; fi
	$(GO) build -o bin/hub ./hub
	exec bin/hub --addr $(ADDR) --data $(RUN_DATA)

.PHONY: build
build: web ## build the web application, the hub and the agent into bin/
	$(GO) build -o bin/hub ./hub
	$(GO) build -o bin/agent ./agent

.PHONY: agent
agent: deps ## run a headless agent against the hub of `make run` (HUB= or AGENT_HUB); seconds to build, no tray
	$(GO) build -tags headless -o bin/agent-headless ./agent
	exec bin/agent-headless --hub $(HUB) --headless

.PHONY: installers
installers: deps ## build the agent's installers into bin/installers and the downloads folder of `make run` (VERSION=); unchanged platforms come from ~/.cache/ta-installers
	$(GO) run ./installer/cmd/installers --out bin/installers --version $(VERSION) --downloads $(RUN_DATA)/downloads --jobs $(JOBS)

.PHONY: test
test: deps weed size-check fmt-check vet web-test ## gofmt check, go vet, all Go tests with the race detector, short fuzz runs, web unit and end-to-end tests
	$(GO) test -race -count=1 -timeout 20m -skip '$(HEAVY_TESTS)' ./...
	$(GO) test -count=1 -timeout 10m -run '$(HEAVY_TESTS)' ./hub
	$(GO) test -run '^$$' -fuzz FuzzAuthBodies -fuzztime 40000x ./hub/api
	$(GO) test -run '^$$' -fuzz FuzzParse -fuzztime 40000x ./protocol
	$(GO) test -run '^$$' -fuzz FuzzImportSide -fuzztime 40000x ./protocol
	$(GO) test -run '^$$' -fuzz FuzzRenderPlaywright -fuzztime 40000x ./protocol

# Tests that run several hub processes, an agent and Chromium at once: run
# after the others, not beside the agent's timing-sensitive browser tests
# (two of those timed out in CI while these ran in the package beside them).
HEAVY_TESTS := TestHubsLoseNoRun|TestSecondHubSharesPrivateDatabase|TestHubBinary

# SeaweedFS, the S3-compatible server the object storage tests run against
# (hub/objtest): built once from the Go module proxy into a cache outside
# the repository (a few minutes on an empty cache), then reused.
WEED_VERSION := v0.0.0-20261109003541-7506e5f91cd6
WEED := $(HOME)/.cache/ta-tools/weed-20261109/weed

.PHONY: weed
weed: ## build SeaweedFS for the object storage tests into ~/.cache/ta-tools (once)
	@if [ ! -x $(WEED) ]; then \
	  echo "building SeaweedFS $(WEED_VERSION) for the object storage tests (once)"; \
	  dir=$$($(GO) mod download -json github.com/seaweedfs/seaweedfs@$(WEED_VERSION) | sed -n 's/.*"Dir": "\(.*\)",*/\1/p'); \
	  src=$$(mktemp -d) && cp -r "$$dir"/. "$$src" && chmod -R u+w "$$src" && \
	  (cd "$$src" && $(GO) build -o $(WEED) ./weed) && rm -rf "$$src"; \
	fi

.PHONY: web-test
web-test: web ## web application: type check, unit tests (Vitest), end-to-end tests in Chromium against a real hub and agent
	cd web && npx tsc -b && npx prettier --check src e2e --log-level warn
	cd web && npx vitest run
	cd web && npx playwright test

.PHONY: size-check
size-check: ## fail when a tracked file is over 5 MB (build outputs and dumps stay out of git)
	@big=$$(git ls-files -z 2>/dev/null | xargs -0 -r stat -c '%s %n' 2>/dev/null | awk '$$1 > 5*1024*1024 {print $$2 " (" int($$1/1048576) " MB)"}'); \
	if [ -n "$$big" ]; then echo "tracked files over 5 MB (build outputs belong in .gitignore):"; echo "$$big"; exit 1; fi

.PHONY: fmt-check
fmt-check: ## fail when a Go file is not gofmt-formatted
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi

.PHONY: vet
vet: ## go vet
	$(GO) vet ./...

.PHONY: bench
bench: deps ## benchmarks: test list p95 (10,000 and 100,000 tests) vs bare SQL; one hub with 1,000 agents and 1,000 live streams (memory, run start p99 vs no load, 200 runs at once); a 20-step run through hub and agent vs raw rod; run start p50/p99 on the agent's hub vs from another hub of the same database; a 25-step flow through hub and agent vs Playwright, with and without screenshots; the run trace's cost at its default against a default run (failures/off, at most 1.10; also without screenshots); recording quality; a picked target on a 2,000-row page
	$(GO) test -run '^$$' -bench TestList -benchtime 300x ./hub/api
	$(GO) test -run '^$$' -bench Scale -benchtime 1x -timeout 30m ./hub/loadtest
	$(GO) test -run '^$$' -bench RunThroughHub -benchtime 30x ./hub/api
	$(GO) test -run '^$$' -bench RunStartAcrossHubs -benchtime 40x ./hub/api
	$(GO) test -run '^$$' -bench FlowVsPlaywright -benchtime 10x ./hub/api
	$(GO) test -run '^$$' -bench . -skip TraceCost -benchtime 10x ./agent/runner ./protocol
	$(GO) test -run '^$$' -bench TraceCost -benchtime 40x ./agent/runner
	$(GO) test -run '^$$' -bench 'RecordingQuality|LargePage' -benchtime 1x -timeout 20m ./agent/author

.PHONY: clean
clean: ## remove build output (not the data folder)
	rm -rf bin web/e2e-results
	find web/dist -mindepth 1 ! -name .keep -delete 2>/dev/null || true
