// Package javaprops reads and writes Java .properties text and binds it onto
// Go config structs the way RocketMQ 4.9.8 does, so operators keep their
// broker.conf / namesrv.properties files and admin tools see the same
// GET_*_CONFIG bodies.
//
// # Which Java path each function mirrors
//
//	Go                      Java 4.9.8                                      used for
//	----------------------  ----------------------------------------------  ---------------------------------
//	Parse(r)                Properties.load(InputStream)                    -c file (NamesrvStartup,
//	                        (one byte = one char, ISO-8859-1)                BrokerStartup), namesrv.properties
//	ParseString(s)          MixAll.string2Properties(s)                     UPDATE_NAMESRV_CONFIG (318),
//	                        = load(new ByteArrayInputStream(s.getBytes(     UPDATE_BROKER_CONFIG (25) bodies
//	                          "UTF-8")))                                      (after ParseBody's decoding)
//	ParseBody(body)         new String(body, "UTF-8") then string2Properties the two update handlers
//	ParseUTF8(r)            Properties.load(Reader) over UTF-8 text         no 4.9.8 server path; Go-side files
//	Properties.Format       MixAll.properties2String                        GET_NAMESRV_CONFIG (319),
//	                                                                        GET_BROKER_CONFIG (26),
//	                                                                        Configuration.persist
//	Properties.AppendEscaped  Properties.store's escaping (no date comment)  lossless files of our own
//	Bind(p, targets...)     MixAll.properties2Object per target             -c file, update bodies
//	ToProperties(obj)       MixAll.object2Properties                        Configuration.getAllConfigs
//	Print / Lines           MixAll.printObjectProperties                    mqbroker -p / -m, start-up log
//
// # Mojibake for non-ASCII text (faithfully reproduced)
//
// Every 4.9.8 server path reads properties through an InputStream, so each
// byte becomes one char: a UTF-8 file containing "brokerName=é" (bytes C3 A9)
// yields the value "Ã©" (U+00C3 U+00A9). Parse, ParseString and ParseBody
// reproduce this; the Go string holds the UTF-8 encoding of those chars. Java
// then writes the value back with properties2String through a FileWriter in
// the platform charset (UTF-8 on usual Linux set-ups), so each persist/reload
// cycle doubles the damage ("Ã©" → "Ã\u0083Â©"). Only \uXXXX escapes carry
// non-Latin-1 text through intact. ParseUTF8 is the non-mangling
// alternative for files that only Go reads.
//
// # Key order
//
// Java's Properties is a hash table, so properties2String lists entries in
// hash order. Properties here keeps keys in order of first appearance (Set
// of an existing key keeps its place), which makes output stable; Sort
// reorders keys alphabetically. Readers of these bodies (Java's own
// string2Properties, mqadmin) do not depend on the order.
package javaprops
