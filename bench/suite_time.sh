#!/usr/bin/env bash
# Time the suite as a contributor and CI meet it, in a fresh clone of HEAD:
#   cold  scripts/test in a clone with no virtual environment (it is created first)
#   warm  scripts/test again in the same clone (the environment is there)
#   ci    .ci/run in the same clone (scripts/test, then the quick subset on a second Python)
#   quick scripts/test --quick in the same clone
# Usage: bench/suite_time.sh [RUNS] [STEPS...]     e.g. bench/suite_time.sh 3 warm
#        (a step may be named more than once: bench/suite_time.sh 1 cold warm warm warm ci)
# Prints one line per run ("warm 1: 352 s, exit 0") and the spread per step. Logs stay in
# the clone's folder (printed at the start); nothing in this checkout is touched.
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RUNS=${1:-1}
shift || true
STEPS=("$@")
[[ ${#STEPS[@]} -gt 0 ]] || STEPS=(cold warm ci)

WORK=$(mktemp -d /tmp/ledpanel-suite.XXXXXX)
echo "clone and logs: $WORK"
git clone -q "$ROOT" "$WORK/clone"
cd "$WORK/clone" || exit 1

declare -A times
declare -A count
for step in "${STEPS[@]}"; do
    for _ in $(seq 1 "$RUNS"); do
        count[$step]=$(( ${count[$step]:-0} + 1 ))
        run=${count[$step]}
        case $step in
            cold) rm -rf .venv .venv-second; command=(bash scripts/test) ;;
            warm) command=(bash scripts/test) ;;
            quick) command=(bash scripts/test --quick) ;;
            ci) command=(env CI=true bash .ci/run) ;;
            *) echo "unknown step $step"; exit 2 ;;
        esac
        started=$(date +%s)
        "${command[@]}" >"$WORK/$step-$run.log" 2>&1 </dev/null
        code=$?
        took=$(( $(date +%s) - started ))
        times[$step]="${times[$step]:-} $took"
        echo "$step $run: $took s, exit $code ($(grep -E '^=+ .*(passed|failed)' "$WORK/$step-$run.log" | tail -n 1 | tr -d '='))"
    done
done
for step in $(printf '%s\n' "${STEPS[@]}" | awk '!seen[$0]++'); do
    read -r -a values <<<"${times[$step]}"
    sorted=$(printf '%s\n' "${values[@]}" | sort -n | tr '\n' ' ')
    echo "$step: ${sorted% } s (min .. max of ${#values[@]})"
done
