#!/bin/sh
# man-page.sh HELP2MAN LOWDOWN VERSION NAME SUMMARY OUT PROGRAM [PAGE.md]
# One subcommand's man page: help2man's page of "PROGRAM --help" (NAME, SYNOPSIS, the
# options), then the command's reference page docs/NAME.md, converted from markdown by
# lowdown, so that `man pmuscope-NAME` holds both and neither can drift from its source.
set -eu
help2man=$1 lowdown=$2 version=$3 name=$4 summary=$5 out=$6 program=$7 doc=${8:-}
"$help2man" --no-info --no-discard-stderr "--version-string=$version" "--name=$summary" \
    "--output=$out.tmp" "$program"
sed -i "s/^\\.TH PMUSCOPE /.TH PMUSCOPE-$name /" "$out.tmp"
if [ -n "$doc" ]; then
    # The page's links point at other pages of docs/: their text stays, the targets go.
    "$lowdown" -Tman --nroff-nolinks --parse-no-intraemph --parse-no-super --parse-no-metadata \
        --parse-no-deflists "$doc" >> "$out.tmp"
fi
mv "$out.tmp" "$out"
