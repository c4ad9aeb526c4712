# Shared by tests/integration/doc_examples.sh and doc_examples_live.sh: the runner's
# arguments, and the pages the second one checks.
doc_examples_args=(--pmuscope "$PMUSCOPE" --build "$PMS_BUILD_DIR" --source "$PMS_SOURCE_DIR" --shared "$PMS_SHARED")
doc_examples_live_pages=(docs/record.md docs/report.md docs/hotspot.md docs/phase.md docs/demo.md)
