#!/bin/sh
# build_consumer.sh CMAKE GENERATOR PREFIX CC CXX SOURCE BUILD
# Configures and builds the consumer project SOURCE in BUILD (emptied first) against the
# package installed in PREFIX, with the main build's generator and compilers: what a user of
# the installed package does. Fails unless find_package(layoutopt) found PREFIX's package (no
# package registry, no build tree).
set -e
cmake=$1 generator=$2 prefix=$3 cc=$4 cxx=$5 source=$6 build=$7
rm -rf "$build"
"$cmake" -S "$source" -B "$build" -G "$generator" -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF
found=$(sed -n 's/^layoutopt_DIR:PATH=//p' "$build/CMakeCache.txt")
case "$found" in
  "$prefix"/*) ;;
  *) echo "find_package(layoutopt) found '$found', not the package in $prefix"; exit 1 ;;
esac
"$cmake" --build "$build"
