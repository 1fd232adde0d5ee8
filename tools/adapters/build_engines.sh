#!/bin/sh
# Build the engines written elsewhere that the adapters drive, on a fresh machine.
#
#   tools/adapters/build_engines.sh [NAME ...]     (no NAME: every engine, one at a time)
#
# NAME: node-tools, euchre-app, cards-ts, buck-euchre, euchre-webrtc, euchre-arena, fun-euchre, moltblox,
# rlcard-euchre, rlcard-500, euchre-plt,
# pypi (OpenSpiel, euchrelib, euchre-cli). Everything goes under $ENGINES (default
# /work/engines; never inside this repository); each step is skipped when already done, and
# the run ends by writing $ENGINES/env.sh, the variables the adapters read
# (`. $ENGINES/env.sh` before `euchre-spec check` or tools/publish_reports.py).
#
# Needs: git, node and npm (Debian: apt-get install nodejs npm), the venv's python ($PYTHON,
# default .venv/bin/python) with pip. Repositories come from $MIRROR when there is a mirror
# there, else from GitHub (tools/adapters/checkout_engine.sh). Builds run under nice: the
# machines this runs on are shared.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
ENGINES=${ENGINES:-/work/engines}
PYTHON=${PYTHON:-.venv/bin/python}
checkout="$here/checkout_engine.sh"
mkdir -p "$ENGINES"

need() {      # need TOOL WHAT: one clear line when a build tool is missing
    command -v "$1" >/dev/null 2>&1 || { echo "$2: $1 is not installed (needed to build it)" >&2; exit 1; }
}

node_tools() {   # esbuild, and the npm packages the TypeScript engines import but do not bundle
    need npm "the TypeScript engines (67cards, cards-ts, buckEuchre)"
    tools="$ENGINES/node-tools"
    mkdir -p "$tools"
    [ -f "$tools/package.json" ] || echo '{"name": "euchre-spec-engine-tools", "private": true}' > "$tools/package.json"
    (cd "$tools" && nice npm install --no-audit --no-fund --silent \
        esbuild inquirer@9 rxjs@7 inquirer-select-line zod@3 zustand@5 react@19)
}

first_build() {   # ADAPTER: start the adapter once, which bundles its engine with esbuild (one clear line if it cannot)
    . "$ENGINES/env.sh"
    echo '{"id": 1, "type": "hello"}' | nice "$PYTHON" "$here/$1" >/dev/null
}

write_env() {
    cat > "$ENGINES/env.sh" <<ENV
export ESBUILD=$ENGINES/node-tools/node_modules/.bin/esbuild
export NODE_PATH=$ENGINES/node-tools/node_modules
export EUCHRE_APP_DIR=$ENGINES/euchre-app
export CARDS_TS_DIR=$ENGINES/cards-ts
export BUCK_EUCHRE_DIR=$ENGINES/buckEuchre
export EUCHRE_WEBRTC_DIR=$ENGINES/euchre-webrtc
export EUCHRE_ARENA_DIR=$ENGINES/euchre-reasoning-arena
export FUN_EUCHRE_DIR=$ENGINES/funEuchre
export MOLTBLOX_DIR=$ENGINES/moltblox
export RLCARD_500_DIR=$ENGINES/rlcard-500
export EUCHRE_PLT_DIR=$ENGINES/euchre-plt
export RLCARD_DIR=$ENGINES/rlcard-sdist/rlcard-0.1.17
export RLCARD_EUCHRE_W23_DIR=$ENGINES/W23-Euchre-Reinforcement-Learning
export RLCARD_EUCHRE_RL_DIR=$ENGINES/euchre_rl
export RLCARD_EUCHRE_DIR=$ENGINES/W23-Euchre-Reinforcement-Learning
ENV
}

build() {
    case $1 in
        node-tools) node_tools ;;
        euchre-app) "$checkout" sclarke500/euchre-app "$ENGINES/euchre-app"; node_tools; first_build euchre_app_engine.py ;;
        cards-ts) "$checkout" johnameyer/cards-ts "$ENGINES/cards-ts"; node_tools; first_build cards_ts_engine.py ;;
        buck-euchre) "$checkout" doenjon/buckEuchre "$ENGINES/buckEuchre"; node_tools; first_build buck_euchre_engine.py ;;
        euchre-webrtc) "$checkout" JeremyGuinn/euchre-webrtc "$ENGINES/euchre-webrtc"; node_tools; first_build euchre_webrtc_engine.py ;;
        euchre-arena)       # lib/game has no package import: esbuild alone
            "$checkout" estern1011/euchre-reasoning-arena "$ENGINES/euchre-reasoning-arena"; node_tools; first_build euchre_arena_engine.py ;;
        fun-euchre)         # packages/game-rules has no package import: esbuild alone
            "$checkout" seanwolter/funEuchre "$ENGINES/funEuchre"; node_tools; first_build fun_euchre_engine.py ;;
        moltblox)           # only its game-builder package (the monorepo's images are not needed)
            "$checkout" Halldon-Inc/moltblox "$ENGINES/moltblox" packages/game-builder; node_tools; first_build moltblox_euchre_engine.py ;;
        rlcard-euchre)
            "$checkout" MichiganDataScienceTeam/W23-Euchre-Reinforcement-Learning "$ENGINES/W23-Euchre-Reinforcement-Learning"
            "$checkout" mbrine555/euchre_rl "$ENGINES/euchre_rl"
            if [ ! -d "$ENGINES/rlcard-sdist/rlcard-0.1.17" ]; then     # euchre_rl imports rlcard.core of 0.1.17
                mkdir -p "$ENGINES/rlcard-sdist"
                nice "$PYTHON" -m pip download -q --no-deps --no-binary :all: rlcard==0.1.17 -d "$ENGINES/rlcard-sdist"
                tar -xzf "$ENGINES/rlcard-sdist/rlcard-0.1.17.tar.gz" -C "$ENGINES/rlcard-sdist"
            fi ;;
        rlcard-500) "$checkout" campbellborder/rlcard-500 "$ENGINES/rlcard-500"; nice "$PYTHON" -m pip install -q numpy ;;
        euchre-plt) "$checkout" crashka/euchre-plt "$ENGINES/euchre-plt"; nice "$PYTHON" -m pip install -q PyYAML ;;
        pypi) nice "$PYTHON" -m pip install -q open_spiel euchrelib==0.0.2 dacite importlib_resources euchre-cli==0.7.0 ;;
        *) echo "unknown engine $1 (node-tools, euchre-app, cards-ts, buck-euchre, euchre-webrtc, euchre-arena, fun-euchre, moltblox, rlcard-euchre, rlcard-500, euchre-plt, pypi)" >&2
           exit 2 ;;
    esac
}

write_env
for name in ${@:-node-tools euchre-app cards-ts buck-euchre euchre-webrtc euchre-arena fun-euchre moltblox rlcard-euchre rlcard-500 euchre-plt pypi}; do
    build "$name"
done
write_env
echo "built; now: . $ENGINES/env.sh"
