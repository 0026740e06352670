#!/usr/bin/env python3
"""Summarizes bench/aot.sh's aot.jsonl as markdown: per server the medians with min-max over the runs, the goals'
ratios taken per run (the servers of one run ran seconds apart) as medians with their min-max, and the sizes.

    aot_report.py DIR/aot.jsonl > DIR/aot.md
"""
import json
import statistics
import sys

NAMES = {
    "protohttp-aot": "ProtoHttp, Native AOT",
    "protohttp-aot-no-xml": "ProtoHttp, Native AOT, XML left out (feature switch)",
    "protohttp-jit": "ProtoHttp, JIT",
    "grpc-aot": "Grpc.AspNetCore, Native AOT",
    "minimal-aot": "Minimal API + STJ source generation, Native AOT",
}
FORMATS = {
    "protohttp-aot": "protobuf, HTTP/1.1",
    "protohttp-aot-no-xml": "protobuf, HTTP/1.1",
    "protohttp-jit": "protobuf, HTTP/1.1",
    "grpc-aot": "gRPC, h2c",
    "minimal-aot": "JSON, HTTP/1.1",
}


def rate(result):
    if not result or result.get("error") or not result.get("duration_us"):
        return None
    return result["requests"] / (result["duration_us"] / 1e6)


def spread(values, fmt):
    values = [v for v in values if v is not None]
    if not values:
        return "n/a"
    return f"{fmt(statistics.median(values))} ({fmt(min(values))}–{fmt(max(values))})"


def ratio_spread(pairs):
    ratios = [a / b for a, b in pairs if a is not None and b]
    if not ratios:
        return "n/a"
    return f"{statistics.median(ratios):.2f}x ({min(ratios):.2f}–{max(ratios):.2f}, {len(ratios)} runs)"


def main(path):
    rows, sizes = [], {}
    with open(path) as f:
        for line in f:
            record = json.loads(line)
            if "size" in record:
                sizes[record["size"]] = record
            else:
                rows.append(record)
    by_run = {}
    for r in rows:
        by_run.setdefault(r["run"], {})[r["id"]] = r
    ids = [i for i in NAMES if any(r["id"] == i for r in rows)]

    ms = lambda v: f"{v:,.0f} ms"
    mb = lambda v: f"{v / 1024:,.1f} MB"
    cps = lambda v: f"{v:,.0f}"
    print("| server | W3 format | startup to first answered call | idle RSS | of it private (anonymous) | peak RSS under W3 | W3 calls/s | W3 p99 | ProtoHttp over h2c, calls/s | binary | publish folder |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for i in ids:
        mine = [r for r in rows if r["id"] == i]
        size = sizes.get(i, {})
        h2c = [rate(r.get("w3_h2c")) for r in mine]
        print(
            f"| {NAMES[i]} | {FORMATS[i]} | {spread([r['startup_ms'] for r in mine], ms)} | {spread([r['idle_rss_kb'] for r in mine], mb)} "
            f"| {spread([r.get('idle_anon_kb') for r in mine], mb)} | {spread([r['load_rss_kb'] for r in mine], mb)} | {spread([rate(r['w3']) for r in mine], cps)} "
            f"| {spread([r['w3'].get('p99_us', 0) / 1000 for r in mine], lambda v: f'{v:.1f} ms')} "
            f"| {spread(h2c, cps) if any(h2c) else ''} "
            f"| {size.get('binary_bytes', 0) / 1e6:.1f} MB | {size.get('folder_bytes', 0) / 1e6:.1f} MB |"
        )
    print()

    def pairs(a, b, key):
        return [(key(run[a]), key(run[b])) for run in by_run.values() if a in run and b in run]

    print("| goal | measured, per-run ratios: median (min–max) |")
    print("|---|---|")
    print(f"| startup to the first answered call ≤ Grpc.AspNetCore's (AOT) | {ratio_spread(pairs('protohttp-aot', 'grpc-aot', lambda r: r['startup_ms']))} of gRPC's |")
    print(f"| idle RSS ≤ Grpc.AspNetCore's (AOT) | {ratio_spread(pairs('protohttp-aot', 'grpc-aot', lambda r: r['idle_rss_kb']))} of gRPC's |")
    print(f"| (reported) idle private (anonymous) RSS, ProtoHttp AOT vs Grpc.AspNetCore AOT | {ratio_spread(pairs('protohttp-aot', 'grpc-aot', lambda r: r.get('idle_anon_kb')))} |")
    print(f"| (reported) idle file-backed RSS (the binary's pages), ProtoHttp AOT vs Grpc.AspNetCore AOT | {ratio_spread(pairs('protohttp-aot', 'grpc-aot', lambda r: r['idle_rss_kb'] - r.get('idle_anon_kb', 0)))} |")
    print(f"| (reported) startup and idle RSS, ProtoHttp AOT with XML left out vs Grpc.AspNetCore AOT | {ratio_spread(pairs('protohttp-aot-no-xml', 'grpc-aot', lambda r: r['startup_ms']))}; "
          f"{ratio_spread(pairs('protohttp-aot-no-xml', 'grpc-aot', lambda r: r['idle_rss_kb']))} |")
    print(f"| W3 protobuf calls/s under AOT ≥ 0.9x ProtoHttp under the JIT | {ratio_spread(pairs('protohttp-aot', 'protohttp-jit', lambda r: rate(r['w3'])))} (HTTP/1.1); "
          f"over h2c {ratio_spread(pairs('protohttp-aot', 'protohttp-jit', lambda r: rate(r.get('w3_h2c'))))} |")
    print(f"| (reported) ProtoHttp AOT vs Grpc.AspNetCore AOT, W3 over h2c, calls/s | {ratio_spread([(rate(run['protohttp-aot'].get('w3_h2c')), rate(run['grpc-aot']['w3'])) for run in by_run.values() if 'protohttp-aot' in run and 'grpc-aot' in run])} |")
    print(f"| (reported) peak RSS under W3, ProtoHttp AOT vs Grpc.AspNetCore AOT | {ratio_spread(pairs('protohttp-aot', 'grpc-aot', lambda r: r['load_rss_kb']))} |")
    print(f"| (reported) startup, ProtoHttp AOT vs JIT | {ratio_spread(pairs('protohttp-aot', 'protohttp-jit', lambda r: r['startup_ms']))} |")
    print(f"| (reported) startup and idle RSS, ProtoHttp AOT vs Minimal API AOT | {ratio_spread(pairs('protohttp-aot', 'minimal-aot', lambda r: r['startup_ms']))}; "
          f"{ratio_spread(pairs('protohttp-aot', 'minimal-aot', lambda r: r['idle_rss_kb']))} |")
    warnings = {i: sizes[i].get("publish_warnings") for i in ids if i in sizes}
    print()
    print("Publish warnings (distinct): " + ", ".join(f"{i} {w}" for i, w in warnings.items()))


if __name__ == "__main__":
    main(sys.argv[1])
