package protocol

// zz_codes.go and zz_headers.go are generated from spec.txt; spec_java_test.go
// checks spec.txt against the 4.9.8 jars and generate_test.go that the
// generated files are current.
//go:generate go run ./gen
