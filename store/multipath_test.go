package store

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// Java MultiPathMappedFileQueue.tryCreateMappedFile: sorted paths that are
// neither read-only nor full (else those not read-only), picked by the
// segment number.
func TestCommitLogDirsPlace(t *testing.T) {
	const size = 100
	cases := []struct {
		name     string
		paths    []string
		readOnly []string
		full     []string
		bases    []int64
		want     []string
	}{
		{"round robin, sorted", []string{"/c", "/a", "/b"}, nil, nil, []int64{0, 100, 200, 300, 1000}, []string{"/a", "/b", "/c", "/a", "/b"}},
		{"read-only skipped", []string{"/a", "/b", "/c"}, []string{"/b"}, nil, []int64{0, 100, 200}, []string{"/a", "/c", "/a"}},
		{"full skipped", []string{"/a", "/b", "/c"}, nil, []string{"/a"}, []int64{0, 100}, []string{"/b", "/c"}},
		{"all full: any writable", []string{"/a", "/b"}, []string{"/b"}, []string{"/a"}, []int64{0, 100}, []string{"/a", "/a"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := &commitLogDirs{segmentSize: size, paths: c.paths, readOnly: c.readOnly}
			d.setFull(c.full)
			for i, base := range c.bases {
				got, err := d.place(base)
				require.NoError(t, err)
				require.Equal(t, c.want[i], got, "base %d", base)
			}
		})
	}
	d := &commitLogDirs{segmentSize: size, paths: []string{"/a"}, readOnly: []string{"/a", "/r"}}
	_, err := d.place(0)
	require.ErrorIs(t, err, ErrNoWritablePath)
	require.Equal(t, []string{"/a", "/r"}, d.all())
}

// A multi-path store reads segments from read-only paths, writes new ones
// only to the others, skips a path whose disk is over the forcible-clean
// ratio, and reads everything back after a restart.
func TestMultiPathStore(t *testing.T) {
	root := t.TempDir()
	a, b, ro := filepath.Join(root, "a"), filepath.Join(root, "b"), filepath.Join(root, "ro")
	cfg := testConfig(root)
	paths := a + "," + b
	cfg.StorePathCommitLog = &paths
	s := openStore(t, cfg)
	msgs := putN(t, s, 300)
	checkAll(t, s, msgs)
	require.NoError(t, s.Close())
	segsA, segsB := files(t, a), files(t, b)
	require.NotEmpty(t, segsA)
	require.NotEmpty(t, segsB)

	// b's segments become read-only history; b's disk is "full" too.
	require.NoError(t, os.Rename(b, ro))
	paths = a + "," + b
	cfg.ReadOnlyCommitLogStorePaths = &ro
	usage := func(p string) float64 {
		if p == b {
			return 0.87
		}
		return 0.5
	}
	s, err := Open(cfg, Options{Master: true, DiskUsage: usage})
	require.NoError(t, err)
	require.NoError(t, s.Start())
	defer s.Close()
	checkAll(t, s, msgs)
	require.InDelta(t, 0.5, s.commitLogUsage(), 1e-9, "the emptiest path; b recorded as full (the retention service measures this every cleanResourceInterval)")
	more := putN(t, s, 300)
	checkAll(t, s, append(msgs, more...))
	require.Empty(t, files(t, b), "b is full while a has room")
	require.Equal(t, segsB, files(t, ro), "read-only path untouched")
	require.Greater(t, len(files(t, a)), len(segsA))
}

func files(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil
	}
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// With every path read-only a put fails cleanly as CREATE_MAPEDFILE_FAILED
// once it needs a new segment.
func TestMultiPathAllReadOnly(t *testing.T) {
	root := t.TempDir()
	a, b := filepath.Join(root, "a"), filepath.Join(root, "b")
	cfg := testConfig(root)
	paths, ro := a+","+b, a+","+b
	cfg.StorePathCommitLog, cfg.ReadOnlyCommitLogStorePaths = &paths, &ro
	s := openStore(t, cfg)
	defer s.Close()
	r := s.PutMessage(&Message{Topic: "T", Body: []byte("x"), BornHost: testBorn, StoreHost: testStore})
	require.Equal(t, CreateMappedFileFailed, r.Status)
	require.ErrorIs(t, r.Err, ErrNoWritablePath)
}
