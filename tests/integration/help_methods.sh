#!/usr/bin/env bash
# pmuscope help methods: the five methods, each with its subcommand and its paper, the same
# citation as that subcommand's --help; no help text and no demo page names a method by a
# seed number. Where the papers are at hand ($PMS_SHARED/seeds), every cited title, author
# list and piece with digits (a report number, a year) is checked against the opening of one.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
squeeze() { tr '\n' ' ' | tr -s ' ' | sed 's/^ //; s/ $//'; }

"$PMUSCOPE" help methods > "$tmp/methods.txt"
"$PMUSCOPE" --help > "$tmp/help.txt"
grep -q "'pmuscope help methods'" "$tmp/help.txt" || fail "pmuscope --help does not point to 'help methods'"
commands=$(sed -n 's/^  \([a-z]\+\) .*/\1/p' "$tmp/help.txt")
methods=$(sed -n 's/^\([a-z]\+\)  .*/\1/p' "$tmp/methods.txt")
[ "$(echo $methods)" = "olr cpistack hotspot phase estimate" ] || fail "help methods lists: $(echo $methods)"

for m in $methods; do
    grep -qx "$m" <<< "$commands" || fail "help methods names '$m', which is not a subcommand"
    "$PMUSCOPE" "$m" --help > "$tmp/$m.help" || fail "$m --help exited $?"
    # the method's block of the page: from its line to the next blank line
    cite=$(awk -v m="$m" '$1 == m && /^[a-z]/ { on = 1 } on && /^$/ { exit } on' "$tmp/methods.txt" |
           sed -n '/Paper: /,$p' | squeeze)
    [ -n "$cite" ] || fail "help methods: no paper for $m"
    [ "$(sed -n '/^Paper: /,$p' "$tmp/$m.help" | squeeze)" = "$cite" ] ||
        fail "$m --help does not cite the paper that help methods cites: $cite"
    # authors, "title", then a year or the statement that the paper's text gives none
    [[ "$cite" =~ ^Paper:\ ([^\"]+),\ \"([^\"]+)\",\ (.*)$ ]] || fail "$m: not authors, \"title\", ...: $cite"
    authors=${BASH_REMATCH[1]} title=${BASH_REMATCH[2]} rest=${BASH_REMATCH[3]}
    [[ "$rest" =~ (19|20)[0-9][0-9] || "$rest" =~ gives\ no\ (venue\ or\ )?year ]] ||
        fail "$m: the citation neither gives a year nor says that its text gives none: $cite"
    if [ -d "${PMS_SHARED:-}/seeds" ]; then
        found=
        for paper in "$PMS_SHARED"/seeds/*; do
            head -60 "$paper" | squeeze > "$tmp/opening"
            grep -qF "$title" "$tmp/opening" && grep -qF "$authors" "$tmp/opening" || continue
            found=1
            # a venue, report number or year with digits is copied from the paper, never made up
            while read -r piece; do
                grep -qF "$piece" "$tmp/opening" || fail "$m: \"$piece\" is not in the opening of the paper"
            done < <(sed 's/ (.*//; s/, /\n/g' <<< "$rest" | grep '[0-9]' || true)
        done
        [ -n "$found" ] || fail "$m: no paper in $PMS_SHARED/seeds opens with \"$title\" by $authors"
    fi
done
[ -d "${PMS_SHARED:-}/seeds" ] || echo "note: $PMS_SHARED/seeds not found: citations not checked against the papers"

# No help text names a method by a seed number.
for c in $commands; do "$PMUSCOPE" "$c" --help; done > "$tmp/all.help" 2>&1
cat "$tmp/help.txt" "$tmp/methods.txt" >> "$tmp/all.help"
! grep -Ein 'seed 0[0-9]{2}' "$tmp/all.help" || fail "a --help names a seed file"

# The demo page cites the paper of each method it ran (the full page: demo_page.sh).
cd "$tmp"
"$PMUSCOPE" demo -o demo --workloads "$PMS_WORKLOADS" --fixtures "$PMS_FIXTURES" --steps cpistack,estimate > demo.out 2> demo.err ||
    { cat demo.err >&2; fail "demo exited $?"; }
for m in cpistack estimate; do
    title=$(sed -n '/^Paper: /,$p' "$tmp/$m.help" | squeeze | sed 's/^[^"]*"\([^"]*\)".*/\1/')
    grep -qF "Paper: " demo/index.html && grep -qF "$title" demo/index.html || fail "the demo page does not cite \"$title\""
done
! grep -Ein 'seed 0[0-9]{2}' demo/index.html demo.out || fail "the demo names a seed file"
