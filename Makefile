# Sputnik — see README.md. `make run` starts a local name server + broker,
# `make test` is what CI runs (.ci/run).

GO       ?= go
BIN      := bin
CMDS     := mqnamesrv=./namesrv/cmd/mqnamesrv mqbroker=./broker/cmd/mqbroker \
            mqadmin=./tools/cmd/mqadmin mqshutdown=./tools/cmd/mqshutdown
FUZZTIME ?= 30s
BENCHTIME ?= 1s

# `make fuzz` runs every Fuzz function of the module for FUZZTIME each
# (tools/fuzz.sh lists them); FUZZ_TARGETS="./pkg:FuzzFunc ..." picks some.
FUZZ_TARGETS ?=

.PHONY: all build run test generate check-generated fmt-check lint vet fuzz bench java-oracle clean

all: build

build:
	@mkdir -p $(BIN)
	@for c in $(CMDS); do name=$${c%%=*}; pkg=$${c#*=}; \
		echo "go build -o $(BIN)/$$name $$pkg"; \
		$(GO) build -o $(BIN)/$$name $$pkg || exit 1; done

run: build
	distribution/bin/run-local.sh

generate:
	$(GO) generate ./...

# The committed generated code must be what the generator writes now.
check-generated:
	$(GO) generate ./...
	@git diff --exit-code --stat -- '*/zz_*.go' || { echo "generated code is stale: run 'make generate' and commit"; exit 1; }

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
		if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

lint: fmt-check vet

# The real Apache RocketMQ 4.9.8 jars (Maven Central), used as the oracle by
# the compat tests; prints nothing but builds compat/java/target/classpath.txt.
java-oracle:
	compat/java/classpath.sh >/dev/null

# The Go tests first, then the quick conformance run (Java 4.9.x and
# Sputnik side by side), whose last line is "N passed, M failed".
test: fmt-check vet check-generated java-oracle
	$(GO) test -race -count=1 ./...
	$(MAKE) conformance-quick

fuzz:
	@GO=$(GO) FUZZTIME=$(FUZZTIME) tools/fuzz.sh $(FUZZ_TARGETS)

bench:
	$(GO) test -run='^$$' -bench=. -benchmem -benchtime=$(BENCHTIME) ./remoting/...

# Java vs Sputnik name server benchmark (issue #4): lookups, memory, start time, 100k topics.
# Markdown on stdout and in $(NSBENCH_DIR)/report.md, JSON in report.json, node logs in run/.
# NSBENCH_FLAGS (default '-rounds 3 -depths 1,8'): '-depths 1', '-pin', '-big-topics 0', '-sputnik-gomaxprocs 1', '-strict'.
NSBENCH_DIR   ?= $(CURDIR)/.cache/nsbench
NSBENCH_FLAGS ?= -rounds 3 -depths 1,8

.PHONY: bench-namesrv
bench-namesrv: build conformance-java
	$(GO) build -o $(BIN)/nsbench-compare ./conformance/cmd/nsbench-compare
	@rm -rf $(NSBENCH_DIR) && mkdir -p $(NSBENCH_DIR)
	@$(BIN)/nsbench-compare -bin $(BIN) -rundir $(NSBENCH_DIR)/run -json $(NSBENCH_DIR)/report.json \
		$(NSBENCH_FLAGS) > $(NSBENCH_DIR)/report.md; status=$$?; cat $(NSBENCH_DIR)/report.md; exit $$status

# Sputnik's store vs the page cache and Java 4.9.8's DefaultMessageStore (issue #5): append
# throughput, latency and memory per message size and producer count, and recovery of a 10 GiB
# commit log after kill -9 and after a clean shutdown. Markdown on stdout and in
# $(STOREBENCH_DIR)/report.md, JSON in report.json; the data (under data/) is deleted as runs end.
# STOREBENCH_FLAGS: '-rounds 1', '-recovery=false', '-java-fill=false', '-cpuprofile-dir DIR', '-settle=false'.
STOREBENCH_DIR   ?= $(CURDIR)/.cache/storebench
STOREBENCH_FLAGS ?= -rounds 2 -recovery -java-fill

.PHONY: bench-store
bench-store: java-oracle
	$(GO) build -o $(BIN)/storebench ./tools/cmd/storebench
	@rm -rf $(STOREBENCH_DIR) && mkdir -p $(STOREBENCH_DIR)
	$(BIN)/storebench -dir $(STOREBENCH_DIR)/data -json $(STOREBENCH_DIR)/report.json \
		-md $(STOREBENCH_DIR)/report.md $(STOREBENCH_FLAGS)

# Java 4.9.8 vs Sputnik broker benchmark (issue #6): send TPS (raw frames, Java client,
# client-go's benchmark producer), open-loop latency at half Java's peak, push-consumer drain,
# RSS, start to registered. Markdown on stdout and in $(BENCH_DIR)/report.md, JSON in
# report.json, node and driver logs in run/. BENCH_FLAGS: '-rounds 2', '-perf-dir DIR',
# '-duration 20s', '-prefill 200000', '-commitlog-file-size 104857600'.
BENCH_DIR   ?= $(CURDIR)/.cache/brokerbench
BENCH_FLAGS ?=

.PHONY: bench-compare
bench-compare: build conformance-java
	$(GO) build -o $(BIN)/bench-compare ./conformance/cmd/bench-compare
	$(GO) build -o $(BIN)/clientgo-benchmark github.com/apache/rocketmq-client-go/v2/benchmark
	$(GO) build -o $(BIN)/brokerbench ./tools/cmd/brokerbench
	@rm -rf $(BENCH_DIR) && mkdir -p $(BENCH_DIR)
	@$(BIN)/bench-compare -bin $(BIN) -clientgo-bench $(BIN)/clientgo-benchmark -brokerbench $(BIN)/brokerbench -rundir $(BENCH_DIR)/run \
		-json $(BENCH_DIR)/report.json $(BENCH_FLAGS) > $(BENCH_DIR)/report.md; status=$$?; cat $(BENCH_DIR)/report.md; exit $$status

# Long run of client-go producers and push consumers, each cycle a process of its own, against
# a fresh name server + broker (node files in $(SOAK_DIR)): samples the servers' memory, threads
# and files, and fails if a cycle misses a message or a group keeps a member of a gone client.
# SOAK_FLAGS (default '-d 10m'): '-impl java', '-slots 4', '-msgs 1000', '-every 10s'.
SOAK_DIR   ?= $(CURDIR)/.cache/soak
SOAK_FLAGS ?= -d 10m

.PHONY: soak
soak: build
	$(GO) build -o $(BIN)/soak ./conformance/cmd/soak
	@rm -rf $(SOAK_DIR) && mkdir -p $(SOAK_DIR)
	$(BIN)/soak -bin $(BIN) -rundir $(SOAK_DIR) $(SOAK_FLAGS)

clean:
	rm -rf $(BIN)

include conformance/conformance.mk
