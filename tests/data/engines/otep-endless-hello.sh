#!/bin/sh
# Starts an endless line where OTEP's hello belongs: no line break, ever.
# Adds its process group to the file $1 (the fifth field of its
# /proc/PID/stat: on Linux norn's watcher leads the group, not the script).
awk '{ print $5 }' /proc/$$/stat >> "$1"
printf hello
yes norn | tr -d '\n'
