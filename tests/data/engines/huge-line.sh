#!/bin/sh
# Answers the first command with an endless line: no line break, ever.
# Adds its process group to the file $1.
echo $$ >> "$1"
read -r line
yes norn | tr -d '\n'
