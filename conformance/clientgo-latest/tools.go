//go:build tools

// Package clientgolatest is a separate module that builds the conformance
// runner against the newest rocketmq-client-go the module proxy serves
// (the main module pins v2.1.2). `make conformance` builds it with
//
//	cd conformance/clientgo-latest && go get github.com/apache/rocketmq-client-go/v2@master && go build -o ../../bin/conformance-clientgo-latest github.com/sputnikmq/sputnik/conformance/cmd/conformance
//
// (see conformance.mk) and runs the scenarios tagged goclient with it.
package clientgolatest

import _ "github.com/sputnikmq/sputnik/conformance/cmd/conformance"
