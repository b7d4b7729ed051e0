package body

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// addCases seeds f with every testdata/cases body of the given classes.
func addCases(f *testing.F, classes ...string) {
	files, err := filepath.Glob("testdata/cases/*.json")
	if err != nil {
		f.Fatal(err)
	}
	for _, file := range files {
		class, _, _ := strings.Cut(filepath.Base(file), ".")
		for _, c := range classes {
			if c == class {
				data, err := os.ReadFile(file)
				if err != nil {
					f.Fatal(err)
				}
				f.Add(data)
			}
		}
	}
}

// checkErr requires a decode error to be one of the two documented kinds.
func checkErr(t *testing.T, err error) bool {
	if err == nil {
		return true
	}
	if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrNull) {
		t.Fatalf("error neither ErrCorrupt nor ErrNull: %v", err)
	}
	return false
}

// roundTrip checks a decoder/encoder pair on arbitrary input: no panic,
// only documented errors, and our own output decodes again and reaches a
// fixed point after one more round (a first round may turn Java nulls
// into the fields' defaults, exactly as a Java decode/encode/decode does).
func roundTrip(t *testing.T, data []byte, rt func([]byte) ([]byte, error)) {
	out, err := rt(data)
	if !checkErr(t, err) {
		return
	}
	out2, err := rt(out)
	if err != nil {
		t.Fatalf("re-decode %q: %v", out, err)
	}
	out3, err := rt(out2)
	if err != nil || string(out3) != string(out2) {
		t.Fatalf("no fixed point:\n%s\n%s (%v)", out2, out3, err)
	}
}

func FuzzHeartbeatData(f *testing.F) {
	addCases(f, "HeartbeatData")
	f.Fuzz(func(t *testing.T, data []byte) {
		roundTrip(t, data, func(b []byte) ([]byte, error) {
			h, err := DecodeHeartbeatData(b, 1)
			return h.Encode(), err
		})
	})
}

func FuzzLockBatchRequest(f *testing.F) {
	addCases(f, "LockBatchRequestBody", "UnlockBatchRequestBody")
	f.Fuzz(func(t *testing.T, data []byte) {
		roundTrip(t, data, func(b []byte) ([]byte, error) {
			r, err := DecodeLockBatchRequest(b)
			return r.Encode(), err
		})
	})
}

func FuzzLockBatchResponse(f *testing.F) {
	addCases(f, "LockBatchResponseBody")
	f.Fuzz(func(t *testing.T, data []byte) {
		roundTrip(t, data, func(b []byte) ([]byte, error) {
			r, err := DecodeLockBatchResponse(b)
			return r.Encode(), err
		})
	})
}

func FuzzConsumerList(f *testing.F) {
	addCases(f, "GetConsumerListByGroupResponseBody")
	f.Fuzz(func(t *testing.T, data []byte) {
		roundTrip(t, data, func(b []byte) ([]byte, error) {
			r, err := DecodeConsumerList(b)
			return r.Encode(), err
		})
	})
}

func FuzzCheckClientRequest(f *testing.F) {
	addCases(f, "CheckClientRequestBody")
	f.Fuzz(func(t *testing.T, data []byte) {
		roundTrip(t, data, func(b []byte) ([]byte, error) {
			r, err := DecodeCheckClientRequest(b, 1)
			return r.Encode(), err
		})
	})
}

// FuzzConsumerStatusOffsets feeds arbitrary client answers to the
// GET_CONSUMER_STATUS_FROM_CLIENT decoder: no panic, only documented
// errors, and the rows written back as a reset body decode again to the
// same rows.
func FuzzConsumerStatusOffsets(f *testing.F) {
	f.Add([]byte(`{"consumerTable":{},"messageQueueTable":{{"brokerName":"b","queueId":1,"topic":"T"}:5}}`))
	f.Add([]byte(`{"messageQueueTable":{{"topic":"T","brokerName":"b","queueId":0}:0,{"topic":"T","brokerName":"b","queueId":1}:9}}`))
	f.Add([]byte(`{"messageQueueTable":null}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		rows, err := DecodeConsumerStatusOffsets(data)
		if !checkErr(t, err) {
			return
		}
		table := EncodeResetOffsetBody(rows)
		status := `{"messageQueueTable":` + strings.TrimSuffix(strings.TrimPrefix(string(table), `{"offsetTable":`), "}") + "}"
		again, err := DecodeConsumerStatusOffsets([]byte(status))
		if err != nil {
			t.Fatalf("re-decode %s: %v", status, err)
		}
		if len(again) != len(rows) {
			t.Fatalf("%d rows, then %d: %s", len(rows), len(again), status)
		}
		for i := range rows {
			if again[i] != rows[i] {
				t.Fatalf("row %d: %+v then %+v", i, rows[i], again[i])
			}
		}
	})
}
