#!/bin/sh
# Harness self-check: runs the runner with a "sputnik" column whose mqnamesrv is really the Java
# NamesrvStartup (through a wrapper script), so both columns must pass with no "differs from java".
# Proves that masking and the cross-implementation comparison raise no false differences.
# Usage: conformance/selfcheck.sh [runner flags...]   (from the repository root)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
cp=$("$root/conformance/java/classpath.sh")
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
cat > "$bin/mqnamesrv" <<EOS
#!/bin/sh
exec java -Xms256m -Xmx256m -Duser.home=\$HOME -cp "$cp" org.apache.rocketmq.namesrv.NamesrvStartup "\$@"
EOS
chmod +x "$bin/mqnamesrv"
cd "$root"
go run ./conformance/cmd/conformance -impl java,sputnik -bin "$bin" "$@"
