#!/bin/sh
# An OTEP engine that says hello and answers every play with a move no
# rule allows (a piece to its own square), after a status line.
echo hello
while IFS= read -r line; do
    case "$line" in
        play*) echo "status thinking hard"; echo "move a1-a1" ;;
    esac
done
