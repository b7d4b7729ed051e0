// Package javalang holds the java.lang semantics a RocketMQ 4.9.8 drop-in
// must reproduce exactly: how Java parses numbers and booleans out of
// header fields and config values, how it prints doubles, and how it turns
// bytes into a String. It is a leaf: it imports only the standard library,
// so the wire codecs (remoting/protocol) and the compat layers (javaprops,
// fastjson) can all share it.
//
//	Go                          Java
//	--------------------------  ------------------------------------------------
//	ParseInt, ParseLong         Integer.parseInt, Long.parseLong (radix 10)
//	ParseBool                   Boolean.parseBoolean
//	ParseDouble, ParseFloat     Double.parseDouble, Float.parseFloat
//	FormatDouble, AppendDouble  Double.toString (fastjson's RyuDouble digits)
//	FormatFloat, AppendFloat    Float.toString (fastjson's RyuFloat digits)
//	DecodeUTF8                  new String(bytes, StandardCharsets.UTF_8)
//	NumberFormatError           NumberFormatException, with Java's message
//
// A Java String is UTF-16: a char outside the Basic Multilingual Plane is
// two chars, and invalid UTF-8 would have been decoded as U+FFFD; neither is
// a digit to Character.digit. The parsers see Go strings accordingly.
//
// Parsing matches OpenJDK 17.0.15 (verified on the tables in the tests and
// on 30,000 random strings; these methods have not changed from JDK 8 to
// 21). Printing matches fastjson 1.2.69, which is what RocketMQ puts on the
// wire and in its JSON files; see FormatDouble for where Java 17's own
// Double.toString differs.
package javalang
