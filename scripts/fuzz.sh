#!/usr/bin/env bash
# Builds the libFuzzer targets of Fuzz/ and runs them (docs/fuzzing.md).
#
#   scripts/fuzz.sh [TARGET|all] [SECONDS]
#
# TARGET is one of: yaml expression template decide request bundle serve (default: all, one after
# the other);
# SECONDS is each target's fuzzing time (default 60). Exits 1 if any target finds a crash, a
# hang (an input over 10 s), a memory error or an input over the RSS limit; the input is saved
# as Fuzz/.artifacts/<target>-crash-<sha1> (or -timeout-, -oom-, -leak-).
#
# Environment: FUZZ_RSS_MB (default 2048), FUZZ_ARGS (extra libFuzzer flags, e.g. "-jobs=2" or
# "-seed=1"), FUZZ_VERBOSE=1 (libFuzzer's output on the terminal instead of in
# Fuzz/.artifacts/<target>.log).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$PWD

all_targets=(yaml expression template decide request bundle serve)
target=${1:-all}
seconds=${2:-60}
rss_mb=${FUZZ_RSS_MB:-2048}

if [[ $target == all ]]; then
    targets=("${all_targets[@]}")
elif [[ " ${all_targets[*]} " == *" $target "* ]]; then
    targets=("$target")
else
    names=$(IFS='|'; echo "${all_targets[*]}")
    echo "usage: scripts/fuzz.sh [$names|all] [seconds]" >&2
    exit 64
fi
if ! [[ $seconds =~ ^[0-9]+$ ]] || ((seconds < 1)); then
    echo "error: SECONDS must be a positive whole number, not \`$seconds\`" >&2
    exit 64
fi

# The Swift executable name of a target: yaml → FuzzYAML, expression → FuzzExpression, ...
product() {
    case $1 in
        yaml) echo FuzzYAML ;;
        *) echo "Fuzz$(tr '[:lower:]' '[:upper:]' <<<"${1:0:1}")${1:1}" ;;
    esac
}

# Longest input libFuzzer makes, per target: a little over the largest useful input (the
# expression limit is 4,096 characters; the shipped bundles are up to ~42 KB).
max_len() {
    case $1 in
        yaml) echo 32768 ;;
        expression) echo 4200 ;;
        template) echo 2048 ;;
        decide) echo 16384 ;;
        request) echo 16384 ;;
        bundle) echo 65536 ;;
        serve) echo 16384 ;;
    esac
}

# SwiftPM passes `-sanitize=fuzzer` and `-sanitize=address` as two flags, and swiftc keeps only
# the last: every module would be built without coverage counters (libFuzzer then sees one
# input and never grows its corpus). The coverage flags are given again, for every module.
build=(swift build -c release --sanitize fuzzer --sanitize address
       -Xswiftc -sanitize-coverage=edge,trace-cmp,inline-8bit-counters,pc-table)
echo "==> building Fuzz/ (release, -sanitize=fuzzer,address, coverage counters in every module)"
build_start=$SECONDS
(cd Fuzz && "${build[@]}" 2>&1) \
    | { grep -v -e 'ld.gold: warning: Cannot export local symbol' -e '^\[[0-9]*/[0-9]*\] ' || true; }
echo "    built in $((SECONDS - build_start)) s"
bin=$(cd Fuzz && "${build[@]}" --show-bin-path)

mkdir -p Fuzz/.artifacts
# Swift's own backtracer would hold a crashing process for up to 30 s; libFuzzer prints the
# stack itself. No leak check: Swift keeps references in the spare bits of enum payloads,
# where LeakSanitizer cannot see them, so it reports live objects (the loaded bundles) as leaks.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS=detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}

failed=()
summary=()
for t in "${targets[@]}"; do
    exe="$bin/$(product "$t")"
    # A binary without counters cannot guide the fuzzer: refuse it rather than run blind.
    if [[ $(readelf -S "$exe") != *__sancov_cntrs* ]]; then
        echo "error: $exe has no coverage counters (__sancov_cntrs); the fuzzer would run blind" >&2
        exit 1
    fi
    generated="Fuzz/.corpus/$t"     # generated seeds and what the fuzzer finds (not in git)
    committed="Fuzz/corpus/$t"      # small hand-picked seeds and regression inputs (in git)
    mkdir -p "$generated" "$committed"
    # The target writes its seeds and exits from LLVMFuzzerInitialize.
    HERALD_FUZZ_SEEDS="$root/$generated" "$exe" 2>&1 | tail -1 | sed "s/^/    $t: /"

    log="Fuzz/.artifacts/$t.log"
    echo "==> fuzz $t for ${seconds}s (corpus $generated + $committed)"
    args=(-max_total_time="$seconds" -rss_limit_mb="$rss_mb" -malloc_limit_mb="$rss_mb" -timeout=10
          -max_len="$(max_len "$t")" -detect_leaks=0 -print_final_stats=1 -artifact_prefix="Fuzz/.artifacts/$t-")
    # shellcheck disable=SC2206
    args+=(${FUZZ_ARGS:-})
    status=0
    if [[ ${FUZZ_VERBOSE:-} == 1 ]]; then
        "$exe" "${args[@]}" "$generated" "$committed" 2>&1 | tee "$log" || status=$?
    else
        "$exe" "${args[@]}" "$generated" "$committed" >"$log" 2>&1 || status=$?
    fi
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log" | tail -1)
    # Coverage when the seeds were loaded (`INITED cov: N`), at the end, and the units added.
    cov_start=$(sed -n 's/.*INITED cov: \([0-9]*\).*/\1/p' "$log" | head -1)
    cov_end=$(sed -n 's/.*DONE *cov: \([0-9]*\).*/\1/p' "$log" | tail -1)
    added=$(sed -n 's/^stat::new_units_added: *//p' "$log" | tail -1)
    line=$(printf '%-10s %10s runs %8s exec/s %6s MB peak  cov %s -> %s  +%s units' "$t" "${runs:-?}" "${rate:-?}" "${rss:-?}" \
        "${cov_start:-?}" "${cov_end:-?}" "${added:-?}")
    if ((status == 0)) && { ((${cov_start:-0} == 0)) || ((${added:-0} == 0)); }; then
        failed+=("$t")
        summary+=("$line  FAILED (blind: no coverage, or a corpus that never grew)")
        echo "!!! $t ran blind: coverage at start ${cov_start:-none}, units added ${added:-none} ($log)"
    elif ((status != 0)); then
        failed+=("$t")
        summary+=("$line  FAILED (exit $status)")
        echo "!!! $t failed (exit $status); the end of $log:"
        grep -v -e '^#[0-9]' -e '^ *UNCOVERED' "$log" | tail -60
        # The input, so a CI log alone is enough to reproduce it (docs/fuzzing.md).
        unit=$(sed -n 's/.*Test unit written to //p' "$log" | tail -1)
        if [[ -n $unit && -f $unit ]]; then
            if (($(wc -c <"$unit") <= 16384)); then
                echo "input ($unit, base64): $(base64 -w0 "$unit")"
            else
                echo "input: $unit ($(wc -c <"$unit") bytes)"
            fi
        fi
    else
        summary+=("$line  ok")
    fi
done

echo
echo "==> fuzz summary (${seconds}s per target)"
printf '    %s\n' "${summary[@]}"
if ((${#failed[@]})); then
    echo "failed: ${failed[*]} (inputs in Fuzz/.artifacts/; docs/fuzzing.md says how to reproduce one)" >&2
    exit 1
fi
