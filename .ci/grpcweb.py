#!/usr/bin/env python3
"""gRPC-Web's framing for the shell checks (docs/protocol.md section 12), written from the wire rules, not from ProtoHttp.

  grpcweb.py frame [--text]   stdin: one message; stdout: the request body, one message frame (base64 with --text)
  grpcweb.py read [--text]    stdin: an answer; stdout: each message frame's payload and a line break, then the
                              trailers frame's lines; exits 1 when the answer is not message frames followed by
                              exactly one trailers frame
  grpcweb.py first [--text]   as read, but stdout is the first message's payload alone (for protoc --decode)
"""

import base64
import re
import sys


def frame(payload, flags=0):
    return bytes([flags]) + len(payload).to_bytes(4, "big") + payload


def decode_text(body):
    # Each frame of a text answer is its own padded base64, so the chunks end at each run of "=".
    chunks = re.findall(rb"[A-Za-z0-9+/]*=*", re.sub(rb"\s", b"", body))
    return b"".join(base64.b64decode(chunk) for chunk in chunks if chunk)


def read(body):
    messages, trailers, i = [], None, 0
    while i < len(body):
        if trailers is not None or len(body) - i < 5:
            sys.exit("grpcweb.py: bytes after the trailers frame, or a truncated frame header")
        flags, length = body[i], int.from_bytes(body[i + 1:i + 5], "big")
        payload = body[i + 5:i + 5 + length]
        if len(payload) != length:
            sys.exit(f"grpcweb.py: a frame says {length} bytes and holds {len(payload)}")
        if flags == 0x80:
            trailers = payload
        elif flags == 0x00:
            messages.append(payload)
        else:
            sys.exit(f"grpcweb.py: a frame with the flags 0x{flags:02x}")
        i += 5 + length
    if trailers is None:
        sys.exit("grpcweb.py: no trailers frame")
    return messages, trailers


def main():
    action, text = sys.argv[1], "--text" in sys.argv[2:]
    data = sys.stdin.buffer.read()
    if action == "frame":
        body = frame(data)
        sys.stdout.buffer.write(base64.b64encode(body) if text else body)
    elif action == "first":
        messages, _ = read(decode_text(data) if text else data)
        sys.stdout.buffer.write(messages[0] if messages else sys.exit("grpcweb.py: no message frame"))
    elif action == "read":
        messages, trailers = read(decode_text(data) if text else data)
        for message in messages:
            sys.stdout.buffer.write(message + b"\n")
        sys.stdout.buffer.write(trailers)
    else:
        sys.exit(f"grpcweb.py: unknown action {action}")


if __name__ == "__main__":
    main()
