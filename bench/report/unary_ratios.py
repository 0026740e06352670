#!/usr/bin/env python3
"""The unary goals' ratios from bench/load.sh's load.jsonl, per build (--server NAME=DLL) when there are several.

    python3 bench/report/unary_ratios.py DIR/load.jsonl [more.jsonl ...]

Each ratio is taken within one run of one build (ProtoHttp and its peer measured back to back) and reported as the
median of the runs' ratios with their min-max; calls/s as median (min-max) over the runs; the load average (1 min)
seen at the start of the runs' measurements as min-max. Prints a Markdown table.
"""
import json
import statistics
import sys
from collections import defaultdict

# (label, ProtoHttp's configuration, the peer's, the peer's name, the goal)
RATIOS = [
    ("W3 protobuf", "w3-protobuf-protohttp", "w3-protobuf-raw", "raw Kestrel", 0.85),
    ("W3 protobuf", "w3-protobuf-protohttp", "w3-protobuf-raw-routed", "raw Kestrel behind routing", None),
    ("W3 protobuf: routing", "w3-protobuf-raw-routed", "w3-protobuf-raw", "raw Kestrel", None),
    ("W3 JSON", "w3-json-protohttp", "w3-json-transcoding", "gRPC JSON transcoding", 1.5),
    ("W3 JSON", "w3-json-protohttp", "w3-json-minimal", "Minimal API + STJ", 1.0),
    ("W3 JSON", "w3-json-protohttp", "w3-json-raw", "raw Kestrel JSON (ceiling)", 0.85),
    ("W3 JSON", "w3-json-protohttp", "w3-json-raw-routed", "raw Kestrel JSON behind routing", None),
    ("W3 JSON: routing", "w3-json-raw-routed", "w3-json-raw", "raw Kestrel JSON (ceiling)", None),
    ("W3 JSON: 1.5x transcoding", "w3-json-transcoding", "w3-json-raw", "raw Kestrel JSON (ceiling), x1.5", None),
    ("W3 GET", "w3-get-protohttp", "w3-get-transcoding", "transcoding GET", 1.0),
    ("W3 GET", "w3-get-protohttp", "w3-get-minimal", "Minimal API GET", 1.0),
    ("W8 search GET", "w8-search-get-protohttp", "w8-search-get-transcoding", "transcoding, same rule", 1.2),
    ("W8 search POST body *", "w8-search-post-protohttp", "w8-search-post-transcoding", "transcoding, same rule", 1.2),
    ("W8 GetOrders GET", "w8-orders-get-protohttp", "w8-orders-get-transcoding", "transcoding, same rule", 1.2),
    ("W2 10 records, h2c", "w2-10-protobuf-protohttp-h2c", "w2-10-protobuf-grpc", "Grpc.AspNetCore (h2c)", 1.0),
    ("W2 100 records, h2c", "w2-100-protobuf-protohttp-h2c", "w2-100-protobuf-grpc", "Grpc.AspNetCore (h2c)", 1.0),
    ("W2 1,000 records, h2c", "w2-1000-protobuf-protohttp-h2c", "w2-1000-protobuf-grpc", "Grpc.AspNetCore (h2c)", 1.0),
]


def rate(line):
    result = line["result"]
    return result["requests"] / (result["duration_us"] / 1e6) if result.get("duration_us") else 0.0


def spread(values, fmt, unit=""):
    return f"{fmt(statistics.median(values))}{unit} ({fmt(min(values))}–{fmt(max(values))})"


def main(paths):
    rates = defaultdict(dict)  # (build, id) -> {run: calls/s}
    loads = defaultdict(list)
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for text in f:
                line = json.loads(text)
                build = line.get("build", "")
                rates[(build, line["id"])][line["run"]] = rate(line)
                if "load1" in line:
                    loads[build].append(line["load1"])
    builds = sorted({build for build, _ in rates})
    print("| workload | peer | goal | build | ProtoHttp calls/s | peer calls/s | ratio per run | runs |")
    print("|---|---|---|---|---|---|---|---|")
    for label, ours, peer, peer_name, goal in RATIOS:
        for build in builds:
            a, b = rates.get((build, ours)), rates.get((build, peer))
            if not a or not b:
                continue
            runs = sorted(set(a) & set(b))
            scale = 1.5 if "x1.5" in peer_name else 1.0
            ratios = [scale * a[r] / b[r] for r in runs]
            met = " ✓" if goal is not None and statistics.median(ratios) >= goal else ""
            print(f"| {label} | {peer_name} | {'≥ %.2fx' % goal if goal else ''} | {build} | "
                  f"{spread([a[r] for r in runs], lambda v: f'{v:,.0f}')} | {spread([b[r] for r in runs], lambda v: f'{v:,.0f}')} | "
                  f"{spread(ratios, lambda v: f'{v:.2f}', 'x')}{met} | {len(runs)} |")
    for build in builds:
        if loads[build]:
            print(f"\nload average (1 min) during {build or 'the runs'}: {min(loads[build]):.1f}–{max(loads[build]):.1f}")


if __name__ == "__main__":
    main(sys.argv[1:])
