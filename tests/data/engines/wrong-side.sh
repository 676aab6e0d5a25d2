#!/bin/sh
# Accepts every command and answers generate_move with a move of the
# defenders, whichever side is to move: at the start, an attacker's move
# (d1 d2) given as the defenders'.
while IFS= read -r line; do
    case "$line" in
        generate_move) printf '= play defender d1 d2\n\n' ;;
        quit) exit 0 ;;
        *) printf '=\n\n' ;;
    esac
done
