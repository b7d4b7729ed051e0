#!/bin/sh
# Round-trip self check: Decode every *.hex in DIR (default: compat/testdata/frames/java), feed the
# result back through Encode, and report per file whether the re-encoded frame is byte-identical.
#   plain        = Encode with only the decoded fields (ext map rebuilt from sorted keys)
#   headerClass  = Encode --header-from-file (header object re-attached, as a Java sender would)
# Exit status is 0 even with differences; some are inherent (see README.md).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
dir=${1:-$here/../testdata/frames/java}
cp=$("$here/classpath.sh")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
java -cp "$cp" io.sputnikmq.compat.Decode "$dir" > "$tmp/decoded.jsonl"
java -cp "$cp" io.sputnikmq.compat.Encode < "$tmp/decoded.jsonl" > "$tmp/plain.txt"
java -cp "$cp" io.sputnikmq.compat.Encode --header-from-file < "$tmp/decoded.jsonl" > "$tmp/hc.txt"
sed 's/^{"file":"\([^"]*\)".*/\1/' "$tmp/decoded.jsonl" > "$tmp/files.txt"
paste "$tmp/files.txt" "$tmp/plain.txt" "$tmp/hc.txt" | while IFS="$(printf '\t')" read -r f plain hc; do
    orig=$(tr -d ' \t\r\n' < "$dir/$f")
    p=same; h=same
    [ "$plain" = "$orig" ] || p=DIFF
    [ "$hc" = "$orig" ] || h=DIFF
    printf '%-36s plain=%s headerClass=%s\n' "$f" "$p" "$h"
done
