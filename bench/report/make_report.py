#!/usr/bin/env python3
"""Writes docs/benchmarks.md and the calls/s chart from one run of bench/run-all.sh.

Inputs (all under --results): bdn/sizes.json, bdn/selfcheck.json and bdn/results/*-report-full.json from
ProtoHttp.Benchmarks; load/load.jsonl, load/load-skipped.txt and load/load-env.json from bench/load.sh;
stream/stream.jsonl and stream/stream-env.json from bench/stream-load.sh (the streaming section, streaming.py);
duplex/duplex.jsonl and duplex/duplex-env.json from bench/duplex-load.sh (W7, duplex.py).
--duplex-into FILE likewise rewrites only the W7 section and its goal rows.
--stream-into FILE rewrites only the streaming section of an existing report (and its goal rows), from a streaming run
alone: the streaming benchmarks take half an hour of their own, and the rest of the report stays as its run left it.
scaleout/scaleout.jsonl and scaleout/scaleout-env.json from bench/scale-out.sh (W6, scaleout.py); --scaleout-into FILE
rewrites only that section and its goal rows.
Every figure is a ratio against a peer measured in the same run (BENCHMARKS.md): absolute numbers drift on
a small shared machine, ratios much less. Standard library only; the chart is drawn by gnuplot when present.
"""
import argparse
import glob
import json
import os
import shutil
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from streaming import Streaming  # noqa: E402
import duplex  # noqa: E402
import scaleout  # noqa: E402
from splice import splice  # noqa: E402

FORMAT_ORDER = ["protobuf", "json", "xml", "form", "get", "post"]
PEER_NAMES = {
    "protohttp": "ProtoHttp (HTTP/1.1)",
    "protohttp-h2c": "ProtoHttp (h2c)",
    "raw": "raw Kestrel ceiling",
    "raw-routed": "raw ceiling behind routing",
    "minimal": "Minimal API + STJ",
    "transcoding": "gRPC JSON transcoding",
    "grpc": "Grpc.AspNetCore (h2c)",
    "connect": "Connect on ProtoHttp (HTTP/1.1)",
}
PEER_ORDER = list(PEER_NAMES)


def load_json(path, default):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except FileNotFoundError:
        return default


def load_bdn(folder):
    """{(type, method): {median_ns, min_ns, max_ns, alloc}} from BenchmarkDotNet's full JSON reports."""
    rows = {}
    for path in glob.glob(os.path.join(folder, "results", "ProtoHttp.Benchmarks.*-report-full.json")):
        for b in load_json(path, {}).get("Benchmarks", []):
            stats = b.get("Statistics") or {}
            memory = b.get("Memory") or {}
            if not stats:
                continue
            rows[(b["Type"], b["Method"])] = {
                "median_ns": stats["Median"],
                "min_ns": stats["Min"],
                "max_ns": stats["Max"],
                "alloc": memory.get("BytesAllocatedPerOperation"),
            }
    return rows


def load_runs(path):
    """{id: {meta..., runs: [result...]}} from load.jsonl."""
    configs = {}
    if not os.path.exists(path):
        return configs
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            row = json.loads(line)
            entry = configs.setdefault(row["id"], {k: row[k] for k in ("workload", "records", "format", "peer", "protocol")} | {"runs": []})
            result = row["result"]
            if result.get("duration_us") and result.get("requests"):
                result["rps"] = result["requests"] / (result["duration_us"] / 1e6)
                entry["runs"].append(result)
    for entry in configs.values():
        rps = [r["rps"] for r in entry["runs"]]
        p99 = [r["p99_us"] / 1000 for r in entry["runs"]]
        entry["median"] = statistics.median(rps) if rps else None
        entry["min"] = min(rps) if rps else None
        entry["max"] = max(rps) if rps else None
        entry["p99"] = statistics.median(p99) if p99 else None
        entry["n"] = len(rps)
    return configs


def fmt_time(ns):
    if ns is None:
        return "–"
    if ns >= 1e6:
        return f"{ns / 1e6:,.2f} ms"
    if ns >= 1e3:
        return f"{ns / 1e3:,.1f} µs"
    return f"{ns:,.0f} ns"


def fmt_bytes(n):
    if n is None:
        return "–"
    if n >= 1024 * 1024:
        return f"{n / 1024 / 1024:,.2f} MB"
    if n >= 1024:
        return f"{n / 1024:,.1f} KB"
    return f"{n:,} B"


def ratio(a, b):
    return a / b if a and b else None


def fmt_ratio(r):
    return "–" if r is None else f"{r:.2f}x"


def verdict(ok):
    return "n/a" if ok is None else ("**met**" if ok else "**not met**")


class Report:
    def __init__(self, results):
        self.bdn = load_bdn(os.path.join(results, "bdn"))
        self.sizes = load_json(os.path.join(results, "bdn", "sizes.json"), {})
        self.selfcheck = load_json(os.path.join(results, "bdn", "selfcheck.json"), [])
        self.load = load_runs(os.path.join(results, "load", "load.jsonl"))
        self.env = load_json(os.path.join(results, "load", "load-env.json"), {})
        skipped_path = os.path.join(results, "load", "load-skipped.txt")
        self.skipped = []
        if os.path.exists(skipped_path):
            with open(skipped_path, encoding="utf-8") as f:
                self.skipped = [line.strip().split("|", 1) for line in f if line.strip()]
        self.streaming = Streaming(results)
        self.duplex = duplex.Duplex(results)
        self.scaleout = scaleout.ScaleOut(results)
        self.lines = []

    def add(self, text=""):
        self.lines.append(text)

    def table(self, header, rows):
        self.add("| " + " | ".join(header) + " |")
        self.add("|" + "|".join("---" if i == 0 else "---:" for i in range(len(header))) + "|")
        for row in rows:
            self.add("| " + " | ".join(str(c) for c in row) + " |")
        self.add()

    def codec(self, workload_type, method):
        return self.bdn.get((workload_type, method))

    def rps(self, config_id):
        entry = self.load.get(config_id)
        return entry["median"] if entry else None

    # --- goals -------------------------------------------------------------------------------------------------
    def goals(self):
        rows = []
        w3pb, w3raw = self.rps("w3-protobuf-protohttp"), self.rps("w3-protobuf-raw")
        r = ratio(w3pb, w3raw)
        rows.append(["W3 protobuf ≥ 85% of the raw-Kestrel ceiling's calls/s", f"{fmt_ratio(r)} of raw" if r else "not measured", verdict(None if r is None else r >= 0.85)])

        w3json = self.rps("w3-json-protohttp")
        rt, rm = ratio(w3json, self.rps("w3-json-transcoding")), ratio(w3json, self.rps("w3-json-minimal"))
        rows.append(["W3 JSON ≥ 1.5x gRPC JSON transcoding", fmt_ratio(rt), verdict(None if rt is None else rt >= 1.5)])
        rows.append(["W3 JSON ≥ Minimal API + System.Text.Json", fmt_ratio(rm), verdict(None if rm is None else rm >= 1.0)])

        parts, ok = [], True
        for n in (0, 10, 100, 1000):
            grpc = self.rps(f"w2-{n}-protobuf-grpc")
            h2c = ratio(self.rps(f"w2-{n}-protobuf-protohttp-h2c"), grpc)
            h1 = ratio(self.rps(f"w2-{n}-protobuf-protohttp"), grpc)
            if h2c is None:
                ok = False
                parts.append(f"{n}: failed")
            else:
                ok = ok and h2c >= 1.0
                parts.append(f"{n}: {h2c:.2f}x (HTTP/1.1 {fmt_ratio(h1)})")
        rows.append(["W2 protobuf ≥ Grpc.AspNetCore over h2c at every record count (both over h2c, h2load)", "; ".join(parts), verdict(ok)])

        w1 = self.sizes.get("w1", {})
        r = ratio(w1.get("protobuf"), w1.get("data_contract_serializer"))
        rows.append(["W1 protobuf size ≤ 18.1% of DataContractSerializer's", f"{r * 100:.1f}%" if r else "–", verdict(None if r is None else r <= 0.181)])

        t = "NorthwindCodecBenchmarks"
        dcs_w, dcs_r = self.codec(t, "DataContractSerializer_Write"), self.codec(t, "DataContractSerializer_Read")
        xml_w, xml_r = self.codec(t, "Xml_Write"), self.codec(t, "Xml_Read")
        if xml_w and xml_r and dcs_w and dcs_r:
            rw, rr = dcs_w["median_ns"] / xml_w["median_ns"], dcs_r["median_ns"] / xml_r["median_ns"]
            rows.append(["XML codec ≥ 2x DataContractSerializer on W1, read and write", f"write {rw:.2f}x, read {rr:.2f}x", verdict(rw >= 2 and rr >= 2)])
        else:
            rows.append(["XML codec ≥ 2x DataContractSerializer on W1, read and write", "no XML codec in this build", "**not met**"])

        g_w, g_r = self.codec(t, "GoogleJsonFormatter_Write"), self.codec(t, "GoogleJsonParser_Read")
        j_w, j_r = self.codec(t, "Json_Write"), self.codec(t, "Json_Read")
        if g_w and g_r and j_w and j_r:
            rw, rr = g_w["median_ns"] / j_w["median_ns"], g_r["median_ns"] / j_r["median_ns"]
            rows.append(["JSON codec ≥ 3x Google.Protobuf JsonFormatter/JsonParser on W1", f"write {rw:.2f}x, read {rr:.2f}x", verdict(rw >= 3 and rr >= 3)])

        parts, ok = [], True
        for workload, n in (("w3", None), ("w2", 10), ("w2", 100), ("w2", 1000)):
            prefix = "w3" if workload == "w3" else f"w2-{n}"
            for fmt in ("protobuf", "json"):
                r = ratio(self.rps(f"{prefix}-{fmt}-connect"), self.rps(f"{prefix}-{fmt}-protohttp"))
                ok = ok and r is not None and r >= 0.95
                parts.append(f"{prefix} {fmt}: {fmt_ratio(r)}")
        rows.append(["Connect unary ≥ 95% of ProtoHttp's own routes' calls/s (W3, W2)", "; ".join(parts), verdict(ok)])

        parts, ok = [], True
        for row, label in W8_ROWS:
            r = ratio(self.rps(f"w8-{row}-protohttp"), self.rps(f"w8-{row}-transcoding"))
            ours, peer = self.w8_bytes(row)
            fewer = ours is not None and peer is not None and ours < peer
            ok = ok and r is not None and r >= 1.2 and fewer
            parts.append(f"{label}: {fmt_ratio(r)}, {fmt_bytes(ours)} vs {fmt_bytes(peer)} per call")
        rows.append(["W8 REST routes ≥ 1.2x gRPC JSON transcoding's calls/s on the same rules, fewer bytes allocated per call", "; ".join(parts), verdict(ok)])

        base, pb = self.codec("HandlerBenchmarks", "Search_MessagesOnly"), self.codec("HandlerBenchmarks", "Search_Protobuf")
        if base and pb and base["alloc"] is not None and pb["alloc"] is not None:
            extra = pb["alloc"] - base["alloc"]
            rows.append(["Handler overhead per small protobuf call ≤ 1 KB allocated", f"{extra:,} B beyond the messages ({pb['alloc']:,} B vs {base['alloc']:,} B)", verdict(extra <= 1024)])
        if self.streaming.present:
            rows += self.streaming.goal_rows()
        if self.duplex.present:
            rows += self.duplex.goal_rows()
        if self.scaleout.present:
            rows += self.scaleout.goal_rows()
        self.add("## Goals of BENCHMARKS.md")
        self.add()
        self.table(["goal", "measured (ratio to the peer)", "verdict"], rows)

    # --- figure 1 ----------------------------------------------------------------------------------------------
    def wire_sizes(self):
        self.add("## 1. Bytes on the wire")
        self.add()
        names = [("protobuf", "ProtoHttp protobuf"), ("json", "ProtoHttp JSON"), ("xml", "ProtoHttp XML"),
                 ("google_json_formatter", "Google.Protobuf JsonFormatter"), ("data_contract_serializer", "DataContractSerializer"),
                 ("xml_serializer", "XmlSerializer"), ("system_text_json", "System.Text.Json (web defaults)")]
        w1, w2 = self.sizes.get("w1", {}), self.sizes.get("w2_1000", {})
        rows = []
        for key, label in names:
            if key not in w1:
                rows.append([label, "not in this build", "", "", ""])
                continue
            rows.append([label, f"{w1[key]:,}", f"{w1[key] / w1['data_contract_serializer'] * 100:.1f}%",
                         f"{w2.get(key, 0):,}", f"{w2[key] / w2['data_contract_serializer'] * 100:.1f}%" if key in w2 else ""])
        era = f" (against the era's 736,574 bytes it is {w1['protobuf'] / 736574 * 100:.1f}%)" if "protobuf" in w1 else ""
        self.add("W1 = the 830 Northwind orders with 2,155 lines; W2 = 1,000 records. The WCF-era comparison had "
                 "DataContractSerializer at 736,574 bytes and protobuf at 133,010 (18.1%). Our DataContractSerializer "
                 "peer is a default `[DataContract]` over the same data (its CSV has empty strings, not NULLs, and no "
                 f"`i:nil` elements), so it is smaller than the era's{era}.")
        self.add()
        self.table(["format", "W1 bytes", "of DataContractSerializer", "W2 (1,000) bytes", "of DataContractSerializer"], rows)

    # --- figure 2 ----------------------------------------------------------------------------------------------
    def codecs(self):
        self.add("## 2. Codec speed and allocations")
        self.add()
        self.add("BenchmarkDotNet, in-process, medians. Ratio = the peer's time / ours (above 1 means ProtoHttp is faster); "
                 "ProtoHttp's protobuf and JSON are compared with DataContractSerializer and with Google.Protobuf's "
                 "JsonFormatter/JsonParser respectively, the XML codec with DataContractSerializer. Each benchmark "
                 "checks its output size or the content it read.")
        self.add()
        labels = [("Protobuf", "ProtoHttp protobuf", "DataContractSerializer"), ("Json", "ProtoHttp JSON", "GoogleJson"),
                  ("Xml", "ProtoHttp XML", "DataContractSerializer"), ("GoogleJson", "Google.Protobuf JsonFormatter / JsonParser", None),
                  ("DataContractSerializer", "DataContractSerializer", None), ("XmlSerializer", "XmlSerializer", None),
                  ("SystemTextJson", "System.Text.Json", None)]
        for t, title in (("NorthwindCodecBenchmarks", "W1 Northwind (830 orders)"), ("RecordCodecBenchmarks", "W2 Records (1,000)")):
            self.add(f"### {title}")
            self.add()
            rows = []
            for prefix, label, peer in labels:
                w = self.codec(t, "GoogleJsonFormatter_Write" if prefix == "GoogleJson" else f"{prefix}_Write")
                r = self.codec(t, "GoogleJsonParser_Read" if prefix == "GoogleJson" else f"{prefix}_Read")
                if not w and not r:
                    rows.append([label, "not in this build", "", "", "", "", ""])
                    continue
                pw = pr = None
                if peer:
                    pw = self.codec(t, "GoogleJsonFormatter_Write" if peer == "GoogleJson" else f"{peer}_Write")
                    pr = self.codec(t, "GoogleJsonParser_Read" if peer == "GoogleJson" else f"{peer}_Read")
                rows.append([label, fmt_time(w and w["median_ns"]), fmt_bytes(w and w["alloc"]),
                             fmt_ratio(ratio(pw and pw["median_ns"], w and w["median_ns"])) if peer else "",
                             fmt_time(r and r["median_ns"]), fmt_bytes(r and r["alloc"]),
                             fmt_ratio(ratio(pr and pr["median_ns"], r and r["median_ns"])) if peer else ""])
            self.table(["codec", "write", "write alloc", "write vs peer", "read", "read alloc", "read vs peer"], rows)

    # --- figure 3 ----------------------------------------------------------------------------------------------
    def handler(self):
        self.add("## 3. Handler cost")
        self.add()
        self.add("The real endpoint `MapProtoService` maps, on a `DefaultHttpContext` whose request and response bodies are "
                 "in-memory pipes; each call must answer 200 with the expected body length. `Search_MessagesOnly` is a "
                 "hand-written endpoint doing only what any server must (parse the protobuf request, call the service, "
                 "write the protobuf response) on the same context: the difference is the handler's own cost.")
        self.add()
        base = self.codec("HandlerBenchmarks", "Search_MessagesOnly")
        rows = []
        for m in ("Search_ServiceOnly", "Search_MessagesOnly", "Search_Protobuf", "Search_Json", "Search_Xml", "Search_Form", "Search_Get", "Echo100_Protobuf", "Echo100_Json"):
            b = self.codec("HandlerBenchmarks", m)
            if not b:
                rows.append([m, "not in this build", "", "", ""])
                continue
            extra = b["alloc"] - base["alloc"] if base and m.startswith("Search") and m != "Search_ServiceOnly" else None
            rows.append([m, fmt_time(b["median_ns"]), fmt_ratio(ratio(b["median_ns"], base and base["median_ns"])) if m.startswith("Search") else "",
                         fmt_bytes(b["alloc"]), f"{extra:+,} B" if extra is not None else ""])
        self.table(["call", "time", "time vs messages only", "allocated", "beyond messages only"], rows)
        client = [(m, self.codec("ClientBenchmarks", m)) for m in ("Search_Protobuf", "Echo100_Protobuf")]
        self.add("### Typed client over ProtoHttp.Client's invoker (in-memory `HttpMessageHandler`)")
        self.add()
        if any(b for _, b in client):
            self.table(["call", "time", "allocated"], [[m, fmt_time(b and b["median_ns"]), fmt_bytes(b and b["alloc"])] for m, b in client])
        else:
            self.add("Not in this build: ProtoHttp.Client had no `CallInvoker` when this run was made.")
            self.add()

    # --- figure 4 ----------------------------------------------------------------------------------------------
    def end_to_end(self):
        self.add("## 4. End to end: calls/s and p99")
        self.add()
        env = self.env
        self.add(f"Server pinned to core 0, load generator to core 1; {env.get('connections', '?')} keep-alive connections; "
                 f"{env.get('runs', '?')} runs of {env.get('seconds', '?')} s per configuration, alternating; median calls/s "
                 "with the min–max spread over the runs, and the median of the runs' p99. HTTP/1.1 load from wrk, "
                 "h2c load (gRPC, and ProtoHttp over h2c for the like-for-like W2 comparison) from h2load with one "
                 "stream per connection. Ratio = ProtoHttp / the peer in the same row group.")
        self.add()
        self.add("### W3: Search, one result")
        self.add()
        rows = []
        for entry_id, e in self.sorted_entries("w3"):
            rows.append(self.load_row(e, self.w3_ratios(e)))
        self.table(["format", "peer", "calls/s (median)", "min–max", "p99", "ratio"], rows)
        self.add("### W2: Echo of a record list")
        self.add()
        rows = []
        for n in (0, 10, 100, 1000):
            for entry_id, e in self.sorted_entries("w2", n):
                rows.append([f"{n}"] + self.load_row(e, self.w2_ratios(e, n)))
        self.table(["records", "format", "peer", "calls/s (median)", "min–max", "p99", "ratio"], rows)
        self.w8()
        if self.skipped:
            self.add("Configurations not measured in this run (probed before the runs; each must answer 200):")
            self.add()
            for item in self.skipped:
                self.add(f"- `{item[0]}`: {item[1] if len(item) > 1 else ''}")
            self.add()

    def w8_bytes(self, row):
        """Bytes allocated per call in process (RestBenchmarks): ProtoHttp's REST route and transcoding's."""
        method = W8_BENCHMARKS[row]
        ours, peer = self.codec("RestBenchmarks", f"{method}_ProtoHttp"), self.codec("RestBenchmarks", f"{method}_Transcoding")
        return (ours and ours["alloc"]), (peer and peer["alloc"])

    def w8(self):
        self.add("### W8: REST routes from `google.api.http` rules, against gRPC JSON transcoding on the same rules")
        self.add()
        self.add("The same rules (bench/ProtoHttp.Bench.Workloads/Protos/rest.proto) under `/w8/protohttp/` for ProtoHttp's "
                 "REST routes and `/w8/transcoding/` for transcoding, in one PeerServer. Bytes allocated per call are "
                 "BenchmarkDotNet's (`RestBenchmarks`, in process, the endpoint called on an in-memory request), time per "
                 "call there too.")
        self.add()
        rows = []
        for row, label in W8_ROWS:
            method = W8_BENCHMARKS[row]
            for side in ("protohttp", "transcoding"):
                e = self.load.get(f"w8-{row}-{side}")
                b = self.codec("RestBenchmarks", f"{method}_{'ProtoHttp' if side == 'protohttp' else 'Transcoding'}")
                calls = [f"{e['median']:,.0f}", f"{e['min']:,.0f}–{e['max']:,.0f}", f"{e['p99']:.1f} ms"] if e and e["median"] else ["not measured", "", ""]
                r = ratio(self.rps(f"w8-{row}-protohttp"), self.rps(f"w8-{row}-transcoding")) if side == "protohttp" else None
                rows.append([label, PEER_NAMES[side]] + calls + [fmt_time(b and b["median_ns"]), fmt_bytes(b and b["alloc"]),
                             f"{fmt_ratio(r)} of transcoding" if side == "protohttp" else ""])
        self.table(["call", "server", "calls/s (median)", "min–max", "p99", "in process", "allocated per call", "ratio"], rows)

    def sorted_entries(self, workload, records=None):
        items = [(k, e) for k, e in self.load.items() if e["workload"] == workload and (records is None or e["records"] == records)]
        return sorted(items, key=lambda kv: (FORMAT_ORDER.index(kv[1]["format"]), PEER_ORDER.index(kv[1]["peer"])))

    def load_row(self, e, ratio_text):
        if not e["median"]:
            return [e["format"], PEER_NAMES[e["peer"]], "failed", "", "", ratio_text]
        return [e["format"], PEER_NAMES[e["peer"]], f"{e['median']:,.0f}", f"{e['min']:,.0f}–{e['max']:,.0f}", f"{e['p99']:.1f} ms", ratio_text]

    def w3_ratios(self, e):
        if e["peer"] == "connect":
            own = self.rps("w3-" + e["format"] + "-protohttp")
            return f"{fmt_ratio(ratio(e['median'], own))} of ProtoHttp's route"
        if not e["peer"].startswith("protohttp"):
            return ""
        me = e["median"]
        if e["peer"] == "protohttp-h2c":
            return f"{fmt_ratio(ratio(me, self.rps('w3-protobuf-grpc')))} of gRPC"
        if e["format"] == "protobuf":
            return f"{fmt_ratio(ratio(me, self.rps('w3-protobuf-raw')))} of raw"
        if e["format"] in ("json", "form", "xml"):
            return (f"{fmt_ratio(ratio(me, self.rps('w3-json-transcoding')))} of transcoding, "
                    f"{fmt_ratio(ratio(me, self.rps('w3-json-minimal')))} of Minimal API")
        if e["format"] == "get":
            return (f"{fmt_ratio(ratio(me, self.rps('w3-get-transcoding')))} of transcoding GET, "
                    f"{fmt_ratio(ratio(me, self.rps('w3-get-minimal')))} of Minimal API GET")
        return ""

    def w2_ratios(self, e, n):
        if e["peer"] == "connect":
            own = self.rps(f"w2-{n}-" + e["format"] + "-protohttp")
            return f"{fmt_ratio(ratio(e['median'], own))} of ProtoHttp's route"
        if not e["peer"].startswith("protohttp"):
            return ""
        me = e["median"]
        if e["format"] == "protobuf":
            return (f"{fmt_ratio(ratio(me, self.rps(f'w2-{n}-protobuf-grpc')))} of gRPC, "
                    f"{fmt_ratio(ratio(me, self.rps(f'w2-{n}-protobuf-raw')))} of raw")
        return (f"{fmt_ratio(ratio(me, self.rps(f'w2-{n}-json-transcoding')))} of transcoding, "
                f"{fmt_ratio(ratio(me, self.rps(f'w2-{n}-json-minimal')))} of Minimal API")

    def selfcheck_section(self):
        skipped = [r for r in self.selfcheck if r["status"] == "skipped"]
        if skipped:
            self.add("In-process benchmarks left out of this run (their part of the library was not in the build):")
            self.add()
            for r in skipped:
                self.add(f"- `{r['type']}.{r['method']}`: {r['reason']}")
            self.add()

    def streaming_section(self, notes, spliced=False):
        self.add(STREAM_BEGIN)
        self.add()
        if self.streaming.present:
            self.streaming.section(self.add, self.table, notes, self.bdn, spliced)
        else:
            self.add("## 5. Streaming")
            self.add()
            self.add("Not measured in this run (`bench/stream-load.sh` wrote no results).")
            self.add()
        self.add(STREAM_END)

    def splice_streaming(self, path, notes):
        """Replaces the streaming section and the streaming goal rows of an existing report."""
        self.lines = []
        self.streaming_section(notes, spliced=True)
        splice(path, STREAM_BEGIN, STREAM_END, "\n".join(self.lines).rstrip(),
               ["W4 ", "W5 ", "Typed client "], self.streaming.goal_rows())

    def splice_duplex(self, path, notes):
        """Replaces the W7 section and its goal rows of an existing report."""
        self.lines = []
        self.duplex.section(self.add, self.table, notes)
        splice(path, duplex.BEGIN, duplex.END, "\n".join(self.lines).rstrip(), [duplex.GOAL_PREFIX], self.duplex.goal_rows())

    def write(self, out, chart_name, notes, stream_notes=None, duplex_notes=None):
        env = self.env
        self.add("# ProtoHttp benchmarks")
        self.add()
        self.add(f"Measured {env.get('date', '?')} on {env.get('cpu', '?')} ({env.get('cores', '?')} cores), .NET SDK "
                 f"{env.get('dotnet', '?')}, {env.get('wrk', 'wrk')}, {env.get('h2load', 'h2load')}. "
                 "Produced by `bench/run-all.sh` (BenchmarkDotNet suite + `bench/load.sh` + this report); "
                 "workloads, peers and goals are those of BENCHMARKS.md. Only ratios within this run are meaningful.")
        self.add()
        if chart_name:
            self.add(f"![calls/s per format and peer]({chart_name})")
            self.add()
        self.goals()
        if notes and os.path.exists(notes):
            self.add("### What the profile shows, and what would close the gaps")
            self.add()
            with open(notes, encoding="utf-8") as f:
                self.add(f.read().rstrip())
            self.add()
        self.wire_sizes()
        self.codecs()
        self.handler()
        self.end_to_end()
        self.streaming_section(stream_notes)
        if self.duplex.present:
            self.duplex.section(self.add, self.table, duplex_notes)
        if self.scaleout.present:
            self.scaleout.section(self.add, self.table)
            self.add()
        self.selfcheck_section()
        with open(out, "w", encoding="utf-8") as f:
            f.write("\n".join(self.lines).rstrip() + "\n")

    def chart(self, png, scratch):
        """A grouped bar chart of median calls/s: W3 per format and peer, and W2 at 100 records."""
        if not shutil.which("gnuplot"):
            print("make_report: gnuplot not found, no chart drawn", file=sys.stderr)
            return False
        rows = [(f"W3 {e['format']}", PEER_NAMES[e["peer"]], e["median"] or 0) for _, e in self.sorted_entries("w3")]
        rows += [(f"W2 100 {e['format']}", PEER_NAMES[e["peer"]], e["median"] or 0) for _, e in self.sorted_entries("w2", 100)]
        os.makedirs(scratch, exist_ok=True)
        data = os.path.join(scratch, "chart.dat")
        with open(data, "w", encoding="utf-8") as f:
            for i, (group, peer, value) in enumerate(rows):
                f.write(f'{i}\t{value:.0f}\t"{group}: {peer}"\t{PEER_ORDER.index(next(k for k, v in PEER_NAMES.items() if v == peer))}\n')
        script = f"""
set terminal pngcairo size 1000,{220 + 22 * len(rows)} font "DejaVu Sans,9"
set output "{png}"
set title "ProtoHttp vs peers: median calls/s (server on 1 core, 16 connections)"
set style fill solid 0.85 border -1
set boxwidth 0.7
unset key
set grid xtics
set xlabel "calls/s"
set yrange [{len(rows)}:-1]
set ytics nomirror
set xrange [0:{max([v for _, _, v in rows] + [1]) * 1.1:.0f}]
set palette defined (0 "#1f77b4", 1 "#6baed6", 2 "#7f7f7f", 3 "#2ca02c", 4 "#ff7f0e", 5 "#d62728")
set cbrange [0:5]
unset colorbox
plot "{data}" using (column(2)/2):1:(column(2)/2):(0.35):4:ytic(3) with boxxyerror fc palette, \\
     "" using 2:1:(sprintf("%.0f", column(2))) with labels left offset 0.5,0 font ",8"
"""
        result = subprocess.run(["gnuplot"], input=script, text=True, capture_output=True)
        if result.returncode != 0:
            print("make_report: gnuplot failed: " + result.stderr, file=sys.stderr)
            return False
        return True


# W8's rows (load.sh ids w8-ROW-protohttp / w8-ROW-transcoding) and their RestBenchmarks methods (METHOD_ProtoHttp / METHOD_Transcoding).
W8_ROWS = [("search-get", "search GET with query parameters"), ("search-post", "search POST, body \"*\""), ("orders-get", "GetOrders GET (W1)")]
W8_BENCHMARKS = {"search-get": "SearchGet", "search-post": "SearchPost", "orders-get": "OrdersGet"}

STREAM_BEGIN = "<!-- streaming section: bench/report/streaming.py -->"
STREAM_END = "<!-- end of the streaming section -->"


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--results", required=True)
    parser.add_argument("--out", help="the markdown file to write")
    parser.add_argument("--chart", help="the PNG to draw (linked from the markdown by file name)")
    parser.add_argument("--notes", help="a markdown fragment with the profile findings, placed under the goals")
    parser.add_argument("--stream-notes", help="the streaming findings, placed at the head of the streaming section")
    parser.add_argument("--stream-into", help="rewrite only the streaming section and goal rows of this existing report")
    parser.add_argument("--duplex-notes", help="the W7 findings, placed at the head of the W7 section")
    parser.add_argument("--duplex-into", help="rewrite only the W7 section and goal rows of this existing report")
    parser.add_argument("--scaleout-into", help="rewrite only the W6 scale-out section and goal rows of this existing report")
    args = parser.parse_args()
    report = Report(args.results)
    if args.duplex_into:
        report.splice_duplex(args.duplex_into, args.duplex_notes)
        print(f"report: W7 section of {args.duplex_into}")
        return
    if args.scaleout_into:
        report.scaleout.section(report.add, report.table)
        scaleout.splice_into(args.scaleout_into, report.scaleout, "\n".join(report.lines))
        print(f"report: W6 scale-out section of {args.scaleout_into}")
        return
    if args.stream_into:
        report.splice_streaming(args.stream_into, args.stream_notes)
        print(f"report: streaming section of {args.stream_into}")
        return
    drawn = bool(args.chart) and report.chart(os.path.abspath(args.chart), os.path.join(args.results, "report"))
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    report.write(args.out, os.path.basename(args.chart) if drawn else None, args.notes, args.stream_notes, args.duplex_notes)
    print(f"report: {args.out}" + (f", chart: {args.chart}" if drawn else ""))


if __name__ == "__main__":
    main()
