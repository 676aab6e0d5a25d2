#!/bin/sh
# Answers every command with success but never with the empty line that
# ends a reply. Adds its process group to the file $1.
echo $$ >> "$1"
while IFS= read -r line; do
    echo "="
done
