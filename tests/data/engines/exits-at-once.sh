#!/bin/sh
# An engine that cannot start: it says why on standard error and exits.
echo "engine: cannot load its weights" >&2
exit 3
