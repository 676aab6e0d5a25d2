#!/bin/sh
# Plays through norn's own engine (the norn binary is $1) until the first
# generate_move, then sleeps. Adds its process group to the file $2 (the
# fifth field of its /proc/PID/stat: on Linux norn's watcher leads the
# group, not the script) and leaves a process of its own running in the
# background.
awk '{ print $5 }' /proc/$$/stat >> "$2"
sleep 1000 &
while IFS= read -r line; do
    if [ "$line" = generate_move ]; then
        sleep 1000
    fi
    printf '%s\n' "$line"
done | "$1" engine hnefatafl --agent random
