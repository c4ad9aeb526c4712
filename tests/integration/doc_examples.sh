#!/usr/bin/env bash
# The console examples of README.md and docs/*.md run and print what the pages say they print:
# every fenced block that starts with "$ " is run as a shell session per page, on the bundled
# workloads and fixtures, and its output compared with the documented one by shape (numbers
# may differ, words, headers, columns and line counts may not). The convention for writing
# examples is at the top of tests/lib/doc_examples.py and in docs/testing.md; blocks marked
# `<!-- doc-example: skip (REASON) -->` are counted and listed. The pages of the commands that
# sample live programs are checked by doc_examples_live.sh, so that each test stays well
# inside ctest's time limit on a busy machine; every other page, a new one included, here.
# ctest-labels: no-sanitize
set -euo pipefail
. "$PMS_SOURCE_DIR/tests/lib/doc_examples.sh"
exec python3 "$PMS_SOURCE_DIR/tests/lib/doc_examples.py" "${doc_examples_args[@]}" \
    $(printf -- '--exclude %s ' "${doc_examples_live_pages[@]}") "$@"
