// Package report holds the results of a conformance run and renders them:
// the side-by-side matrix (scenario × implementation), the closing
// "N passed, M failed" line for Sputnik, and the JSON report.
package report

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strings"
	"time"
)

// Status of one scenario run against one implementation.
type Status string

// The statuses. Fail covers both a failed check and a Sputnik run whose
// observations differ from the Java run's (Reason says which).
const (
	Pass Status = "PASS"
	Fail Status = "FAIL"
	Skip Status = "SKIP"
)

// Observation is a normalized output recorded by a scenario.
type Observation struct {
	Name string `json:"name"`
	Text string `json:"text"`
}

// Result is one scenario × implementation cell.
type Result struct {
	Scenario     string        `json:"scenario"`
	Impl         string        `json:"impl"`
	Shape        string        `json:"shape"`
	Status       Status        `json:"status"`
	Reason       string        `json:"reason,omitempty"`
	Seconds      float64       `json:"seconds"`
	Log          string        `json:"log,omitempty"`
	Observations []Observation `json:"observations,omitempty"`
	// KnownFailure is the known-failures entry that matched a failed
	// Sputnik result (or a passing one: then it is stale).
	KnownFailure string `json:"knownFailure,omitempty"`
}

// Row is one scenario across implementations, with its verdict.
type Row struct {
	Scenario string             `json:"scenario"`
	Tags     []string           `json:"tags"`
	Results  map[string]*Result `json:"results"`
	// Broken is set when the scenario failed against Java: the scenario,
	// not Sputnik, needs fixing.
	Broken bool `json:"broken,omitempty"`
}

// Boot records how long a cluster took to start.
type Boot struct {
	Impl    string  `json:"impl"`
	Shape   string  `json:"shape"`
	Seconds float64 `json:"seconds"`
	Error   string  `json:"error,omitempty"`
}

// Summary counts the Sputnik column (or, when Sputnik was not run, the
// first implementation's).
type Summary struct {
	Impl    string `json:"impl"`
	Passed  int    `json:"passed"`
	Failed  int    `json:"failed"`
	Skipped int    `json:"skipped"`
	// Known counts failures listed in the known-failures file; Unexpected
	// the others on scenarios that pass against Java.
	Known      int `json:"knownFailures"`
	Unexpected int `json:"unexpectedFailures"`
	Broken     int `json:"broken"`
	Stale      int `json:"staleKnownFailures"`
}

// Report is a whole run.
type Report struct {
	Started    time.Time         `json:"started"`
	Seconds    float64           `json:"seconds"`
	Impls      []string          `json:"impls"`
	BrokerImpl string            `json:"brokerImpl"`
	Versions   map[string]string `json:"versions"`
	RunDir     string            `json:"runDir"`
	Boots      []Boot            `json:"boots"`
	Rows       []*Row            `json:"rows"`
	Summary    Summary           `json:"summary"`
}

// Add records a result, creating its row on first sight (rows keep the
// order of their first result).
func (r *Report) Add(res *Result, tags []string) {
	for _, row := range r.Rows {
		if row.Scenario == res.Scenario {
			row.Results[res.Impl] = res
			return
		}
	}
	r.Rows = append(r.Rows, &Row{Scenario: res.Scenario, Tags: tags, Results: map[string]*Result{res.Impl: res}})
}

// Finish compares Sputnik's observations with Java's, marks broken rows and
// computes the summary.
func (r *Report) Finish(known *KnownFailures) {
	for _, row := range r.Rows {
		j, s := row.Results["java"], row.Results["sputnik"]
		row.Broken = j != nil && j.Status == Fail
		if j != nil && s != nil && j.Status == Pass && s.Status == Pass {
			if d := diffObservations(j.Observations, s.Observations); d != "" {
				s.Status = Fail
				s.Reason = "differs from java: " + d
			}
		}
		if s != nil && known != nil {
			s.KnownFailure = known.Match(row.Scenario)
		}
	}
	r.Summary = r.summarize()
}

func (r *Report) summaryImpl() string {
	for _, impl := range r.Impls {
		if impl == "sputnik" {
			return impl
		}
	}
	if len(r.Impls) > 0 {
		return r.Impls[0]
	}
	return ""
}

func (r *Report) summarize() Summary {
	sum := Summary{Impl: r.summaryImpl()}
	for _, row := range r.Rows {
		if row.Broken {
			sum.Broken++
		}
		res := row.Results[sum.Impl]
		if res == nil {
			continue
		}
		switch res.Status {
		case Pass:
			sum.Passed++
			if res.KnownFailure != "" {
				sum.Stale++
			}
		case Skip:
			sum.Skipped++
		case Fail:
			sum.Failed++
			switch {
			case res.KnownFailure != "":
				sum.Known++
			case !row.Broken:
				sum.Unexpected++
			}
		}
	}
	return sum
}

// ExitCode is 0 when the run is clean: no broken scenario and no Sputnik
// failure on a scenario that passes against Java (or was not run against
// it) unless listed as a known failure. Stale known-failure entries are
// reported but do not fail the run.
func (r *Report) ExitCode() int {
	if r.Summary.Broken > 0 || r.Summary.Unexpected > 0 {
		return 1
	}
	return 0
}

// diffObservations compares two lists of observations by name; it returns
// "" when equal, else the first difference.
func diffObservations(java, sputnik []Observation) string {
	sm := map[string]string{}
	for _, o := range sputnik {
		sm[o.Name] = o.Text
	}
	for _, o := range java {
		st, ok := sm[o.Name]
		if !ok {
			return fmt.Sprintf("%s: not recorded", o.Name)
		}
		if st != o.Text {
			return fmt.Sprintf("%s: %s", o.Name, firstDiff(o.Text, st))
		}
	}
	return ""
}

func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) || i < len(bl); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			return fmt.Sprintf("line %d: java %q, sputnik %q", i+1, x, y)
		}
	}
	return "differs"
}

// WriteJSON writes the report to path.
func (r *Report) WriteJSON(path string) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// cell renders a result for the matrix.
func cell(res *Result) string {
	if res == nil {
		return "-"
	}
	s := string(res.Status)
	switch {
	case res.Status == Fail && res.KnownFailure != "":
		s = "FAIL(known)"
	case res.Status == Pass && res.KnownFailure != "":
		s = "PASS(stale)"
	}
	return s
}

// PrintMatrix writes the side-by-side matrix, the reasons of every failure
// grouped by text, and the closing "N passed, M failed" line.
func (r *Report) PrintMatrix(w io.Writer) {
	if len(r.Versions) > 0 {
		keys := make([]string, 0, len(r.Versions))
		for k := range r.Versions {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		fmt.Fprintln(w)
		for _, k := range keys {
			fmt.Fprintf(w, "%s: %s\n", k, r.Versions[k])
		}
		fmt.Fprintf(w, "brokers: %s (-broker-impl)\n", r.BrokerImpl)
	}
	width := len("SCENARIO")
	for _, row := range r.Rows {
		width = max(width, len(row.Scenario))
	}
	fmt.Fprintf(w, "\n%-*s", width+2, "SCENARIO")
	for _, impl := range r.Impls {
		fmt.Fprintf(w, "  %-12s", strings.ToUpper(impl))
	}
	fmt.Fprintln(w, "  NOTE")
	for _, row := range r.Rows {
		fmt.Fprintf(w, "%-*s", width+2, row.Scenario)
		for _, impl := range r.Impls {
			fmt.Fprintf(w, "  %-12s", cell(row.Results[impl]))
		}
		note := ""
		if row.Broken {
			note = "BROKEN scenario: fails against Java"
		} else if res := firstFailure(row, r.Impls); res != nil {
			note = res.Impl + ": " + truncate(oneLine(res.Reason), 90)
		}
		fmt.Fprintf(w, "  %s\n", note)
	}
	r.printReasons(w)
	if len(r.Boots) > 0 {
		fmt.Fprintln(w, "\nCluster start times:")
		for _, b := range r.Boots {
			status := fmt.Sprintf("%.1fs", b.Seconds)
			if b.Error != "" {
				status += " FAILED: " + truncate(oneLine(b.Error), 140)
			}
			fmt.Fprintf(w, "  %-8s %-32s %s\n", b.Impl, b.Shape, status)
		}
	}
	s := r.Summary
	fmt.Fprintf(w, "\n%s: %d passed, %d failed (%d known, %d unexpected), %d skipped; %d broken scenarios; %d stale known-failure entries; %.0fs\n",
		s.Impl, s.Passed, s.Failed, s.Known, s.Unexpected, s.Skipped, s.Broken, s.Stale, r.Seconds)
	// The plain closing line, alone, counting the Sputnik column.
	fmt.Fprintf(w, "%d passed, %d failed\n", s.Passed, s.Failed)
}

func firstFailure(row *Row, impls []string) *Result {
	for i := len(impls) - 1; i >= 0; i-- { // sputnik after java: report it first
		if res := row.Results[impls[i]]; res != nil && res.Status != Pass && res.Reason != "" {
			return res
		}
	}
	return nil
}

func (r *Report) printReasons(w io.Writer) {
	type group struct {
		reason    string
		scenarios []string
	}
	for _, impl := range r.Impls {
		var groups []*group
		byReason := map[string]*group{}
		for _, row := range r.Rows {
			res := row.Results[impl]
			if res == nil || res.Status == Pass {
				continue
			}
			g := byReason[res.Reason]
			if g == nil {
				g = &group{reason: res.Reason}
				byReason[res.Reason] = g
				groups = append(groups, g)
			}
			g.scenarios = append(g.scenarios, row.Scenario)
		}
		if len(groups) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n%s failures and skips:\n", strings.ToUpper(impl))
		sort.SliceStable(groups, func(i, j int) bool { return len(groups[i].scenarios) > len(groups[j].scenarios) })
		for _, g := range groups {
			fmt.Fprintf(w, "  - %s\n", strings.Join(g.scenarios, ", "))
			fmt.Fprintf(w, "      %s\n", truncate(oneLine(g.reason), 600))
		}
	}
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-1] + "…"
}

// KnownFailures is the list of Sputnik failures expected for now: one
// entry per line, "<pattern> <reason…>", where the pattern matches
// scenario names with * standing for any run of characters; # starts a
// comment line.
type KnownFailures struct {
	entries []knownEntry
}

type knownEntry struct {
	re   *regexp.Regexp
	line string
}

// ParseKnownFailures parses the file's text.
func ParseKnownFailures(text string) (*KnownFailures, error) {
	k := &KnownFailures{}
	for n, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		pat, _, _ := strings.Cut(line, " ")
		re, err := regexp.Compile("^" + strings.ReplaceAll(regexp.QuoteMeta(pat), `\*`, ".*") + "$")
		if err != nil {
			return nil, fmt.Errorf("known failures line %d: %w", n+1, err)
		}
		k.entries = append(k.entries, knownEntry{re: re, line: line})
	}
	return k, nil
}

// LoadKnownFailures reads a known-failures file.
func LoadKnownFailures(path string) (*KnownFailures, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseKnownFailures(string(b))
}

// Match returns the first entry matching scenario, or "".
func (k *KnownFailures) Match(scenario string) string {
	for _, e := range k.entries {
		if e.re.MatchString(scenario) {
			return e.line
		}
	}
	return ""
}
