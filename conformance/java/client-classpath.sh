#!/bin/sh
# Prints a classpath with one chosen version of an official Java artifact in place of 4.9.8's.
#
#   client-classpath.sh VERSION         this project's target/classes (built by classpath.sh when
#                                       needed) and the jars of org.apache.rocketmq:rocketmq-client:VERSION,
#                                       for the soak's Java worker (io.sputnikmq.conformance.SoakWorker)
#   client-classpath.sh VERSION tools   the jars of org.apache.rocketmq:rocketmq-tools:VERSION alone,
#                                       for that version's mqadmin (MQAdminStartup)
#
# Nothing of the 4.9.8 servers or tools comes with either (clients/pom.xml resolves the one
# artifact). The jar list is cached in target/clients/VERSION.txt (tools: tools-VERSION.txt).
# Build output goes to stderr.
#
# The worker is compiled against 4.9.8 and touches only client API that 4.3.x to 5.3.x share
# (DefaultMQProducer, DefaultMQPushConsumer, the listeners, Message/MessageExt, and from 4.6.0 on
# DefaultLitePullConsumer). Clients and tools before 4.9 bring netty 4.0, which on Java 17 needs
# --add-opens=java.base/java.nio=ALL-UNNAMED (javaclient.OldNettyOpens).
# Usage: java -cp "$(conformance/java/client-classpath.sh 4.7.1)" io.sputnikmq.conformance.SoakWorker ...
#        java -cp "$(conformance/java/client-classpath.sh 4.3.2 tools)" org.apache.rocketmq.tools.command.MQAdminStartup ...
set -eu
version=${1:?usage: client-classpath.sh VERSION [client|tools]}
kind=${2:-client}
case $version in
*[!0-9A-Za-z.-]*) echo "client-classpath.sh: bad version $version" >&2; exit 2 ;;
esac
here=$(cd "$(dirname "$0")" && pwd)
case $kind in
client) list=$here/target/clients/$version.txt ;;
tools) list=$here/target/clients/tools-$version.txt ;;
*) echo "client-classpath.sh: unknown artifact $kind (client or tools)" >&2; exit 2 ;;
esac

resolved() {
    [ -s "$list" ] || return 1
    for jar in $(tr ':' ' ' < "$list"); do
        [ -f "$jar" ] || return 1
    done
}

if ! resolved; then
    mkdir -p "$here/target/clients"
    mvn -q -B -Dstyle.color=never -f "$here/clients/pom.xml" -Drocketmq.client.version="$version" \
        -Drocketmq.artifact="rocketmq-$kind" \
        dependency:build-classpath -Dmdep.outputFile="$list.tmp" >&2
    mv "$list.tmp" "$list"
fi
if [ "$kind" = tools ]; then
    cat "$list"
    echo
else
    classes=$("$here/classpath.sh" | cut -d: -f1)
    printf '%s:%s\n' "$classes" "$(cat "$list")"
fi
