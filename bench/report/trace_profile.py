#!/usr/bin/env python3
"""Where a request's time goes, from a speedscope file of dotnet-trace's sampled thread time (bench/profile.sh).

    python3 bench/report/trace_profile.py TRACE.speedscope.json [--root ProcessRequests] [--top 40] [--match REGEX]

Only samples whose stack holds --root (Kestrel's request loop by default) count, so idle threads and the socket
engine's own loop do not dilute the shares. Prints each frame's inclusive share of that time, largest first, as a
Markdown table; --match keeps only the frames whose name matches (e.g. 'ProtoHttp|Routing|Hosting'). Standard
library only.
"""
import argparse
import json
import re
from collections import Counter


def inclusive_shares(path, root):
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    frames = [frame["name"] for frame in data["shared"]["frames"]]
    inclusive, total = Counter(), 0.0
    for profile in data["profiles"]:
        stack, last = [], 0.0
        for event in profile["events"]:
            at = event["at"]
            if stack:
                names = {frames[i] for i in stack}
                if any(root in name for name in names):
                    weight = at - last
                    total += weight
                    for name in names:
                        inclusive[name] += weight
            last = at
            if event["type"] == "O":
                stack.append(event["frame"])
            else:
                stack.pop()
    return inclusive, total


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("trace")
    parser.add_argument("--root", default="ProcessRequests")
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--match", default="")
    args = parser.parse_args()
    inclusive, total = inclusive_shares(args.trace, args.root)
    if total == 0:
        raise SystemExit(f"trace_profile: no sample holds {args.root}")
    pattern = re.compile(args.match) if args.match else None
    print("| share of request time | frame |")
    print("|---:|---|")
    shown = 0
    for name, weight in inclusive.most_common():
        method = name.split("!", 1)[-1]
        if pattern and not pattern.search(method):
            continue
        print(f"| {100 * weight / total:.1f}% | `{method[:140]}` |")
        shown += 1
        if shown == args.top:
            break


if __name__ == "__main__":
    main()
