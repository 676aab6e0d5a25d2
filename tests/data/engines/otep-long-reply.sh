#!/bin/sh
# An OTEP engine that says hello and answers play with a move followed by
# 60,000 letters on one line: under the 64 KiB line limit, far over what
# a log line's forfeit reason may hold.
letters=$(head -c 60000 /dev/zero | tr '\0' a)
echo hello
while IFS= read -r line; do
    case "$line" in
        play*) printf 'move a1-a2%s\n' "$letters" ;;
        goodbye) exit 0 ;;
    esac
done
