// Package lint holds the project's own lint rules, written as Go tests
// (see lint_test.go): which packages may import which, and no global
// logger in library code.
package lint
