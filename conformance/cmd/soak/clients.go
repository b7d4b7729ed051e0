package main

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/sputnikmq/sputnik/conformance/cluster"
	"github.com/sputnikmq/sputnik/conformance/javaclient"
)

// -java-clients runs the j kinds' cycles with other versions of the
// official Java client than the harness's 4.9.8: operators point
// whatever clients they have at the broker, from the 4.3 line to the
// remoting client of 5.x. The versions are taken in turn by the j cycles
// of each kind that the version can run (clientRuns), each with a
// classpath of its own from conformance/java/client-classpath.sh.

// parseVersions splits -java-clients; every entry must look like a
// Maven version of rocketmq-client (major.minor.patch).
func parseVersions(s string) ([]string, error) {
	var out []string
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v == "" {
			continue
		}
		if _, _, ok := javaclient.VersionOf(v); !ok {
			return nil, fmt.Errorf("-java-clients: %q is not a version like 4.7.1", v)
		}
		out = append(out, v)
	}
	return out, nil
}

// clientRuns says whether version's client can run a cycle of kind
// against a 4.9.8 broker (only lite pull is not in every version).
func clientRuns(version, kind string) bool {
	return kind != kindJLitePull || javaclient.LitePullWorks(version)
}

// checkClients fails when a j kind of kinds has no version to run it.
func checkClients(versions, kinds []string) error {
	if len(versions) == 0 {
		return nil
	}
	for _, k := range kinds {
		if javaKind(k) && len(clientsFor(versions, k)) == 0 {
			return fmt.Errorf("-java-clients %s: none of them runs %s against a 4.9.8 broker", strings.Join(versions, ","), k)
		}
	}
	return nil
}

// clientsFor are the versions that run kind, in -java-clients' order.
func clientsFor(versions []string, kind string) []string {
	var out []string
	for _, v := range versions {
		if clientRuns(v, kind) {
			out = append(out, v)
		}
	}
	return out
}

// clientOf is the version a j cycle runs: each slot takes a kind's
// versions in turn over its cycles of that kind. Empty for the Go kinds
// and when no -java-clients were given (the harness's 4.9.8).
func clientOf(o options, kind string, slot, cycle int) string {
	vs := clientsFor(o.javaClients, kind)
	if !javaKind(kind) || len(vs) == 0 {
		return ""
	}
	return vs[((slot+cycle)/len(o.kinds)+slot)%len(vs)]
}

// resolveClients builds each -java-clients version's classpath.
func resolveClients(ctx context.Context, o *options) error {
	if len(o.javaClients) == 0 || !anyJava(o.kinds) {
		return nil
	}
	script, err := cluster.ClientClasspathScript()
	if err != nil {
		return err
	}
	o.clientCP = map[string]string{}
	for _, v := range o.javaClients {
		if o.clientCP[v], err = javaclient.ClientClasspath(ctx, script, v); err != nil {
			return err
		}
	}
	return nil
}

// classpathOf is the classpath of the Java client a j cycle runs.
func classpathOf(o options, kind string, slot, cycle int) string {
	if v := clientOf(o, kind, slot, cycle); v != "" {
		return o.clientCP[v]
	}
	return o.javaCP
}

// label is what counts files a cycle under: its kind, and the Java
// client's version when -java-clients chose one.
func label(kind, version string) string {
	if version == "" {
		return kind
	}
	return kind + "@" + version
}

// sortLabels orders labels by their kind's place in kinds, then version.
func sortLabels(labels, kinds []string) {
	place := map[string]int{}
	for i, k := range kinds {
		place[k] = i
	}
	sort.Slice(labels, func(i, j int) bool {
		ki, vi, _ := strings.Cut(labels[i], "@")
		kj, vj, _ := strings.Cut(labels[j], "@")
		if place[ki] != place[kj] {
			return place[ki] < place[kj]
		}
		return lessVersion(vi, vj)
	})
}

// lessVersion compares dotted versions number by number.
func lessVersion(a, b string) bool {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(pa) && i < len(pb); i++ {
		na, errA := strconv.Atoi(pa[i])
		nb, errB := strconv.Atoi(pb[i])
		if errA != nil || errB != nil {
			if pa[i] != pb[i] {
				return pa[i] < pb[i]
			}
			continue
		}
		if na != nb {
			return na < nb
		}
	}
	return len(pa) < len(pb)
}
