package storebench

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/sputnikmq/sputnik/tools/benchcli"
)

// Job is one store run in a child process: a fresh process per run, so
// that its memory numbers are its own and a kill -9 is real.
type Job struct {
	Kind        string `json:"kind"` // JobAppend, JobFill or JobRecover
	Dir         string `json:"dir"`
	Size        int    `json:"size"`
	Threads     int    `json:"threads"`
	Queues      int    `json:"queues"`
	Messages    int64  `json:"messages"`
	SegmentSize int32  `json:"segmentSize"`
	// Settings are MessageStoreConfig key=value pairs for both stores.
	Settings      []string `json:"settings,omitempty"`
	ProgressBytes int64    `json:"progressBytes"`
	Halt          bool     `json:"halt"`
	CPUProfile    string   `json:"cpuProfile,omitempty"`
}

// The job kinds.
const (
	JobAppend  = "append"
	JobFill    = "fill"
	JobRecover = "recover"
)

// ErrChild: a child run failed or printed no result.
var ErrChild = errors.New("storebench: child run failed")

// childEnv carries a Sputnik child's Job (JSON).
const childEnv = "SPUTNIK_STOREBENCH_CHILD"

// ChildMain runs the Job in SPUTNIK_STOREBENCH_CHILD and exits, when this
// process is a Sputnik child; otherwise it returns at once. Call it first
// thing in main (and in TestMain).
func ChildMain() {
	spec := os.Getenv(childEnv)
	if spec == "" {
		return
	}
	var j Job
	err := json.Unmarshal([]byte(spec), &j)
	if err == nil {
		err = runChild(&j, os.Stdout)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "storebench child:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

func runChild(j *Job, out io.Writer) error {
	if j.CPUProfile != "" {
		stop, err := benchcli.StartCPUProfile(j.CPUProfile)
		if err != nil {
			return fmt.Errorf("storebench: %w", err)
		}
		defer stop()
	}
	var res any
	var err error
	switch j.Kind {
	case JobAppend:
		res, err = sputnikAppend(j)
	case JobRecover:
		res, err = sputnikRecover(j)
	case JobFill:
		return sputnikFill(j, out)
	default:
		return fmt.Errorf("storebench: unknown job kind %q", j.Kind)
	}
	if res != nil {
		if e := json.NewEncoder(out).Encode(res); e != nil {
			err = errors.Join(err, e)
		}
	}
	return err
}

// sputnikCommand is the command running j in a Sputnik child: this very
// executable with the job in its environment.
func sputnikCommand(ctx context.Context, j *Job) (*exec.Cmd, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("storebench: own executable: %w", err)
	}
	spec, err := json.Marshal(j)
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, exe)
	cmd.Env = append(os.Environ(), childEnv+"="+string(spec))
	return cmd, nil
}

// process is a started child whose memory is sampled while it runs.
type process struct {
	cmd    *exec.Cmd
	stderr strings.Builder
	peak   Peak
}

// runProcess starts cmd, samples its RSS every 50 ms, hands each stdout
// line to onLine (which may return true to have the child killed with
// SIGKILL) and returns the last line once the child has exited.
func runProcess(cmd *exec.Cmd, onLine func(string) bool) (last string, p *process, err error) {
	p = &process{cmd: cmd}
	cmd.Stderr = &p.stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return "", p, err
	}
	if err := cmd.Start(); err != nil {
		return "", p, fmt.Errorf("storebench: start %s: %w", cmd.Path, err)
	}
	stop := p.sampleEvery(50 * time.Millisecond)
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	killed := false
	for sc.Scan() {
		last = sc.Text()
		if onLine != nil && !killed && onLine(last) {
			killed = true
			_ = cmd.Process.Signal(syscall.SIGKILL)
		}
	}
	err = cmd.Wait()
	stop()
	if killed {
		return last, p, nil
	}
	if err != nil {
		return last, p, fmt.Errorf("%w: %s: %v\n%s", ErrChild, cmd.Path, err, tail(p.stderr.String(), 2000))
	}
	return last, p, nil
}

func (p *process) sampleEvery(d time.Duration) (stop func()) {
	pid := strconv.Itoa(p.cmd.Process.Pid)
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(d)
		defer t.Stop()
		for {
			p.peak.sample(pid)
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() { close(done); <-finished }
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}

// decodeResult parses a child's JSON result line into v.
func decodeResult(line string, v any) error {
	if err := json.Unmarshal([]byte(line), v); err != nil {
		return fmt.Errorf("%w: result line %q: %v", ErrChild, tail(line, 300), err)
	}
	return nil
}
