#!/bin/sh
# Accepts every command and answers generate_move with a move followed by
# 60,000 letters on one line: under the 64 KiB line limit, far over what
# a log line's forfeit reason may hold.
letters=$(head -c 60000 /dev/zero | tr '\0' a)
while IFS= read -r line; do
    case "$line" in
        generate_move) printf '= play attacker %s\n\n' "$letters" ;;
        quit) exit 0 ;;
        *) printf '=\n\n' ;;
    esac
done
