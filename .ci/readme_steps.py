#!/usr/bin/env python3
"""Runs the README's steps as printed: every fenced block after a <!-- consumer-test: ACTION [ARGUMENT] --> comment,
in order, in the current folder. So the README cannot say one thing while the test does another.

Actions:
  run                the block is shell commands; they must succeed
  output             the block is what the run before it printed, exactly
  file PATH          the block is the whole of PATH
  into PROJECT       the block goes into the project file, before </Project>
  start URL          the block starts a server that keeps running; the steps go on once URL answers
"""

import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request

MARKER = re.compile(r"^\s*<!-- consumer-test: (\w+)(?: (\S+))? -->\s*$")
FENCE = re.compile(r"^(\s*)```")

# How long a server may take to answer its first request: `dotnet run` restores and builds first.
START_LIMIT_SECONDS = 300


def steps(readme):
    """(line number, action, argument, block text) for each marked block, the block's indentation removed."""
    lines = readme.splitlines()
    i = 0
    while i < len(lines):
        marker = MARKER.match(lines[i])
        i += 1
        if not marker:
            continue
        while i < len(lines) and not lines[i].strip():
            i += 1
        fence = FENCE.match(lines[i]) if i < len(lines) else None
        if not fence:
            sys.exit(f"README line {i}: a consumer-test comment must be followed by a fenced block")
        indent = len(fence.group(1))
        start = i + 1
        i = start
        while not FENCE.match(lines[i]):
            i += 1
        block = "".join(line[indent:] + "\n" for line in lines[start:i])
        yield start, marker.group(1), marker.group(2), block
        i += 1


def wait_until_answering(url, server):
    deadline = time.monotonic() + START_LIMIT_SECONDS
    while time.monotonic() < deadline:
        if server.poll() is not None:
            sys.exit(f"the server exited with {server.returncode} before {url} answered")
        try:
            urllib.request.urlopen(url, timeout=5).close()
            return
        except urllib.error.HTTPError:
            return  # Any HTTP answer means it is up.
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(1)
    sys.exit(f"{url} did not answer within {START_LIMIT_SECONDS} s")


def main():
    readme_path = sys.argv[1]
    with open(readme_path, encoding="utf-8") as f:
        readme = f.read()

    servers = []
    last_output = None
    done = 0
    try:
        for line, action, argument, block in steps(readme):
            print(f"--- README line {line}: {action} {argument or ''}", flush=True)
            if action == "run":
                result = subprocess.run(["bash", "-euo", "pipefail", "-c", block], stdout=subprocess.PIPE, text=True)
                sys.stdout.write(result.stdout)
                if result.returncode != 0:
                    sys.exit(f"README line {line}: the commands failed with exit code {result.returncode}:\n{block}")
                last_output = result.stdout
            elif action == "output":
                if last_output is None or last_output.rstrip("\n") != block.rstrip("\n"):
                    sys.exit(f"README line {line}: the command printed\n{last_output}\ninstead of\n{block}")
            elif action == "file":
                os.makedirs(os.path.dirname(argument) or ".", exist_ok=True)
                with open(argument, "w", encoding="utf-8") as f:
                    f.write(block)
            elif action == "into":
                with open(argument, encoding="utf-8") as f:
                    project = f.read()
                if "</Project>" not in project:
                    sys.exit(f"README line {line}: {argument} has no </Project>")
                with open(argument, "w", encoding="utf-8") as f:
                    f.write(project.replace("</Project>", block + "</Project>"))
            elif action == "start":
                # A session of its own, so the server's children (dotnet run starts the app) stop with it.
                servers.append(subprocess.Popen(["bash", "-c", block], start_new_session=True))
                wait_until_answering(argument, servers[-1])
            else:
                sys.exit(f"README line {line}: unknown consumer-test action '{action}'")
            done += 1
    finally:
        for server in servers:
            if server.poll() is None:
                os.killpg(server.pid, signal.SIGTERM)
                server.wait()

    if done == 0:
        sys.exit("the README has no consumer-test steps")
    print(f"README steps: {done} passed, 0 failed")


if __name__ == "__main__":
    main()
