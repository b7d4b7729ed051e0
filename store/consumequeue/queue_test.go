package consumequeue

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/store/segment"
)

const tinyFile = 5 * UnitSize // 5 units per file

func openTiny(t testing.TB, root string) *Queue {
	t.Helper()
	q, err := Open(segment.OS, root, "T", 0, tinyFile, Options{})
	require.NoError(t, err)
	t.Cleanup(q.Close)
	return q
}

func unitN(i int64) Unit { return Unit{Phy: 100 * i, Size: 100, TagsCode: i} }

func putN(t testing.TB, q *Queue, from, to int64) {
	t.Helper()
	for i := from; i < to; i++ {
		require.NoError(t, q.Put(unitN(i), i))
	}
}

// checkUnits checks every offset in [min, max) reads back as unitN.
func checkUnits(t *testing.T, q *Queue, min, max int64) {
	t.Helper()
	require.Equal(t, min, q.MinOffset())
	require.Equal(t, max, q.MaxOffset())
	for i := min; i < max; i++ {
		u, err := q.Get(i)
		require.NoError(t, err, "offset %d", i)
		require.Equal(t, unitN(i), u, "offset %d", i)
	}
	_, err := q.Get(max)
	require.ErrorIs(t, err, ErrNotHeld)
}

func TestPutGetAcrossFiles(t *testing.T) {
	root := t.TempDir()
	q := openTiny(t, root)
	require.EqualValues(t, -1, q.MaxPhysicalOffset())
	putN(t, q, 0, 12)
	checkUnits(t, q, 0, 12)
	require.EqualValues(t, 1200, q.MaxPhysicalOffset())
	require.Len(t, q.Files().Segments(), 3)

	us, err := q.Read(3)
	require.NoError(t, err)
	require.Equal(t, 2, us.Len(), "a view ends with its file")
	require.EqualValues(t, 4, us.Offset(1))
	require.Equal(t, unitN(4), us.At(1))
	us.Release()
	us, err = q.Read(10)
	require.NoError(t, err)
	require.Equal(t, 2, us.Len(), "the last file's view ends at the write position")
	us.Release()
	_, err = q.Read(-1)
	require.ErrorIs(t, err, ErrNotHeld)
	require.EqualValues(t, 15, q.RollNextFile(12))
	require.EqualValues(t, 10, q.RollNextFile(5))
	require.EqualValues(t, 1200, q.LastPhysicalOffset())
}

// Java 4.9.8: ConsumeQueue.putMessagePositionInfo / fillPreBlank.
func TestFrontFill(t *testing.T) {
	tests := []struct {
		start     int64
		blanks    int
		firstFile int64
	}{{7, 2, 100}, {5, 0, 100}, {3, 3, 0}, {1, 1, 0}}
	for _, tt := range tests {
		q := openTiny(t, t.TempDir())
		putN(t, q, tt.start, tt.start+4)
		checkUnits(t, q, tt.start, tt.start+4)
		first := q.Files().First()
		require.Equal(t, tt.firstFile, first.Base())
		for i := 0; i < tt.blanks; i++ {
			require.Equal(t, Blank, unitAt(first.Mapped(), i*UnitSize))
		}
		_, err := q.Get(tt.start - 1)
		require.ErrorIs(t, err, ErrNotHeld, "below the minimum")
	}
}

func TestPutRepeatsAndGaps(t *testing.T) {
	q := openTiny(t, t.TempDir())
	putN(t, q, 0, 3)
	// Same record again: ignored (maxPhysicOffset check).
	require.NoError(t, q.Put(unitN(1), 1))
	// A later record under an offset already written: ignored.
	require.NoError(t, q.Put(Unit{Phy: 5000, Size: 1}, 2))
	checkUnits(t, q, 0, 3)
	// A negative offset: ignored, as Java's repeated-build branch does.
	require.NoError(t, q.Put(Unit{Phy: 6000, Size: 1}, -1))
	checkUnits(t, q, 0, 3)
	require.NoError(t, q.Put(unitN(3), 3))
	checkUnits(t, q, 0, 4)
}

// A unit past the end within the file being written: Blank units fill the
// gap and the unit lands at its own offset (Java appends it at the end,
// under the wrong offset); farther: at the end, as Java does. Dispatch
// goes on either way.
func TestPutPastTheEnd(t *testing.T) {
	root := t.TempDir()
	q := openTiny(t, root)
	putN(t, q, 0, 6) // file 0 full, file 1 holds offset 5
	require.NoError(t, q.Put(unitN(8), 8))
	require.EqualValues(t, 9, q.MaxOffset())
	for i := int64(6); i < 8; i++ {
		u, err := q.Get(i)
		require.NoError(t, err)
		require.True(t, u.IsBlank(), "offset %d", i)
	}
	u, err := q.Get(8)
	require.NoError(t, err)
	require.Equal(t, unitN(8), u)
	require.EqualValues(t, unitN(8).End(), q.MaxPhysicalOffset())

	// Offset 12 is in the next file: appended at 9, Java's way.
	require.NoError(t, q.Put(unitN(12), 12))
	u, err = q.Get(9)
	require.NoError(t, err)
	require.Equal(t, unitN(12), u)

	// Recovery keeps it all, Blank units included.
	q.Close()
	q, err = Open(segment.OS, root, "T", 0, tinyFile, Options{})
	require.NoError(t, err)
	defer q.Close()
	require.NoError(t, q.Recover())
	require.EqualValues(t, 10, q.MaxOffset())
	require.EqualValues(t, unitN(12).End(), q.MaxPhysicalOffset())
	u, err = q.Get(7)
	require.NoError(t, err)
	require.True(t, u.IsBlank())
}

// lastFile is the path of the newest segment of q.
func lastFile(q *Queue) string { return q.Files().Last().Path() }

// Every byte of the last unit lost (zeroed, the file keeps its size, as
// after a crash with a mapped file): recovery keeps exactly the units
// Java's rule (offset ≥ 0 and size > 0) accepts, and nothing after.
func TestRecoverTornLastUnit(t *testing.T) {
	const n = 12 // last unit is offset 11, at byte 20 of the third file
	for cut := 0; cut <= UnitSize; cut++ {
		root := t.TempDir()
		q, err := Open(segment.OS, root, "T", 0, tinyFile, Options{})
		require.NoError(t, err)
		putN(t, q, 0, n)
		path := lastFile(q)
		q.Close()

		b, err := os.ReadFile(path)
		require.NoError(t, err)
		lastPos := int((n - 1) % 5 * UnitSize)
		clear(b[lastPos+cut:])
		require.NoError(t, os.WriteFile(path, b, 0o644))
		torn := unitAt(b, lastPos)

		q = openTiny(t, root)
		require.NoError(t, q.Recover())
		want := int64(n - 1)
		if torn.Valid() {
			want = n
		}
		if cut <= unitSizePos {
			require.EqualValues(t, n-1, want, "cut %d: size zeroed", cut)
		}
		require.Equal(t, want, q.MaxOffset(), "cut %d", cut)
		for i := int64(0); i < n-1; i++ {
			u, err := q.Get(i)
			require.NoError(t, err)
			require.Equal(t, unitN(i), u)
		}
		require.Equal(t, max(torn.End(), unitN(n-2).End()), q.MaxPhysicalOffset(), "cut %d", cut)
		if !torn.Valid() {
			require.Equal(t, unitN(n-2).End(), q.MaxPhysicalOffset())
		}
	}
}

func TestRecoverGarbageAndOldFiles(t *testing.T) {
	root := t.TempDir()
	q, err := Open(segment.OS, root, "T", 0, tinyFile, Options{})
	require.NoError(t, err)
	putN(t, q, 0, 23) // files 0..4, the last holding 20..22
	segs := q.Files().Segments()
	// Garbage in the first file: not scanned (Java starts at the third-last).
	Unit{Phy: -5, Size: 1}.Put(segs[0].Mapped()[UnitSize:])
	// Garbage as the last unit: recovery stops before it.
	Unit{Phy: -1, Size: 100}.Put(segs[4].Mapped()[2*UnitSize:])
	q.Close()

	q = openTiny(t, root)
	require.EqualValues(t, 25, q.MaxOffset(), "loaded files start full")
	require.NoError(t, q.Recover())
	require.EqualValues(t, 22, q.MaxOffset())
	require.EqualValues(t, 2200, q.MaxPhysicalOffset())
	u, err := q.Get(1)
	require.NoError(t, err)
	require.EqualValues(t, -5, u.Phy, "older files are trusted")
	require.NoError(t, q.Put(unitN(22), 22))
	u, err = q.Get(22)
	require.NoError(t, err)
	require.Equal(t, unitN(22), u)
}

// Java 4.9.8: ConsumeQueue.truncateDirtyLogicFiles.
func TestTruncateAfter(t *testing.T) {
	tests := []struct {
		phy     int64
		wantMax int64
		wantPhy int64
		files   int
	}{
		{1250, 13, 1300, 3}, // mid-file: unit 12 (phy 1200) kept
		{1000, 10, 1000, 2}, // first unit of the third file dirty: file removed
		{50, 1, 100, 1},
		{0, 0, 0, 0}, // everything: maxPhysicalOffset is phyOffset
		{9999, 14, 1400, 3},
	}
	for _, tt := range tests {
		q := openTiny(t, t.TempDir())
		putN(t, q, 0, 14)
		require.NoError(t, q.TruncateAfter(tt.phy))
		require.Equal(t, tt.wantMax, q.MaxOffset(), "phy %d", tt.phy)
		require.Equal(t, tt.wantPhy, q.MaxPhysicalOffset(), "phy %d", tt.phy)
		require.Len(t, q.Files().Segments(), tt.files, "phy %d", tt.phy)
		if tt.wantMax > 0 {
			checkUnits(t, q, 0, tt.wantMax)
		}
		putN(t, q, tt.wantMax, tt.wantMax+3)
		checkUnits(t, q, 0, tt.wantMax+3)
	}
}

// Units cut off after the commit log lost their records (a power cut that
// kept the queue's newer pages) are gone from the file: a later crash
// recovery, before new units overwrite them, must not take them back.
// Java's truncation only moves the write position, so its next recovery
// finds them again, pointing at whatever the commit log wrote there since.
func TestTruncatedUnitsDoNotComeBack(t *testing.T) {
	root := t.TempDir()
	q := openTiny(t, root)
	putN(t, q, 0, 4)
	require.NoError(t, q.TruncateAfter(150)) // the log lost its records from 150
	checkUnits(t, q, 0, 2)
	q.Close()

	q = openTiny(t, root)
	require.NoError(t, q.Recover())
	checkUnits(t, q, 0, 2)
	putN(t, q, 2, 3)
	q.Close()
	q = openTiny(t, root)
	require.NoError(t, q.Recover())
	checkUnits(t, q, 0, 3)
}

// A crash between a front fill and the unit after it leaves a queue that
// ends in Blank units. Java recovers its maxPhysicOffset as
// Integer.MAX_VALUE, then takes every later unit for a repeated build and
// starts dispatch there; here Blank units set no physical offset.
func TestRecoverQueueEndingInBlankUnits(t *testing.T) {
	root := t.TempDir()
	file := make([]byte, tinyFile)
	for i := range 3 {
		Blank.Put(file[i*UnitSize:])
	}
	dir := filepath.Join(root, "T", "0")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, segment.FileName(0)), file, 0o644))

	q := openTiny(t, root)
	require.NoError(t, q.Recover())
	require.EqualValues(t, 3, q.MaxOffset())
	require.EqualValues(t, -1, q.MaxPhysicalOffset())
	require.NoError(t, q.TruncateAfter(300)) // the commit log ends at 300
	require.EqualValues(t, 300, q.MaxPhysicalOffset(), "as when no unit is left")
	putN(t, q, 3, 5) // records at 300 and 400
	require.EqualValues(t, 5, q.MaxOffset())
	for i := int64(3); i < 5; i++ {
		u, err := q.Get(i)
		require.NoError(t, err)
		require.Equal(t, unitN(i), u)
	}
}

// Deviation from Java (see TruncateAfter): an all-zero last file is removed.
func TestTruncateAfterEmptyLastFile(t *testing.T) {
	root := t.TempDir()
	q, err := Open(segment.OS, root, "T", 0, tinyFile, Options{})
	require.NoError(t, err)
	putN(t, q, 0, 5)
	require.NoError(t, q.Put(Unit{Phy: 450, Size: 100}, 4)) // repeat: creates the empty next file
	require.Len(t, q.Files().Segments(), 2)
	q.Close()
	q = openTiny(t, root)
	require.NoError(t, q.Recover())
	require.NoError(t, q.TruncateAfter(300))
	checkUnits(t, q, 0, 3)
	require.Len(t, q.Files().Segments(), 1)
	_, err = os.Stat(filepath.Join(root, "T", "0", segment.FileName(tinyFile)))
	require.ErrorIs(t, err, os.ErrNotExist)
}

// Java 4.9.8: ConsumeQueue.correctMinOffset, deleteExpiredFile.
func TestCorrectMinAndDelete(t *testing.T) {
	q := openTiny(t, t.TempDir())
	putN(t, q, 3, 14) // blanks at 0..2
	require.NoError(t, q.CorrectMinOffset(0))
	require.EqualValues(t, 0, q.MinOffset(), "blank units (offset 0) qualify when the commit log starts at 0, as in Java")
	require.NoError(t, q.CorrectMinOffset(350))
	require.EqualValues(t, 4, q.MinOffset())
	require.NoError(t, q.CorrectMinOffset(99999))
	require.EqualValues(t, 4, q.MinOffset(), "no unit qualifies: left alone")

	n, err := q.DeleteBefore(650)
	require.NoError(t, err)
	require.Equal(t, 1, n, "file 0 ends with unit 4 (phy 400)")
	require.EqualValues(t, 7, q.MinOffset())
	n, err = q.DeleteBefore(99999)
	require.NoError(t, err)
	require.Equal(t, 1, n, "the newest file is never removed")
	require.EqualValues(t, 7, q.MinOffset(), "no unit of the first file qualifies: Java leaves the minimum in the removed file")
	_, err = q.Get(7)
	require.ErrorIs(t, err, ErrNotHeld)
	require.EqualValues(t, 14, q.MaxOffset())
}

// Java 4.9.8: ConsumeQueue.getOffsetInQueueByTime.
func TestOffsetByTime(t *testing.T) {
	q := openTiny(t, t.TempDir())
	require.EqualValues(t, 0, q.OffsetByTime(1, 0, nil), "empty queue")
	putN(t, q, 0, 5)
	// store times of units 0..4
	times := map[int64]int64{0: 1000, 100: 2000, 200: 2000, 300: 2000, 400: 5000}
	lookup := func(phy int64, _ int32) (int64, bool) { st, ok := times[phy]; return st, ok }
	tests := []struct {
		name   string
		ts     int64
		minPhy int64
		want   int64
	}{
		{"before first", 10, 0, 0},
		{"first", 1000, 0, 0},
		{"equal timestamps: binary search hits the middle one", 2000, 0, 2},
		{"between, nearer left", 2100, 0, 3},
		{"between, nearer right", 4900, 0, 4},
		{"tie goes left", 3500, 0, 3},
		{"after last", 9000, 0, 4},
		{"units before the commit log are skipped", 10, 250, 3},
		{"all skipped: derived from -1", 10, 9999, 0},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, q.OffsetByTime(tt.ts, tt.minPhy, lookup), tt.name)
	}
	delete(times, 200)
	require.EqualValues(t, 0, q.OffsetByTime(2000, 0, lookup), "failed lookup")
	require.EqualValues(t, 1000, q.EarliestTime(lookup))
	require.EqualValues(t, -1, q.StoreTime(2, lookup))
}

func TestDestroy(t *testing.T) {
	root := t.TempDir()
	q := openTiny(t, root)
	putN(t, q, 0, 7)
	require.NoError(t, q.Destroy())
	require.EqualValues(t, -1, q.MaxPhysicalOffset())
	require.EqualValues(t, 0, q.MaxOffset())
	_, err := os.Stat(filepath.Join(root, "T", "0"))
	require.ErrorIs(t, err, os.ErrNotExist)
}

func TestOpenRefusesBadSizes(t *testing.T) {
	root := t.TempDir()
	_, err := Open(segment.OS, root, "T", 0, 30, Options{})
	require.Error(t, err)
	q := openTiny(t, root)
	putN(t, q, 0, 1)
	q.Close()
	_, err = Open(segment.OS, root, "T", 0, 2*tinyFile, Options{})
	require.ErrorIs(t, err, segment.ErrSize)
}
