#!/bin/sh
# Prints the conformance harness's Java classpath (target/classes + every dependency jar, absolute
# paths) on stdout, building this Maven project first when needed (compat/java/classpath.sh does
# the work, for both projects). Build output goes to stderr.
# Usage: java -cp "$(conformance/java/classpath.sh)" io.sputnikmq.conformance.Driver
set -eu
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/../../compat/java/classpath.sh" "$here"
