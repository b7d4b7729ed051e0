#!/bin/sh
# Prints a Maven project's full Java classpath (target/classes + every dependency jar, absolute
# paths) on stdout, building the project first when pom.xml or src/ changed, nothing is built yet,
# or a jar of the cached list is gone from ~/.m2. All build output goes to stderr; the list is
# cached in target/classpath.txt. PROJECT_DIR defaults to this directory (the compat oracle);
# conformance/java/classpath.sh runs this script for the conformance harness.
# Usage: java -cp "$(compat/java/classpath.sh [PROJECT_DIR])" io.sputnikmq.compat.Facts OUTDIR
set -eu
dir=$(cd "${1:-$(dirname "$0")}" && pwd)
cd "$dir"

needs_build() {
    [ -f target/classpath.txt ] || return 0
    [ -f target/.built ] || return 0
    [ -n "$(find target/classes -name '*.class' -print 2>/dev/null | head -n 1)" ] || return 0
    [ -n "$(find pom.xml src -newer target/.built -print 2>/dev/null | head -n 1)" ] && return 0
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
        # Serialize concurrent builds (parallel Go tests may call this at the same time).
        exec 9>target/.build.lock
        flock 9
        if needs_build; then build; fi
        exec 9>&-
    else
        build
    fi
fi

printf '%s:%s\n' "$dir/target/classes" "$(cat target/classpath.txt)"
