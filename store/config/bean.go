package config

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	"github.com/sputnikmq/sputnik/compat/fastjson"
)

// DataVersion is org.apache.rocketmq.common.DataVersion: the change
// counter of topics.json and subscriptionGroup.json.
type DataVersion struct {
	Timestamp int64 // ms; Java's initial value is the creation time
	Counter   int64 // AtomicLong
}

// NewDataVersion is `new DataVersion()` at nowMillis.
func NewDataVersion(nowMillis int64) DataVersion { return DataVersion{Timestamp: nowMillis} }

// Next is DataVersion.nextVersion (4.9.8): the timestamp becomes now and
// the counter goes up by one (wrapping like AtomicLong).
func (d *DataVersion) Next(nowMillis int64) {
	d.Timestamp = nowMillis
	d.Counter++
}

func (d DataVersion) write(w *fastjson.Writer) {
	w.BeginObject()
	w.Key("counter")
	w.Int64(d.Counter)
	w.Key("timestamp")
	w.Int64(d.Timestamp)
	w.EndObject()
}

// decodeDataVersion fills a DataVersion whose Java default is def. A null
// counter makes assignNewOne throw in Java.
func decodeDataVersion(d *fastjson.Decoder, v fastjson.Value, def DataVersion) DataVersion {
	out := def
	for k, fv := range d.Object(v).Members() {
		switch matchField(k, dataVersionFields) {
		case "counter":
			if fv.IsNull() {
				d.Fail(fmt.Errorf("dataVersion.counter is null"))
			}
			out.Counter = d.Int64(fv, out.Counter)
		case "timestamp":
			out.Timestamp = d.Int64(fv, out.Timestamp)
		}
	}
	return out
}

var dataVersionFields = fields("counter", "timestamp")

// DecodeDataVersion is DataVersion.decode of a DataVersion's JSON (a name
// server's answer to QUERY_DATA_VERSION); def is what a missing field
// keeps.
func DecodeDataVersion(data []byte, def DataVersion) (DataVersion, error) {
	v, err := fastjson.Parse(data)
	if err != nil {
		return def, fmt.Errorf("config: data version: %w", err)
	}
	var d fastjson.Decoder
	out := decodeDataVersion(&d, v, def)
	if err := d.Err(); err != nil {
		return def, fmt.Errorf("config: data version: %w", err)
	}
	return out, nil
}

// fieldSet maps a bean's property names for fastjson's field lookup.
type fieldSet struct {
	exact  map[string]string
	folded map[string]string // lower case, '_' and '-' removed
	bools  map[string]bool
}

// fields lists a bean's properties; a trailing '?' marks a boolean one
// (its "is" prefix may be given in the JSON key).
func fields(names ...string) fieldSet {
	s := fieldSet{exact: map[string]string{}, folded: map[string]string{}, bools: map[string]bool{}}
	for _, n := range names {
		isBool := strings.HasSuffix(n, "?")
		n = strings.TrimSuffix(n, "?")
		s.exact[n], s.folded[fold(n)], s.bools[n] = n, n, isBool
	}
	return s
}

func fold(s string) string {
	return strings.ToLower(strings.NewReplacer("_", "", "-", "").Replace(s))
}

// matchField is fastjson 1.2.69's JavaBeanDeserializer lookup: the exact
// name, then smartMatch (case, '_' and '-' ignored; "is" + a boolean
// property). It returns the property name or "".
func matchField(key fastjson.Value, s fieldSet) string {
	k := key.Text()
	if n, ok := s.exact[k]; ok {
		return n
	}
	if n, ok := s.folded[fold(k)]; ok {
		return n
	}
	if strings.HasPrefix(k, "is") {
		if n, ok := s.folded[fold(k[2:])]; ok && s.bools[n] {
			return n
		}
	}
	return ""
}

// parseRoot parses a whole file. An empty or blank text and a JSON null
// are "nothing" (ok false): RemotingSerializable.fromJson returns null and
// the Java decode does nothing.
func parseRoot(data []byte, file string) (root fastjson.Value, ok bool, err error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return fastjson.Value{}, false, nil
	}
	root, err = fastjson.Parse(data)
	if err != nil {
		return root, false, corrupt(file, err)
	}
	if root.IsNull() {
		return root, false, nil
	}
	if root.Kind() != fastjson.Object {
		return root, false, corrupt(file, fmt.Errorf("top level is %s, not an object", root.Kind()))
	}
	return root, true, nil
}

func corrupt(file string, err error) error {
	return fmt.Errorf("%w: %s: %w", ErrCorrupt, file, err)
}

// finish turns the decoder's sticky error into a corruption error.
func finish(d *fastjson.Decoder, file string) error {
	if err := d.Err(); err != nil {
		return corrupt(file, err)
	}
	return nil
}

// nonNull records the error Java's ConcurrentHashMap.put throws for a null
// key or value.
func nonNull(d *fastjson.Decoder, v fastjson.Value, what string) bool {
	if v.IsNull() {
		d.Fail(fmt.Errorf("%s is null (ConcurrentHashMap refuses null)", what))
		return false
	}
	return true
}

// nullableString reads a String property: (value, isNull).
func nullableString(d *fastjson.Decoder, v fastjson.Value) (string, bool) {
	if v.IsNull() {
		return "", true
	}
	return d.String(v, ""), false
}

// writeString writes a String property, leaving it out when null.
func writeString(w *fastjson.Writer, name, s string, null bool) {
	if null {
		return
	}
	w.Key(name)
	w.String(s)
}

// nowMillis is Java's System.currentTimeMillis, read only where the Java
// decode reads it (the default timestamp of a missing DataVersion).
func nowMillis() int64 { return time.Now().UnixMilli() }

// encodePretty runs write on a Pretty writer and returns the bytes.
func encodePretty(write func(w *fastjson.Writer)) []byte {
	w := fastjson.NewWriter(fastjson.Pretty)
	write(w)
	return w.Bytes()
}

// WriteJSON writes the DataVersion bean as fastjson does.
func (d DataVersion) WriteJSON(w *fastjson.Writer) { d.write(w) }
