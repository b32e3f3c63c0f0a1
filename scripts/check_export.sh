#!/usr/bin/env bash
# The notebooks are the source: exporting them must leave hyena_lit/ exactly as committed,
# and every notebook must keep the 'parameters' tag papermill needs.
set -euo pipefail
cd "$(dirname "$0")/.."
nbdev_export
if [ -n "$(git status --porcelain -- hyena_lit)" ]; then
  echo "nbdev_export changed hyena_lit/: notebooks and library are out of sync:" >&2
  git status --porcelain -- hyena_lit >&2
  git --no-pager diff --stat -- hyena_lit >&2
  exit 1
fi
# papermill runs the experiments and reports (they write runs/); a chapter only names run folders
for nb in nbs/*/[1-9]*.ipynb; do
  if grep -q '"genre": "\(experiment\|report\)"' "$nb" && ! grep -q '"parameters"' "$nb"; then
    echo "$nb is run by papermill but has no cell tagged 'parameters'" >&2; exit 1
  fi
done
echo "export check: notebooks and hyena_lit/ in sync"
