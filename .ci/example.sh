#!/usr/bin/env bash
# CI: the plugin author's path, as a user takes it. A fresh virtual environment gets the
# project and the example game (examples/connect_four, its own distribution); the game is
# listed, played with a record, the record verified, a small tournament run (the example's
# built-in bots and one `codecup bot` program) with standings and a site, and the
# example's own tests run against the installed plugin.
set -euo pipefail
cd "$(dirname "$0")/.."
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_ROOT_USER_ACTION=ignore

work=$(mktemp -d "${TMPDIR:-/tmp}/codecup-example.XXXXXX")
trap 'rm -rf "$work"' EXIT
step() { printf '\n== %s\n' "$*"; }

step "a fresh virtual environment: pip install . examples/connect_four"
python -m venv "$work/venv"
# shellcheck disable=SC1091
source "$work/venv/bin/activate"
pip install -q . "./examples/connect_four[test]"
example=$PWD/examples/connect_four
cd "$work"

step "codecup games lists connect_four"
codecup games | tee games.txt
grep -q '^connect_four ' games.txt

step "codecup play connect_four bot:random bot:simple --record g.json"
codecup play connect_four bot:random bot:simple --seed 3 --record g.json --quiet
codecup play connect_four bot:simple "codecup bot connect_four random --seed 2" \
    --variant opening --record g-program.json --quiet

python - <<'PY'  # the program played the whole game: no crash, no time-out
import json
ends = [end["kind"] for end in json.load(open("g-program.json"))["result"]["termination"]]
assert ends == ["normal", "normal"], ends
PY

step "codecup verify"
codecup verify g.json g-program.json

step "codecup tournament: the example's bots and one codecup bot program"
cat > players.yml <<'EOF'
- name: simple
  command: bot:simple
- name: random
  command: bot:random
- name: simple-program
  command: codecup bot connect_four simple --seed 1
EOF
codecup tournament players.yml --game connect_four --variant opening --out results --jobs 2 --quiet
grep -q 'simple-program' results/standings.txt
test -s results/standings.json
test -s results/index.html
test "$(find results/games -name '*.json' | wc -l)" -eq 6  # 3 players, each pair twice

step "the example's own tests, against the installed plugin"
python -m pytest -q -p no:cacheprovider "$example/tests"

step "example: all passed"
