// Package fastjson reads and writes JSON the way Java's fastjson 1.2.69 (the
// library inside RocketMQ 4.9.8) does, for remoting bodies
// (RemotingSerializable.encode / decode) and the broker's and name server's
// config files (topics.json, subscriptionGroup.json, consumerOffset.json,
// delayOffset.json, kvConfig.json).
//
// # What fastjson writes
//
// Every form below is pinned by golden tests captured from fastjson 1.2.69
// serializing the real 4.9.8 classes (testdata/golden).
//
//	shape                         Compact (toJSONString(obj))         Standard (route, version >= 401)
//	----------------------------  ----------------------------------  ----------------------------------
//	bean fields                   sorted by name, nulls left out      same
//	Map<Long|Integer,V>           {0:"a",1:"b"}                        {"0":"a","1":"b"}
//	Map<MessageQueue,V>           {{"brokerName":"b",...}:11}          {"{\"brokerName\":\"b\",...}":11}
//	long beyond ±(2^53-1)         -9223372036854775808                 "-9223372036854775808"
//	double                        0.0, 1.5, 1.0E10; NaN/Infinity null  same
//	string escapes                \" \\ \b \f \n \r \t; \u00XX for     \" \\ \/ \b \f \n \r \t; \u00XX for
//	                              other C0, DEL, C1; \u2028 \u2029;    other C0; \uXXXX for every char
//	                              everything else raw UTF-8            >= U+007F (surrogate pairs)
//
// Hex digits are upper case. Standard mode is
// SerializerFeature.BrowserCompatible + QuoteFieldNames + SkipTransientField +
// MapSortField, which DefaultRequestProcessor.getRouteInfoByTopic uses for
// request version >= 401 (V4_9_4) or acceptStandardJsonOnly; MapSortField
// only sorts, so callers write map keys in order (numeric order for numbers,
// String.compareTo order for strings, see CompareJavaStrings).
//
// # Pretty mode (JSON.toJSONString(obj, true), the config files)
//
// Tab indentation, "key":value without a space, and line breaks only in some
// places, which is what makes the files look odd:
//
//	{
//		"offsetTable":{
//			"TopicTest@G1":{0:12,1:0,2:131
//			},
//			"%RETRY%G1@G1":{0:0
//			}
//		}
//	}
//
// A String key starts a new line; a non-String key (number, object) does not,
// but the map still closes on a new line when it is not empty. A List
// (BeginArray) puts each element on its own line; a Set, other Collections and
// primitive or String arrays (BeginInlineArray) never break lines themselves.
// Empty containers are {} and []. The Writer reproduces this exactly.
//
// # What fastjson reads (Parse accepts all of it)
//
// Standard JSON plus: unquoted identifier keys ({brokerName:1}), number keys
// ({0:1}), object and array keys ({{"topic":"t"}:1}), single-quoted strings,
// extra commas anywhere in objects and arrays ({,"a":1,,} [1,,2,]), // and
// /* */ comments, escapes \' \v \0-\7 \xHH \F, raw control chars in strings,
// number suffixes L S B F D (12L), leading zeros, "1.", and the bare words
// NaN and undefined (read as null). Malformed UTF-8 becomes U+FFFD as in
// Java's new String(bytes, UTF_8) (javalang.DecodeUTF8); an unpaired
// surrogate escape becomes U+FFFD too (Java keeps it and later encodes it as
// '?'). Nesting
// deeper than MaxDepth is an error, never a stack overflow.
//
// Value's accessors and the sticky-error Decoder coerce the way fastjson
// fills bean fields: "12" and 12.7 are accepted for an int (12), true for an
// int (1) but not for a long, "1,000" is 1000, "Y"/"T"/"1" are true, ""
// and "null" leave the Java default (ErrNull here).
package fastjson
