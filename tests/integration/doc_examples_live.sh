#!/usr/bin/env bash
# The console examples of the pages of the commands that sample live programs (see
# doc_examples.sh, which checks every other page the same way).
# ctest-labels: no-sanitize
set -euo pipefail
. "$PMS_SOURCE_DIR/tests/lib/doc_examples.sh"
exec python3 "$PMS_SOURCE_DIR/tests/lib/doc_examples.py" "${doc_examples_args[@]}" "${doc_examples_live_pages[@]}"
