"""The streaming section of docs/benchmarks.md: W4 push, the typed client's read rate and W5 fan-out, from
bench/stream-load.sh's stream.jsonl and stream-env.json. Every ratio is taken within one run (the targets of a run are
measured back to back, in rotated order), then summarised as the median of the runs' ratios with their min-max."""
import json
import os
import statistics

W4_NAMES = {
    "sse-h1": "ProtoHttp events (SSE), HTTP/1.1",
    "ndjson-h1": "ProtoHttp lines (NDJSON), HTTP/1.1",
    "envelopes-h1": "ProtoHttp `connect+proto` envelopes, HTTP/1.1",
    "envelopes-h2c": "ProtoHttp `connect+proto` envelopes, h2c",
    "connect-h1": "Connect protocol server streaming, HTTP/1.1",
    "connect-h2c": "Connect protocol server streaming, h2c",
    "grpc-h2c": "Grpc.AspNetCore server streaming, h2c",
    "signalr-json": "SignalR streaming, WebSockets, JSON",
    "signalr-msgpack": "SignalR streaming, WebSockets, MessagePack",
}
W5_NAMES = {
    "sse-h1": "ProtoHttp events (SSE), HTTP/1.1",
    "sse-h2c": "ProtoHttp events (SSE), h2c streams",
    "raw-sse-h1": "Raw Kestrel events (the floor), HTTP/1.1",
    "raw-sse-h2c": "Raw Kestrel events (the floor), h2c streams",
    "envelopes-h1": "ProtoHttp `connect+proto`, HTTP/1.1",
    "grpc-h2c": "Grpc.AspNetCore, h2c streams",
    "signalr-json": "SignalR broadcast, WebSockets, JSON",
    "signalr-msgpack": "SignalR broadcast, WebSockets, MessagePack",
}
CLIENT_NAMES = {
    "typed-client-h2c": "ProtoHttp typed client (ProtoHttpCallInvoker), h2c",
    "typed-client-h1": "ProtoHttp typed client (ProtoHttpCallInvoker), HTTP/1.1",
    "grpc-net-client": "Grpc.Net.Client, h2c",
}
# target -> (peer, what the ratio says)
W4_PEERS = {
    "sse-h1": "signalr-json", "ndjson-h1": "signalr-json", "signalr-msgpack": "signalr-json",
    "envelopes-h1": "grpc-h2c", "envelopes-h2c": "grpc-h2c", "connect-h1": "grpc-h2c", "connect-h2c": "grpc-h2c",
}


def read_lines(path):
    rows = []
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for line in f:
                line = line.strip()
                if line.startswith("{"):
                    rows.append(json.loads(line))
    return rows


def spread(values):
    values = [v for v in values if v is not None]
    if not values:
        return None
    return statistics.median(values), min(values), max(values), len(values)


def per_run_ratios(rows, key, target, peer, match=lambda r: True):
    """value(target) / value(peer) within each run that measured both."""
    mine = {r["run"]: r.get(key) for r in rows if r["target"] == target and match(r) and not r.get("error")}
    theirs = {r["run"]: r.get(key) for r in rows if r["target"] == peer and match(r) and not r.get("error")}
    return [mine[k] / theirs[k] for k in mine if k in theirs and mine[k] and theirs[k]]


def fmt_num(v, digits=0):
    return "–" if v is None else f"{v:,.{digits}f}"


def fmt_spread(s, digits=0, unit=""):
    if not s:
        return "–"
    median, lo, hi, _ = s
    return f"{median:,.{digits}f}{unit} ({lo:,.{digits}f}–{hi:,.{digits}f})"


def fmt_ratio_spread(ratios):
    s = spread(ratios)
    if not s:
        return "–"
    median, lo, hi, n = s
    return f"{median:.2f}x ({lo:.2f}–{hi:.2f}, {n} runs)"


class Streaming:
    def __init__(self, results):
        folder = os.path.join(results, "stream")
        self.rows = [r for r in read_lines(os.path.join(folder, "stream.jsonl")) if r.get("run", 0) >= 1 or r.get("available") is False]
        env_path = os.path.join(folder, "stream-env.json")
        self.env = json.load(open(env_path, encoding="utf-8")) if os.path.exists(env_path) else {}
        self.w4 = [r for r in self.rows if r["bench"] == "w4" and r.get("run", 0) >= 1]
        self.client = [r for r in self.rows if r["bench"] == "client"]
        self.w5 = [r for r in self.rows if r["bench"] == "w5"]

    @property
    def present(self):
        return bool(self.rows)

    def rates(self, rows, target, match=lambda r: True):
        return [r["rate"] for r in rows if r["target"] == target and match(r) and not r.get("error") and r.get("rate")]

    # --- goal rows for the goals table -------------------------------------------------------------------------
    def goal_rows(self):
        def verdict(ratios, better_high=True):
            s = spread(ratios)
            if not s:
                return "n/a"
            return "**met**" if (s[0] >= 1.0 if better_high else s[0] <= 1.0) else "**not met**"

        rows = []
        r = per_run_ratios(self.w4, "rate", "envelopes-h2c", "grpc-h2c")
        rows.append(["W4 `connect+proto` over h2c ≥ Grpc.AspNetCore server streaming (messages/s to one client)", fmt_ratio_spread(r), verdict(r)])
        r = per_run_ratios(self.w4, "rate", "sse-h1", "signalr-json")
        rows.append(["W4 events (SSE) ≥ SignalR's JSON protocol (messages/s to one client)", fmt_ratio_spread(r), verdict(r)])
        unavailable = [c for c in self.client if c.get("available") is False and c["target"] == "typed-client-h2c"]
        r = per_run_ratios(self.client, "rate", "typed-client-h2c", "grpc-net-client")
        if r:
            rows.append(["Typed client reads a stream ≥ Grpc.Net.Client's rate (both h2c, same server)", fmt_ratio_spread(r), verdict(r)])
        else:
            why = "not available: " + unavailable[0]["reason"].split(",")[0] if unavailable else "not measured"
            rows.append(["Typed client reads a stream ≥ Grpc.Net.Client's rate (both h2c, same server)", why, "n/a"])
        big = [w for w in self.w5 if w["subscribers"] >= 10000]
        if big:
            bad = {t: sum(w["errors"] for w in big if w["target"] == t) for t in sorted({w["target"] for w in big})}
            held = all(e == 0 for e in bad.values())
            text = "; ".join(f"{t}: {e} errors in {sum(1 for w in big if w['target'] == t)} runs" for t, e in bad.items())
            rows.append(["W5 10,000 subscribers held with no errors", text, "**met**" if held and bad.get("sse-h1", 1) == 0 else "**not met**"])
        for size in sorted({w["subscribers"] for w in self.w5}):
            match = lambda w, size=size: w["subscribers"] == size
            mem = per_run_ratios(self.w5, "ws_per_sub", "sse-h1", "signalr-json", match)
            heap = per_run_ratios(self.w5, "heap_per_sub", "sse-h1", "signalr-json", match)
            p99 = per_run_ratios(self.w5, "p99_ms", "sse-h1", "signalr-json", match)
            if mem:
                rows.append([f"W5 {size:,}: SSE memory per subscriber ≤ SignalR's (working set; GC heap)",
                             f"{fmt_ratio_spread(mem)}; heap {fmt_ratio_spread(heap)}", verdict(mem, better_high=False)])
            if p99:
                rows.append([f"W5 {size:,}: SSE p99 delivery delay ≤ SignalR's", fmt_ratio_spread(p99), verdict(p99, better_high=False)])
        return rows

    # --- the section -------------------------------------------------------------------------------------------
    def section(self, add, table, notes=None, bdn=None, spliced=False):
        env = self.env
        add("## 5. Streaming: push (W4), fan-out (W5), the typed client's read rate")
        add()
        runs = env.get("runs", "?")
        runs_text = f"{runs} runs" if isinstance(runs, int) else str(runs)
        add(f"Measured {env.get('date', '?')} by `bench/stream-load.sh` ({runs_text}; {env.get('cpu', '?')}, "
            f"{env.get('cores', '?')} cores, .NET SDK {env.get('dotnet', '?')}). The servers are bench/StreamPeers (one "
            "`PushService` mapped by ProtoHttp and by Grpc.AspNetCore, and a SignalR hub), pinned to core 0; the clients are "
            "bench/StreamLoad on core 1: raw `HttpClient` with .NET's `SseParser` for events, a pipe for lines and "
            "envelopes (gRPC's frames read the same way), SignalR's `HubConnection`, and the generated client. Every "
            "reader materializes each message (protobuf, or System.Text.Json into the same C# class SignalR's client "
            "fills), checks it, and checks the stream's end (the `end` event, the end-stream envelope, `grpc-status: 0`). "
            "The runs shared the machine with other engineers' builds and tests (load average near 20 on 2 cores), so "
            "only ratios within a run mean anything: each ratio is taken per run, and the table gives the median of the "
            "runs' ratios with their min–max.")
        add()
        if spliced:
            add("This section and the streaming goal rows were regenerated on their own (`make_report.py --stream-into`) "
                "from a streaming run; the sections above it come from the run dated at the top of this page.")
            add()
        if notes and os.path.exists(notes):
            add("### What the profile shows, and what would close the gaps")
            add()
            with open(notes, encoding="utf-8") as f:
                add(f.read().rstrip())
            add()
        self.w4_table(add, table)
        self.inprocess_table(add, table, bdn or {})
        self.client_table(add, table)
        self.w5_table(add, table)

    def w4_table(self, add, table):
        count = self.w4[0]["count"] if self.w4 else 0
        add(f"### W4 push: {count:,} five-string messages to one client over one stream")
        add()
        add("Timed from sending the request (on an open connection) to the last message. Ratio: to Grpc.AspNetCore for "
            "the binary formats, to SignalR JSON for the text ones and MessagePack.")
        add()
        rows = []
        for target, name in W4_NAMES.items():
            s = spread(self.rates(self.w4, target))
            if not s:
                errors = [r.get("error") for r in self.w4 if r["target"] == target and r.get("error")]
                if errors:
                    rows.append([name, "failed: " + errors[0], "", ""])
                continue
            peer = W4_PEERS.get(target)
            short = {"grpc-h2c": "Grpc.AspNetCore", "signalr-json": "SignalR JSON"}
            ratio_text = f"{fmt_ratio_spread(per_run_ratios(self.w4, 'rate', target, peer))} of {short[peer]}" if peer else ""
            rows.append([name, fmt_num(s[0]), f"{fmt_num(s[1])}–{fmt_num(s[2])}", ratio_text])
        table(["format and transport", "messages/s (median)", "min–max", "ratio to the peer, per run"], rows)

    def inprocess_table(self, add, table, bdn):
        rows = {m: v for (t, m), v in bdn.items() if t == "StreamingBenchmarks"}
        add("### W4's server side in process (BenchmarkDotNet)")
        add()
        if not rows:
            add("Not in this run (`StreamingBenchmarks` of bench/ProtoHttp.Benchmarks).")
            add()
            return
        add("`StreamingBenchmarks`: the real endpoint `MapProtoService` maps writes 1,000 notifications, one flush each, "
            "into an in-memory pipe (no sockets, no client: the server's own work per message). `Push_FramesOnly` writes "
            "the same messages as gRPC frames by hand, no handler: the floor for a binary stream. The SignalR rows are its "
            "hub protocol's `WriteMessage` of a `StreamItemMessage` and a flush per item, without its hub dispatch: a floor "
            "for SignalR. Medians; the spread is BenchmarkDotNet's min–max.")
        add()
        names = [("Push_FramesOnly", "gRPC-style frames by hand (floor)"), ("Push_Envelopes", "ProtoHttp `connect+proto` envelopes"),
                 ("Push_Connect", "Connect protocol server streaming"), ("Push_Events", "ProtoHttp events (SSE)"),
                 ("Push_Lines", "ProtoHttp lines (NDJSON)"), ("SignalR_Json_ItemsOnly", "SignalR JSON items (floor)"),
                 ("SignalR_MessagePack_ItemsOnly", "SignalR MessagePack items (floor)")]
        floor = rows.get("Push_FramesOnly")
        signalr = rows.get("SignalR_Json_ItemsOnly")
        out = []
        for method, label in names:
            b = rows.get(method)
            if not b:
                continue
            messages = 1000  # StreamingBenchmarks.Messages: one operation writes 1,000 messages
            vs_floor = f"{b['median_ns'] / floor['median_ns']:.2f}x" if floor else "–"
            vs_signalr = f"{b['median_ns'] / signalr['median_ns']:.2f}x" if signalr else "–"
            alloc = f"{b['alloc'] / messages:,.0f} B" if b.get("alloc") is not None else "–"
            out.append([label, f"{b['median_ns'] / messages:,.0f} ns ({b['min_ns'] / messages:,.0f}–{b['max_ns'] / messages:,.0f})",
                        alloc, vs_floor, vs_signalr])
        table(["writer", "time per message", "allocated per message", "time vs frames by hand", "time vs SignalR JSON items"], out)

    def client_table(self, add, table):
        count = next((r["count"] for r in self.client if r.get("count")), 0)
        add(f"### The typed client's read rate: {count:,} messages through `client.Push(request).ResponseStream.ReadAllAsync()`")
        add()
        rows = []
        for target, name in CLIENT_NAMES.items():
            unavailable = [r for r in self.client if r["target"] == target and r.get("available") is False]
            if unavailable:
                rows.append([name, "not available", "", "the invoker answers Unimplemented: " + unavailable[0].get("reason", "").split(",")[0]])
                continue
            s = spread(self.rates(self.client, target))
            if not s:
                continue
            ratio_text = "" if target == "grpc-net-client" else f"{fmt_ratio_spread(per_run_ratios(self.client, 'rate', target, 'grpc-net-client'))} of Grpc.Net.Client"
            rows.append([name, fmt_num(s[0]), f"{fmt_num(s[1])}–{fmt_num(s[2])}", ratio_text])
        table(["client", "messages/s (median)", "min–max", "ratio, per run"], rows)

    def w5_table(self, add, table):
        seconds = self.w5[0]["seconds"] if self.w5 else 0
        add(f"### W5 fan-out: one ticker, {seconds} s windows")
        add()
        add("A fresh server per measurement. Its memory is read after a full collection before any subscriber and again "
            "with all of them held: working set and GC heap over that baseline, divided by the subscribers. The "
            "subscribers connect while the ticker ticks slowly, then the window opens at the measured rate (its "
            "tick interval is in the first column). Delay: the tick's publish stamp (the server's monotonic clock) to "
            "its receipt by the client on the same machine, so it includes the client's own queueing on its one core. "
            "ProtoHttp and gRPC give each subscriber a bounded channel (1,024 ticks, oldest dropped: `missed` counts the "
            "gaps); SignalR broadcasts with `Clients.All`. Errors: subscribers that could not subscribe or whose stream "
            "broke.")
        add()
        rows = []
        for size in sorted({w["subscribers"] for w in self.w5}):
            for target, name in W5_NAMES.items():
                runs = [w for w in self.w5 if w["target"] == target and w["subscribers"] == size]
                if not runs:
                    continue
                tick = runs[0].get("tick_ms")
                rate = spread([w["rate"] for w in runs])
                p50 = spread([w["p50_ms"] for w in runs])
                p99 = spread([w["p99_ms"] for w in runs])
                ws = spread([w["ws_per_sub"] / 1024 for w in runs])
                heap = spread([w["heap_per_sub"] / 1024 for w in runs])
                rows.append([f"{size:,} (tick {tick} ms)", name, fmt_spread(rate), fmt_num(p50[0], 1) + " ms", fmt_spread(p99, 1, " ms"),
                             fmt_spread(ws, 1, " KB"), fmt_spread(heap, 1, " KB"),
                             f"{sum(w['errors'] for w in runs)} / {sum(w['missed'] for w in runs)}", str(len(runs))])
        table(["subscribers", "peer", "delivered messages/s", "p50 delay", "p99 delay", "working set per subscriber",
               "GC heap per subscriber", "errors / missed", "runs"], rows)
