#!/bin/sh
# Answers every command with success but never with the empty line that
# ends a reply. Adds its process group to the file $1 (the fifth field of
# its /proc/PID/stat: on Linux norn's watcher leads the group, not the
# script).
awk '{ print $5 }' /proc/$$/stat >> "$1"
while IFS= read -r line; do
    echo "="
done
