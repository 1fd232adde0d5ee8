#!/bin/sh
# Starts an engine the way many wrapper scripts do: without exec, so the shell stays the
# runner's direct child and the engine is a grandchild. WRAPPED names the engine script
# (default hang.py) and its arguments follow. Expected: the same outcome as the wrapped
# engine, and no process left behind after a timeout (the whole group is killed).
here=$(dirname "$0")
script=${WRAPPED:-hang.py}
"${PYTHON:-python3}" "$here/$script" "$@"
echo "wrapper: engine exited" >&2
