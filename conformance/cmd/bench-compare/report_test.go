package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/conformance/cluster"
	"github.com/sputnikmq/sputnik/tools/brokerbench"
)

func TestVerdict(t *testing.T) {
	tests := []struct {
		name   string
		r      row
		ratio  string
		result string
	}{
		{"higher pass", row{java: 100, sput: 200, higher: true, target: 1.5}, "2.00×", "PASS (≥ 1.5×)"},
		{"higher miss", row{java: 100, sput: 120, higher: true, target: 1.3}, "1.20×", "MISS (≥ 1.3×)"},
		{"lower pass", row{java: 10, sput: 4, target: 0.5}, "0.40×", "PASS (≤ 0.5×)"},
		{"lower miss", row{java: 10, sput: 6, target: 0.5}, "0.60×", "MISS (≤ 0.5×)"},
		{"absolute pass", row{java: 200, sput: 7, unit: "MiB", target: 64, abs: true}, "0.04×", "PASS (≤ 64.0 MiB)"},
		{"absolute miss", row{java: 200, sput: 96, unit: "MiB", target: 64, abs: true}, "0.48×", "MISS (≤ 64.0 MiB, 1.50× over)"},
		{"not measured", row{java: 0, sput: 5, higher: true, target: 1.3}, "–", "n/a"},
		{"absolute not measured", row{java: 200, sput: 0, unit: "ms", target: 300, abs: true}, "0.00×", "n/a"},
		{"no target", row{java: 1, sput: 2}, "2.00×", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ratio, result := tc.r.verdict()
			require.Equal(t, tc.ratio, ratio)
			require.Equal(t, tc.result, result)
		})
	}
}

func TestMarkdownAndComplete(t *testing.T) {
	j := &implRun{Impl: cluster.Java, RawSend: brokerbench.SendResult{TPS: 1000}, IdleRSS: 200 << 20}
	s := &implRun{Impl: cluster.Sputnik, RawSend: brokerbench.SendResult{TPS: 1400}, IdleRSS: 8 << 20}
	rep := &report{Rounds: []round{{Round: 1, Java: j, Sputnik: s}}}
	require.True(t, rep.complete())
	var b bytes.Buffer
	rep.printMarkdown(&b)
	out := b.String()
	require.Contains(t, out, "| 1 KiB sync send, raw frames (msg/s) | 1000 | 1400 | 1.40× | MISS (≥ 1.5×) |")
	require.Contains(t, out, "| idle RSS (MiB) | 200 | 8.00 | 0.04× | PASS (≤ 64.0 MiB) |")
	require.False(t, strings.Contains(out, "Diagnostic"))
	s.Errors = []string{"boom"}
	require.False(t, rep.complete())
	require.False(t, (&report{}).complete())
}

// Several rounds get a summary per target: rounds met, median and range
// (ratios, or Sputnik's own value for an absolute bound); one round none.
func TestSummaryOverRounds(t *testing.T) {
	mk := func(javaTPS, sputTPS float64, sputRSS int64) round {
		return round{
			Java:    &implRun{Impl: cluster.Java, RawSend: brokerbench.SendResult{TPS: javaTPS}, IdleRSS: 200 << 20},
			Sputnik: &implRun{Impl: cluster.Sputnik, RawSend: brokerbench.SendResult{TPS: sputTPS}, IdleRSS: sputRSS},
		}
	}
	rep := &report{Rounds: []round{mk(1000, 1400, 8<<20)}}
	var b bytes.Buffer
	rep.printMarkdown(&b)
	require.NotContains(t, b.String(), "All rounds")

	rep.Rounds = append(rep.Rounds, mk(1000, 2000, 70<<20), mk(1000, 1600, 9<<20))
	b.Reset()
	rep.printMarkdown(&b)
	_, out, ok := strings.Cut(b.String(), "All rounds")
	require.True(t, ok)
	require.Contains(t, out, "| 1 KiB sync send, raw frames | 2 of 3 | 1.60× | 1.40× – 2.00× | ≥ 1.5× |")
	require.Contains(t, out, "| idle RSS (MiB) | 2 of 3 | 9.00 | 8.00 – 70.00 | ≤ 64.0 MiB |")
	require.NotContains(t, out, "| drain, Java push consumer |", "a target no round measured is left out")
	require.NotContains(t, out, "| start to registered (ms) |", "nor one measured as zero")
	require.Contains(t, out, "CPU time stolen by the host during a broker's run: Java 0.0–0.0%, Sputnik 0.0–0.0%.\n")

	rep.Rounds[1].Round = 2
	rep.Rounds[1].Java.HostSteal, rep.Rounds[2].Sputnik.HostSteal = 0.062, 0.031
	b.Reset()
	rep.printMarkdown(&b)
	require.Contains(t, b.String(), "Java 0.0–6.2%, Sputnik 0.0–3.1%. Rounds with more than 5% on either side: 2.\n")
}

// A drain's CPU is printed per message: consumer, broker and their sum
// when the consumer ran in its own process, the broker's alone when not.
func TestDrainCPURows(t *testing.T) {
	cpu := func(consumer, broker time.Duration) drainCPU {
		return drainCPU{Messages: 1_000_000, Consumer: consumer, Broker: broker, Machine: consumer + broker + 300*time.Millisecond,
			Steal: broker / 10}
	}
	j := &implRun{Impl: cluster.Java, HostSteal: 0.042, JavaDrainCPU: cpu(10*time.Second, 6500*time.Millisecond), GoDrainCPU: cpu(0, 11*time.Second)}
	s := &implRun{Impl: cluster.Sputnik, JavaDrainCPU: cpu(10*time.Second, 1700*time.Millisecond), GoDrainCPU: cpu(0, 2500*time.Millisecond)}
	var b bytes.Buffer
	(&report{Rounds: []round{{Round: 1, Java: j, Sputnik: s}}}).printMarkdown(&b)
	out := b.String()
	require.Contains(t, out, "| consumer CPU per message, Java push consumer (µs) | 10.00 | 10.00 | 1.00× |  |")
	require.Contains(t, out, "| broker CPU per message, Java push consumer (µs) | 6.50 | 1.70 | 0.26× |  |")
	require.Contains(t, out, "| consumer + broker CPU per message, Java push consumer (µs) | 16.50 | 11.70 | 0.71× |  |")
	require.Contains(t, out, "| rest of the machine's CPU per message, Java push consumer (µs) | 0.30 | 0.30 | 1.00× |  |")
	require.Contains(t, out, "| CPU stolen by the host per message, Java push consumer (µs) | 0.65 | 0.17 | 0.26× |  |")
	require.Contains(t, out, "| broker CPU per message, client-go push consumer (µs) | 11.00 | 2.50 | 0.23× |  |")
	require.NotContains(t, out, "consumer CPU per message, client-go")
	require.Contains(t, out, "CPU time stolen by the host: 4.2% during Java's run, 0.0% during Sputnik's")
	require.Zero(t, drainCPU{}.perMessage(time.Second))
}
