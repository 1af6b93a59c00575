# bash completion for tilescope, installed in share/bash-completion/completions/: commands,
# options and the values of the options that take names (variants, patterns, walks,
# overlays, back ends, ...). The words come from the program itself (`tilescope --complete N
# WORD...`, app/cli/cli_doc.c), read from the tables it parses, so they are never out of
# date; where a file name goes it offers none and the shell completes file names.
_tilescope()
{
    local IFS=$'\n'
    local prog=${COMP_WORDS[0]}
    command -v -- "$prog" >/dev/null 2>&1 || prog=tilescope
    COMPREPLY=($(command "$prog" --complete "$COMP_CWORD" "${COMP_WORDS[@]}" 2>/dev/null))
}
complete -o default -F _tilescope tilescope
