#!/bin/sh
# Prints the conformance harness's Java classpath (target/classes + every dependency jar, absolute
# paths) on stdout, building the Maven project first when pom.xml or src/ changed or nothing is
# built yet. Build output goes to stderr. The list is cached in target/classpath.txt.
# Usage: java -cp "$(conformance/java/classpath.sh)" io.sputnikmq.conformance.Driver
set -eu
dir=$(cd "$(dirname "$0")" && pwd)
cd "$dir"

needs_build() {
    [ -f target/classpath.txt ] || return 0
    [ -f target/.built ] || return 0
    [ -d target/classes/io/sputnikmq/conformance ] || return 0
    [ -n "$(find pom.xml src -newer target/.built -print 2>/dev/null | head -n 1)" ] && return 0
    # A jar named in the cached list may have been removed from ~/.m2.
    for jar in $(tr ':' ' ' < target/classpath.txt); do
        [ -f "$jar" ] || return 0
    done
    return 1
}

build() {
    mvn -q -B -Dstyle.color=never -f pom.xml package -DskipTests >&2
    mvn -q -B -Dstyle.color=never -f pom.xml dependency:build-classpath -Dmdep.outputFile=target/classpath.txt >&2
    touch target/.built
}

if needs_build; then
    mkdir -p target
    if command -v flock >/dev/null 2>&1; then
        exec 9>target/.build.lock
        flock 9
        if needs_build; then build; fi
        exec 9>&-
    else
        build
    fi
fi

printf '%s:%s\n' "$dir/target/classes" "$(cat target/classpath.txt)"
