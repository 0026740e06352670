"""The W6 scale-out section of docs/benchmarks.md, from bench/scale-out.sh's scaleout/scaleout.jsonl and
scaleout-env.json: two instances on one Redis, ProtoHttp's topic (SSE, Last-Event-ID) against SignalR with its Redis
backplane. Ratios are taken within one run (both peers are measured back to back, in rotated order), then summarised
as the median of the runs' ratios with their min-max."""
import json
import os
import statistics

from splice import splice  # noqa: E402
from streaming import fmt_num, fmt_ratio_spread, per_run_ratios, read_lines, spread

NAMES = {
    "protohttp-sse": "ProtoHttp topic on Redis Streams (`AddRedisBackplane`), SSE, resume with `Last-Event-ID`",
    "signalr-json": "SignalR hub on its Redis backplane (`AddStackExchangeRedis`), WebSockets, JSON",
}
BEGIN = "<!-- W6 scale-out section: bench/report/scaleout.py -->"
END = "<!-- end of the W6 scale-out section -->"


def median(rows, key):
    values = [r[key] for r in rows if r.get(key) is not None]
    return statistics.median(values) if values else None


class ScaleOut:
    def __init__(self, results):
        folder = os.path.join(results, "scaleout")
        self.rows = read_lines(os.path.join(folder, "scaleout.jsonl"))
        path = os.path.join(folder, "scaleout-env.json")
        self.env = json.load(open(path, encoding="utf-8")) if os.path.exists(path) else {}

    @property
    def present(self):
        return bool(self.rows)

    def of(self, target):
        return [r for r in self.rows if r["target"] == target]

    def goal_rows(self):
        def verdict(ratios):
            s = spread(ratios)
            return "n/a" if not s else ("**met**" if s[0] <= 1.0 else "**not met**")

        rows = []
        p99 = per_run_ratios(self.rows, "p99_ms", "protohttp-sse", "signalr-json")
        rows.append(["W6 p99 delay, publish to receipt, ≤ SignalR + Redis backplane's (2 instances, 2 x 2,500)", fmt_ratio_spread(p99), verdict(p99)])
        mem = per_run_ratios(self.rows, "ws_per_sub", "protohttp-sse", "signalr-json")
        heap = per_run_ratios(self.rows, "heap_per_sub", "protohttp-sse", "signalr-json")
        rows.append(["W6 memory per subscriber ≤ SignalR + Redis backplane's (working set; GC heap)",
                     f"{fmt_ratio_spread(mem)}; heap {fmt_ratio_spread(heap)}", verdict(mem)])
        ours = self.of("protohttp-sse")
        reads = [r["redis_reads_per_msg_per_instance"] for r in ours]
        if reads:
            m = statistics.median(reads)
            rows.append(["W6 one Redis read per published message per instance", f"{m:.2f} reads (runs {min(reads):.2f}-{max(reads):.2f})",
                         "**met**" if m <= 1.05 else "**not met**"])
            late = sum(r["storm_subscribers"] - r["storm_within_5s"] for r in ours)
            lost = sum(r["storm_lost"] + r["stayed_lost"] for r in ours)
            doubled = sum(r["storm_doubled"] + r["stayed_doubled"] for r in ours)
            worst = max((r["storm_seconds"] or float("inf")) for r in ours)
            rows.append(["W6 storm: every subscriber caught up within 5 s, nothing lost or doubled",
                         f"slowest {worst:.2f} s; {late} late; {lost} lost, {doubled} doubled in {len(ours)} runs",
                         "**met**" if late == 0 and lost == 0 and doubled == 0 else "**not met**"])
        return rows

    def section(self, add, table):
        env = self.env
        add(BEGIN)
        add()
        add("## W6 scale-out: two instances on one Redis")
        add()
        add(f"Measured {env.get('date', '?')} by `bench/scale-out.sh` ({env.get('runs', '?')} runs of each peer, in rotated order), "
            f"{env.get('cores', '?')} cores, Redis {env.get('redis', '?')}, .NET SDK {env.get('dotnet', '?')}. Each run starts a fresh "
            f"`redis-server` and two fresh instances (A, B) pinned to core 0, the load tool on core 1: "
            f"{env.get('subscribers_per_instance', '?')} subscribers on each instance, one publisher posting {env.get('rate', '?')} ticks/s to A; "
            f"a {env.get('seconds', '?')} s window measures the delay from publish to receipt, each instance's memory per subscriber "
            "(after a full collection, over its baseline) and Redis's `INFO commandstats`; then B is killed (SIGKILL) and its "
            "subscribers come back on A. Caught up: has every tick published before it came back (or the next one). "
            "Lost and doubled count each subscriber's ticks, from its first to the publisher's last, against the publisher's sequence. "
            "The load average beside each run says how loud the machine was; delays depend on it.")
        add()
        rows = []
        for r in sorted(self.rows, key=lambda r: (r.get("run", 0), r["target"])):
            rows.append([r.get("run", "?"), NAMES.get(r["target"], r["target"]), f"{r['ready']:,}/{r['subscribers']:,}", f"{r['ticks'] / r['seconds']:.1f}",
                         fmt_num(r["p50_ms"], 1), fmt_num(r["p99_ms"], 1), fmt_num(r["max_ms"], 1), f"{r['missed']:,}",
                         fmt_num(r["ws_per_sub"] / 1024, 1), fmt_num(r["heap_per_sub"] / 1024, 1),
                         f"{r['redis_sent_per_msg']:.1f} ({r['redis_calls_per_msg']:.1f})", f"{r['redis_reads_per_msg_per_instance']:.2f}",
                         r.get("load", "?"), r["errors"]])
        table(["run", "peer", "ready at window start", "ticks/s published", "p50 ms", "p99 ms", "max ms", "missed in window", "KB/sub (WS)", "KB/sub (heap)",
               "Redis round trips/tick (commands incl. scripts' own)", "reads/tick/instance", "load avg", "errors"], rows)
        add("The reconnect storm (B killed, its subscribers back on A):")
        add()
        rows = []
        for r in sorted(self.rows, key=lambda r: (r.get("run", 0), r["target"])):
            rows.append([r.get("run", "?"), r["target"], f"{r['storm_caught_up']:,}/{r['storm_subscribers']:,}", f"{r['storm_within_5s']:,}",
                         fmt_num(r["storm_p50_seconds"], 2) if r["storm_p50_seconds"] is not None else "–",
                         fmt_num(r["storm_seconds"], 2) if r["storm_seconds"] is not None else "not all",
                         f"{r['storm_lost']:,} ({r['storm_lost_subscribers']:,} subscribers)", f"{r['storm_doubled']:,}",
                         f"{r['stayed_lost']:,}", f"{r['stayed_doubled']:,}", r["gaps"]])
        table(["run", "peer", "caught up", "within 5 s", "median s", "slowest s", "lost (B's)", "doubled (B's)",
               "lost (A's)", "doubled (A's)", "gap notices"], rows)
        add("Where each instance's time and memory go in the window (the profile; `/stats` of bench/ScaleOutPeers: "
            "GC counts, bytes allocated, CPU), and the Redis commands per tick by name:")
        add()
        rows = []
        for target in NAMES:
            mine = self.of(target)
            if not mine:
                continue
            last = mine[-1]
            commands = ", ".join(f"{k} {v / max(1, last['ticks']):.2f}" for k, v in sorted(last["redis_commands"].items()))
            rows.append([target, fmt_num(median(mine, "alloc_per_msg_per_instance") / 1024, 1),
                         fmt_num(median(mine, "alloc_per_delivery"), 0), fmt_num(median(mine, "gc_gen0"), 0),
                         fmt_num(median(mine, "gc_gen1"), 0), fmt_num(median(mine, "gc_gen2"), 0),
                         fmt_num(median(mine, "server_cpu_per_second"), 2), commands])
        table(["peer", "KB allocated per tick per instance", "B per delivery", "gen0", "gen1", "gen2",
               "server CPU s per s (both)", "Redis calls per tick (last run)"], rows)
        add(END)


def splice_into(path, scaleout, section):
    """Replaces the W6 section (as <section> renders it) and the W6 goal rows of an existing report: a W6 run alone."""
    splice(path, BEGIN, END, section.rstrip(), ["W6 "], scaleout.goal_rows())
