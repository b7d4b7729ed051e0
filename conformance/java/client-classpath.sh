#!/bin/sh
# Prints a classpath for the soak's Java worker (io.sputnikmq.conformance.SoakWorker) with one
# chosen version of the official Java client in place of 4.9.8: this project's target/classes
# (built by classpath.sh when needed) and the jars of org.apache.rocketmq:rocketmq-client:VERSION
# (clients/pom.xml), and nothing of the 4.9.8 servers or tools. The jar list is cached in
# target/clients/VERSION.txt. Build output goes to stderr.
#
# The worker is compiled against 4.9.8 and touches only client API that 4.3.x to 5.3.x share
# (DefaultMQProducer, DefaultMQPushConsumer, the listeners, Message/MessageExt, and from 4.6.0 on
# DefaultLitePullConsumer). Clients before 4.9 bring netty 4.0, which on Java 17 needs
# --add-opens=java.base/java.nio=ALL-UNNAMED (the soak passes it to every worker JVM).
# Usage: java -cp "$(conformance/java/client-classpath.sh 4.7.1)" io.sputnikmq.conformance.SoakWorker ...
set -eu
version=${1:?usage: client-classpath.sh VERSION}
case $version in
*[!0-9A-Za-z.-]*) echo "client-classpath.sh: bad version $version" >&2; exit 2 ;;
esac
here=$(cd "$(dirname "$0")" && pwd)
classes=$("$here/classpath.sh" | cut -d: -f1)
list=$here/target/clients/$version.txt

resolved() {
    [ -s "$list" ] || return 1
    for jar in $(tr ':' ' ' < "$list"); do
        [ -f "$jar" ] || return 1
    done
}

if ! resolved; then
    mkdir -p "$here/target/clients"
    mvn -q -B -Dstyle.color=never -f "$here/clients/pom.xml" -Drocketmq.client.version="$version" \
        dependency:build-classpath -Dmdep.outputFile="$list.tmp" >&2
    mv "$list.tmp" "$list"
fi
printf '%s:%s\n' "$classes" "$(cat "$list")"
