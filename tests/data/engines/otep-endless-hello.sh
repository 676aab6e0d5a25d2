#!/bin/sh
# Starts an endless line where OTEP's hello belongs: no line break, ever.
# Adds its process group to the file $1.
echo $$ >> "$1"
printf hello
yes norn | tr -d '\n'
