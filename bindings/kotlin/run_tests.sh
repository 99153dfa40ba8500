#!/usr/bin/env bash
# Builds the Kotlin binding (kotlinc, no Gradle) and runs its test program
# against a built library: vectors.json at every split point and one byte at
# a time, idle.json, errors.json when present, and misuse cases.
#
#   bash bindings/kotlin/run_tests.sh LIB [BUILD_DIR]
#
# LIB: the library's folder (found through -Djna.library.path) or its file
# (through SLICC_SCRUB_LIB). BUILD_DIR (default: a temporary folder) gets
# slicc-scrub.jar and the test jar. Needs kotlinc (KOTLINC overrides) and
# JNA's jar (JNA_JAR, default Debian's /usr/share/java/jna.jar).
set -euo pipefail
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: $0 LIBRARY_FILE_OR_FOLDER [BUILD_DIR]" >&2
    exit 2
fi
# Both made absolute before the cd below: they may be relative.
lib="$(realpath "$1")"
build="$(realpath -m "${2:-$(mktemp -d)}")"
cd "$(dirname "$0")"
kotlinc="${KOTLINC:-kotlinc}"
jna="${JNA_JAR:-/usr/share/java/jna.jar}"
[ -f "$jna" ] || { echo "error: no JNA jar at $jna (apt-get install libjna-java, or set JNA_JAR)" >&2; exit 1; }
mkdir -p "$build"

# Warnings of the JVM about options the old Debian kotlinc passes are noise.
quiet() { "$@" 2>&1 | { grep -v -e '-Xverify:none' -e '^info: kotlinc' || true; }; }

"$kotlinc" -version 2>&1 | grep -v -e '-Xverify:none' || true
quiet "$kotlinc" -jvm-target 1.8 -cp "$jna" src -d "$build/slicc-scrub.jar"
quiet "$kotlinc" -jvm-target 1.8 -cp "$build/slicc-scrub.jar:$jna" test -include-runtime -d "$build/slicc-scrub-test.jar"

classpath="$build/slicc-scrub-test.jar:$build/slicc-scrub.jar:$jna"
if [ -d "$lib" ]; then
    java -Djna.library.path="$lib" -cp "$classpath" slicc.scrub.VectorsTestKt ../../vectors
else
    SLICC_SCRUB_LIB="$lib" java -cp "$classpath" slicc.scrub.VectorsTestKt ../../vectors
fi
