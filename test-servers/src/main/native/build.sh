#!/bin/sh
# Rebuilds the stand-in libraries InnoDbServer gives the MySQL test server on machines without libaio1/libnuma1.
# Needs a C compiler; the build of the project does not run this: the results are committed next to the sources,
# so that the tests need nothing outside Maven.
set -eu
cd "$(dirname "$0")"
out=../resources/io/fsindex/testservers/stubs
mkdir -p "$out"
for lib in aio numa; do
    cc -shared -fPIC -O2 -s -nostartfiles -Wall -Wextra -Werror -Wl,--version-script="lib$lib.map" \
        -Wl,-soname,"lib$lib.so.1" -Wl,--hash-style=both -o "$out/lib$lib.so.1" "lib$lib-stub.c"
done
