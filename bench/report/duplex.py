"""The W7 section of docs/benchmarks.md (duplex over WebSocket), from bench/duplex-load.sh's duplex.jsonl and
duplex-env.json. Every ratio is taken within one run (the targets of a run are measured back to back, each on a fresh
server, in rotated order), then summarised as the median of the runs' ratios with their min-max."""
import json
import os

from streaming import fmt_num, fmt_ratio_spread, fmt_spread, per_run_ratios, read_lines, spread

W7_NAMES = {
    "protohttp-ws": "ProtoHttp over WebSocket, raw `ClientWebSocket` (`protohttp+proto`), HTTP/1.1",
    "protohttp-ws-h2c": "ProtoHttp over WebSocket, raw `ClientWebSocket`, h2c (RFC 8441: calls as streams of shared connections)",
    "typed-ws": "ProtoHttp over WebSocket, the typed client (`RequestStreamsOverWebSocket`), HTTP/1.1",
    "grpc-h2c": "Grpc.AspNetCore bidirectional streaming, Grpc.Net.Client, h2c",
    "signalr-json": "SignalR hub streaming both ways, WebSockets, JSON",
    "signalr-msgpack": "SignalR hub streaming both ways, WebSockets, MessagePack",
}
BEGIN = "<!-- duplex section: bench/report/duplex.py -->"
END = "<!-- end of the duplex section -->"
GOAL_PREFIX = "W7 "


class Duplex:
    def __init__(self, results):
        folder = os.path.join(results, "duplex")
        self.rows = [r for r in read_lines(os.path.join(folder, "duplex.jsonl")) if r.get("bench") == "w7"]
        env_path = os.path.join(folder, "duplex-env.json")
        self.env = json.load(open(env_path, encoding="utf-8")) if os.path.exists(env_path) else {}
        self.many = max((r["sockets"] for r in self.rows), default=0)

    @property
    def present(self):
        return bool(self.rows)

    def of(self, sockets):
        return [r for r in self.rows if r["sockets"] == sockets]

    # --- goal rows for the goals table -------------------------------------------------------------------------
    def goal_rows(self, target="protohttp-ws"):
        def verdict(ratios, bar, better_high=True):
            s = spread(ratios)
            if not s:
                return "n/a"
            return "**met**" if (s[0] >= bar if better_high else s[0] <= bar) else "**not met**"

        rows = []
        for sockets, what in ((1, "round trips/s on one socket"), (self.many, f"round trips/s on {self.many:,} sockets")):
            if sockets <= 1 and what.endswith("sockets"):
                continue
            rows_n = self.of(sockets)
            vs_msgpack = per_run_ratios(rows_n, "rate", target, "signalr-msgpack")
            vs_grpc = per_run_ratios(rows_n, "rate", target, "grpc-h2c")
            rows.append([f"{GOAL_PREFIX}{what} ≥ SignalR's MessagePack hub", fmt_ratio_spread(vs_msgpack), verdict(vs_msgpack, 1.0)])
            rows.append([f"{GOAL_PREFIX}{what} ≥ 0.9x Grpc.AspNetCore bidi over h2c", fmt_ratio_spread(vs_grpc), verdict(vs_grpc, 0.9)])
        h2c = per_run_ratios(self.of(self.many), "rate", "protohttp-ws-h2c", "grpc-h2c")
        if h2c:
            rows.append([f"{GOAL_PREFIX}round trips/s on {self.many:,} sockets over h2c (RFC 8441) ≥ 0.9x Grpc.AspNetCore bidi over h2c",
                         fmt_ratio_spread(h2c), verdict(h2c, 0.9)])
        many = self.of(self.many)
        mem_json = per_run_ratios(many, "ws_per_socket", target, "signalr-json")
        mem_msgpack = per_run_ratios(many, "ws_per_socket", target, "signalr-msgpack")
        heap = per_run_ratios(many, "heap_per_socket", target, "signalr-msgpack")
        both = [max(a, b) for a, b in zip(mem_json, mem_msgpack)]
        rows.append([f"{GOAL_PREFIX}memory per open socket ≤ SignalR's ({self.many:,} sockets; working set)",
                     f"{fmt_ratio_spread(mem_msgpack)} of MessagePack, {fmt_ratio_spread(mem_json)} of JSON; GC heap "
                     f"{fmt_ratio_spread(heap)} of MessagePack", verdict(both, 1.0, better_high=False)])
        return rows

    # --- the section -------------------------------------------------------------------------------------------
    def section(self, add, table, notes=None):
        env = self.env
        add(BEGIN)
        add()
        add("## W7 Duplex over WebSocket: a bidirectional echo of W3's messages")
        add()
        add(f"Measured {env.get('date', '?')} by `bench/duplex-load.sh` ({env.get('runs', '?')} runs, {env.get('seconds', '?')} s "
            f"windows; {env.get('cpu', '?')}, {env.get('cores', '?')} cores, .NET SDK {env.get('dotnet', '?')}). The server is "
            "bench/StreamPeers, a fresh process per target and run, pinned to core 0: `DuplexService.Echo` "
            "(bench/ProtoHttp.Bench.Streams/Protos/DuplexBench.proto: W3's `SearchRequest` in, W3's one-result "
            "`SearchResponse` out, per message) mapped by ProtoHttp (its WebSocket calls, docs/protocol.md section 13) and "
            "by Grpc.AspNetCore, and a SignalR hub method `Echo(IAsyncEnumerable<SearchRequestDto>)` streaming answers "
            "back. The clients are bench/StreamLoad's `duplex` command on core 1; every answer is parsed and checked, and "
            "every call ends with the client's half-close and the server's successful end (Connect's `{}` end envelope "
            "and close 1000, `grpc-status: 0`, the hub stream's completion). One message in flight per call: a round "
            "trip is one request and its answer, so messages/s each way equal round trips/s. Memory: the server's "
            "working set and GC heap after a full collection, with all calls open and idle (each made one round trip), "
            "minus the same before any of them, divided by the calls; gRPC's calls and the h2c WebSocket calls are streams on "
            f"about {max(1, self.many // 100)} h2c connections (100 streams each, Kestrel's default), the others one socket "
            "each. The profile columns are read around each window: both processes' CPU time and the server's bytes "
            "allocated (`GC.GetTotalAllocatedBytes`) per round trip, and the server's collections (StreamPeers' `/counters`). "
            "Only ratios within a run mean anything; each ratio is taken per run and the tables give the median of "
            "the runs' ratios with their min–max. The load average at the end of each measurement is in the last column.")
        add()
        if notes and os.path.exists(notes):
            with open(notes, encoding="utf-8") as f:
                add(f.read().rstrip())
            add()
        add("### One socket: round trips/s with one message in flight")
        add()
        rows = []
        one = self.of(1)
        for target, name in W7_NAMES.items():
            runs = [r for r in one if r["target"] == target and not r.get("errors")]
            if not runs:
                continue
            rate = spread([r["rate"] for r in runs])
            p99 = spread([r["p99_ms"] for r in runs])
            rows.append([name, fmt_spread(rate), fmt_spread(p99, 2, " ms"),
                         "" if target == "signalr-msgpack" else fmt_ratio_spread(per_run_ratios(one, "rate", target, "signalr-msgpack")),
                         "" if target == "grpc-h2c" else fmt_ratio_spread(per_run_ratios(one, "rate", target, "grpc-h2c")),
                         *profile(runs), load_range(runs)])
        table(["peer", "round trips/s (median, min–max)", "p99 round trip", "vs SignalR MessagePack", "vs Grpc.AspNetCore",
               *PROFILE_HEADERS, "load average"], rows)
        add(f"### {self.many:,} sockets at once: every call echoing, one message in flight each")
        add()
        rows = []
        many = self.of(self.many)
        for target, name in W7_NAMES.items():
            runs = [r for r in many if r["target"] == target]
            good = [r for r in runs if not r.get("errors")]
            if not runs:
                continue
            rate = spread([r["rate"] for r in good])
            p99 = spread([r["p99_ms"] for r in good])
            ws = spread([r["ws_per_socket"] / 1024 for r in good])
            heap = spread([r["heap_per_socket"] / 1024 for r in good])
            rows.append([name, fmt_spread(rate), fmt_spread(p99, 1, " ms"), fmt_spread(ws, 1, " KB"), fmt_spread(heap, 1, " KB"),
                         "" if target == "signalr-msgpack" else fmt_ratio_spread(per_run_ratios(many, "rate", target, "signalr-msgpack")),
                         "" if target == "grpc-h2c" else fmt_ratio_spread(per_run_ratios(many, "rate", target, "grpc-h2c")),
                         *profile(good), f"{sum(r.get('errors', 0) for r in runs)}", load_range(runs)])
        table(["peer", "round trips/s", "p99 round trip", "working set per call", "GC heap per call",
               "rate vs SignalR MessagePack", "rate vs Grpc.AspNetCore", *PROFILE_HEADERS, "errors", "load average"], rows)
        add(END)


PROFILE_HEADERS = ["server CPU per round trip", "server bytes allocated per round trip", "server GCs in the windows (gen 0/1/2)",
                   "client CPU per round trip"]


def profile(runs):
    """Where the time goes (medians over the runs): both processes' CPU and the server's allocations and collections."""
    runs = [r for r in runs if r.get("server_cpu_us") is not None]
    if not runs:
        return ["–"] * len(PROFILE_HEADERS)
    gcs = [sum(r["server_gc"][i] for r in runs) for i in range(3)]
    return [fmt_spread(spread([r["server_cpu_us"] for r in runs]), 0, " µs"), fmt_spread(spread([r["server_alloc"] for r in runs]), 0, " B"),
            "/".join(str(g) for g in gcs), fmt_spread(spread([r["client_cpu_us"] for r in runs]), 0, " µs")]


def load_range(runs):
    loads = [float(r["load"].split()[0]) for r in runs if r.get("load")]
    return f"{min(loads):.0f}–{max(loads):.0f}" if loads else "–"
