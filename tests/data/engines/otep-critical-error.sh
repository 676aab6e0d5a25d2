#!/bin/sh
# An OTEP engine that says hello, then answers play with OTEP's critical
# error, and keeps reading as if nothing happened.
echo hello
while IFS= read -r line; do
    case "$line" in
        play*) echo "error -1 cannot load its tables" ;;
    esac
done
