#!/usr/bin/env bash
# Every bench script runs here on tiny data so none of them can rot.
set -euo pipefail
cd "$(dirname "$0")/.."
shopt -s nullglob
for script in bench/*.py; do
  case "$(basename "$script")" in _*) continue ;; esac
  echo "-- $script --smoke"
  .venv/bin/python "$script" --smoke
done
