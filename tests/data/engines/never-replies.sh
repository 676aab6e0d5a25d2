#!/bin/sh
# Reads every command and answers none; with a second argument, writes it
# as a line first (OTEP's `hello`, say). Adds its process group to the file
# $1 (the fifth field of its /proc/PID/stat: on Linux norn's watcher leads
# the group, not the script) and leaves a process of its own running in
# the background.
awk '{ print $5 }' /proc/$$/stat >> "$1"
sleep 1000 &
if [ -n "$2" ]; then
    echo "$2"
fi
while IFS= read -r line; do
    :
done
