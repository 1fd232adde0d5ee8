#!/bin/sh
# Check out one engine's repository (never into this one): checkout_engine.sh OWNER/NAME DEST [PATH]
#
# PATH: only that folder of the repository (an engine inside a large monorepo whose other
# files, images say, are not needed and may be missing from a mirror).
#
# From a bare mirror when there is one ($MIRROR/OWNER+NAME/repo, as this workspace's `fetch`
# makes), else cloned from GitHub. The work tree is written with `git archive` (no .git) and
# the commit kept in DEST/.commit, which the adapters report as the engine's version.
set -eu
repo=$1
dest=$2
only=${3:-}
mirror=${MIRROR:-/work/.mirror}/$(echo "$repo" | tr / +)/repo
if [ -d "$mirror/.git" ]; then mirror=$mirror/.git; fi
if [ -f "$dest/.commit" ]; then
    echo "$repo: already checked out in $dest ($(cat "$dest/.commit"))"
    exit 0
fi
mkdir -p "$dest"
if [ -d "$mirror" ]; then
    git --git-dir="$mirror" archive HEAD $only | tar -x -C "$dest"
    git --git-dir="$mirror" rev-parse HEAD > "$dest/.commit"
else
    tmp=$(mktemp -d)
    git clone --quiet --depth 1 "https://github.com/$repo" "$tmp/repo"
    git -C "$tmp/repo" archive HEAD $only | tar -x -C "$dest"
    git -C "$tmp/repo" rev-parse HEAD > "$dest/.commit"
    rm -rf "$tmp"
fi
echo "$repo: checked out in $dest ($(cat "$dest/.commit"))"
