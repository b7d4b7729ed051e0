package report

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func sampleReport() *Report {
	r := &Report{Impls: []string{"java", "sputnik"}}
	add := func(name, impl string, st Status, reason string, obs ...Observation) {
		r.Add(&Result{Scenario: name, Impl: impl, Status: st, Reason: reason, Observations: obs}, []string{"quick"})
	}
	add("a/pass", "java", Pass, "", Observation{"out", "x\ny"})
	add("a/pass", "sputnik", Pass, "", Observation{"out", "x\ny"})
	add("a/diff", "java", Pass, "", Observation{"out", "x\ny"})
	add("a/diff", "sputnik", Pass, "", Observation{"out", "x\nz"})
	add("a/fail", "java", Pass, "")
	add("a/fail", "sputnik", Fail, "cluster did not start: boom")
	add("a/known", "java", Pass, "")
	add("a/known", "sputnik", Fail, "cluster did not start: boom")
	add("a/broken", "java", Fail, "scenario bug")
	add("a/broken", "sputnik", Fail, "cluster did not start: boom")
	add("a/skip", "java", Skip, "no HA here")
	add("a/skip", "sputnik", Skip, "no HA here")
	return r
}

func TestFinishAndMatrix(t *testing.T) {
	r := sampleReport()
	known, err := ParseKnownFailures("# comment\n\na/kn* issue #4: name server not implemented\n")
	if err != nil {
		t.Fatal(err)
	}
	r.Finish(known)
	s := r.Summary
	if s.Impl != "sputnik" || s.Passed != 1 || s.Failed != 4 || s.Skipped != 1 || s.Known != 1 || s.Unexpected != 2 || s.Broken != 1 {
		t.Fatalf("summary %+v", s)
	}
	if got := r.Rows[1].Results["sputnik"]; got.Status != Fail || !strings.Contains(got.Reason, `line 2: java "y", sputnik "z"`) {
		t.Errorf("observation diff not reported: %+v", got)
	}
	if r.ExitCode() != 1 {
		t.Error("exit code 0 with unexpected failures")
	}
	var out bytes.Buffer
	r.PrintMatrix(&out)
	text := out.String()
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	if last := lines[len(lines)-1]; last != "1 passed, 4 failed" {
		t.Errorf("last line %q", last)
	}
	for _, want := range []string{"BROKEN scenario: fails against Java", "FAIL(known)", "SPUTNIK failures and skips:",
		"a/fail, a/known, a/broken", "SCENARIO"} {
		if !strings.Contains(text, want) {
			t.Errorf("matrix lacks %q:\n%s", want, text)
		}
	}
}

func TestExitCodeClean(t *testing.T) {
	r := &Report{Impls: []string{"java", "sputnik"}}
	r.Add(&Result{Scenario: "x", Impl: "java", Status: Pass}, nil)
	r.Add(&Result{Scenario: "x", Impl: "sputnik", Status: Fail, Reason: "r"}, nil)
	known, _ := ParseKnownFailures("x listed\n")
	r.Finish(known)
	if r.ExitCode() != 0 {
		t.Errorf("known failure failed the run: %+v", r.Summary)
	}
	// A listed scenario that passes is stale: reported, not fatal.
	r = &Report{Impls: []string{"sputnik"}}
	r.Add(&Result{Scenario: "x", Impl: "sputnik", Status: Pass}, nil)
	r.Finish(known)
	if r.ExitCode() != 0 || r.Summary.Stale != 1 {
		t.Errorf("stale entry: exit %d, %+v", r.ExitCode(), r.Summary)
	}
}

func TestSummaryWithoutSputnik(t *testing.T) {
	r := &Report{Impls: []string{"java"}}
	r.Add(&Result{Scenario: "x", Impl: "java", Status: Pass}, nil)
	r.Finish(nil)
	if r.Summary.Impl != "java" || r.Summary.Passed != 1 {
		t.Errorf("%+v", r.Summary)
	}
}

func TestWriteJSON(t *testing.T) {
	r := sampleReport()
	r.Finish(nil)
	path := filepath.Join(t.TempDir(), "r.json")
	if err := r.WriteJSON(path); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	var back Report
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Rows) != len(r.Rows) || back.Rows[0].Results["java"].Status != Pass || back.Summary != r.Summary {
		t.Errorf("round trip lost data: %s", b)
	}
}

func TestKnownFailurePatterns(t *testing.T) {
	k, err := ParseKnownFailures("namesrv/* whole area\nbroker/send.x exact\n")
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]bool{"namesrv/kv/raw": true, "broker/send.x": true, "broker/sendXx": false, "xnamesrv/a": false} {
		if got := k.Match(name) != ""; got != want {
			t.Errorf("Match(%q) = %v", name, got)
		}
	}
}
