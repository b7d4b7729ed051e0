package wire

import "strconv"

// LanguageCode is the sender's language, one byte on the binary wire and the
// enum name in JSON. Java 4.9.8 mirror: remoting.protocol.LanguageCode.
type LanguageCode byte

// The language codes of 4.9.8. Part of the format, do not change.
const (
	LanguageJava   LanguageCode = 0
	LanguageCPP    LanguageCode = 1
	LanguageDotNet LanguageCode = 2
	LanguagePython LanguageCode = 3
	LanguageDelphi LanguageCode = 4
	LanguageErlang LanguageCode = 5
	LanguageRuby   LanguageCode = 6
	LanguageOther  LanguageCode = 7
	LanguageHTTP   LanguageCode = 8
	LanguageGo     LanguageCode = 9
	LanguagePHP    LanguageCode = 10
	LanguageOMS    LanguageCode = 11
	LanguageRust   LanguageCode = 12

	// LanguageUnknown stands for a byte or name 4.9.8 does not know (Java
	// reads those as null). JSON output omits it.
	LanguageUnknown LanguageCode = 0xFF
)

var languageNames = [...]string{
	LanguageJava:   "JAVA",
	LanguageCPP:    "CPP",
	LanguageDotNet: "DOTNET",
	LanguagePython: "PYTHON",
	LanguageDelphi: "DELPHI",
	LanguageErlang: "ERLANG",
	LanguageRuby:   "RUBY",
	LanguageOther:  "OTHER",
	LanguageHTTP:   "HTTP",
	LanguageGo:     "GO",
	LanguagePHP:    "PHP",
	LanguageOMS:    "OMS",
	LanguageRust:   "RUST",
}

// Known reports whether l is a 4.9.8 language.
func (l LanguageCode) Known() bool { return int(l) < len(languageNames) }

// String returns the Java enum name, or "UNKNOWN(n)".
func (l LanguageCode) String() string {
	if l.Known() {
		return languageNames[l]
	}
	return "UNKNOWN(" + strconv.Itoa(int(l)) + ")"
}

// ParseLanguage maps a Java enum name to its code; unknown names give
// LanguageUnknown, as Java gives null.
func ParseLanguage(name string) LanguageCode {
	for i, n := range languageNames {
		if n == name {
			return LanguageCode(i)
		}
	}
	return LanguageUnknown
}
