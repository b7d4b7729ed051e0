# Conformance harness targets; included from the top-level Makefile:
#
#     include conformance/conformance.mk
#
# make conformance-quick   the representative subset (tag "quick"), both implementations, the
#                          Sputnik column with Sputnik's name server *and* brokers; Sputnik
#                          failures listed in $(CONFORMANCE_KNOWN_FAILURES) tolerated; a few
#                          minutes on 2 cores. Meant to be part of `make test`.
# make conformance         every scenario, both implementations, no failure tolerated
#                          (CONFORMANCE_KNOWN_FAILURES= by default): the Sputnik column once with
#                          Java brokers under Sputnik's name server and once all-Sputnik, then the
#                          goclient scenarios again with the newest client-go
#                          (conformance/clientgo-latest).
#
# Each run writes node directories, logs and report.json under $(CONFORMANCE_DIR)/<target>/
# (wiped at the start of the run). Extra runner flags: CONFORMANCE_FLAGS='-run kv -broker-impl same'.
# CONFORMANCE_CLIENTGO_REFRESH=1 moves clientgo-latest to the newest version the module proxy serves.

GO                          ?= go
CONFORMANCE_DIR             ?= $(CURDIR)/.cache/conformance
CONFORMANCE_FLAGS           ?=
CONFORMANCE_QUICK_KNOWN     ?= conformance/known-failures.txt
CONFORMANCE_KNOWN_FAILURES  ?=
CONFORMANCE_CLIENTGO_REFRESH ?=

.PHONY: conformance conformance-quick conformance-java conformance-runner conformance-runner-latest

# Builds conformance/java (Maven Central: RocketMQ 4.9.8 client/tools, 4.9.7 namesrv/broker).
conformance-java:
	conformance/java/classpath.sh >/dev/null

conformance-runner:
	@mkdir -p bin
	$(GO) build -o bin/conformance ./conformance/cmd/conformance

# The runner built against the newest client-go (a separate module, so the main go.mod keeps v2.1.2).
conformance-runner-latest:
	@mkdir -p bin
	@if [ -n "$(CONFORMANCE_CLIENTGO_REFRESH)" ]; then \
		cd conformance/clientgo-latest && $(GO) get github.com/apache/rocketmq-client-go/v2@latest && $(GO) mod tidy; fi
	cd conformance/clientgo-latest && $(GO) build -o ../../bin/conformance-clientgo-latest github.com/sputnikmq/sputnik/conformance/cmd/conformance

conformance-quick: build conformance-java conformance-runner
	@rm -rf $(CONFORMANCE_DIR)/quick
	bin/conformance -impl java,sputnik -broker-impl sputnik -tags quick -broker-heap 512m \
		$(if $(CONFORMANCE_QUICK_KNOWN),-known-failures $(CONFORMANCE_QUICK_KNOWN)) \
		-rundir $(CONFORMANCE_DIR)/quick $(CONFORMANCE_FLAGS)

conformance: build conformance-java conformance-runner conformance-runner-latest
	@rm -rf $(CONFORMANCE_DIR)/full $(CONFORMANCE_DIR)/full-sputnik-brokers $(CONFORMANCE_DIR)/clientgo-latest
	@status=0; \
	bin/conformance-clientgo-latest -impl java,sputnik -tags goclient \
		$(if $(CONFORMANCE_KNOWN_FAILURES),-known-failures $(CONFORMANCE_KNOWN_FAILURES)) \
		-rundir $(CONFORMANCE_DIR)/clientgo-latest $(CONFORMANCE_FLAGS) || status=1; \
	bin/conformance -impl java,sputnik -broker-impl java \
		$(if $(CONFORMANCE_KNOWN_FAILURES),-known-failures $(CONFORMANCE_KNOWN_FAILURES)) \
		-rundir $(CONFORMANCE_DIR)/full $(CONFORMANCE_FLAGS) || status=1; \
	bin/conformance -impl sputnik -broker-impl sputnik \
		$(if $(CONFORMANCE_KNOWN_FAILURES),-known-failures $(CONFORMANCE_KNOWN_FAILURES)) \
		-rundir $(CONFORMANCE_DIR)/full-sputnik-brokers $(CONFORMANCE_FLAGS) || status=1; \
	exit $$status
