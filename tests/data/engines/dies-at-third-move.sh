#!/bin/bash
# Plays random moves through norn's own engine (the norn binary is $1), then
# exits with status 7 at its third generate_move, saying why on stderr.
set -o pipefail
moves=0
while IFS= read -r line; do
    if [ "$line" = generate_move ]; then
        moves=$((moves + 1))
        if [ "$moves" -ge 3 ]; then
            echo "engine: out of patience at move $moves" >&2
            exit 7
        fi
    fi
    printf '%s\n' "$line"
done | "$1" engine hnefatafl --agent random
