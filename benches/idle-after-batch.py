#!/usr/bin/env python3
"""Memory a keep-alive connection keeps once it has carried large bodies: figures, not a test.

usage: benches/idle-after-batch.py SERVER [CONNECTIONS] [BODIES]

Starts `peer_load serve SERVER` (build it first: `cargo build --release --example peer_load`),
warms it with 20 `POST /batch` on one connection, then opens CONNECTIONS (default 300)
keep-alive connections, each sending `GET /hello` and BODIES (default 3) `POST /batch` of about
100 KB, and leaves them idle; prints the server's resident memory after minus before, per
connection. With BODIES 0 it is the idle connection of peer_load's memory table.
"""
import json
import socket
import subprocess
import sys
import time

SERVER = "target/release/examples/peer_load"


def main():
    kind = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 300
    bodies = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    items = [
        {
            "sku": f"SKU-{i:05}-abc",
            "qty": 1 + (i * 7919) % 10000,
            "tags": ["red", "gift"],
            "note": "deliver to the side door before noon; call ahead if the gate is closed",
        }
        for i in range(500)
    ]
    body = json.dumps({"items": items}).encode()
    hello = b"GET /hello HTTP/1.1\r\nhost: x\r\n\r\n"
    post = (
        b"POST /batch HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
        b"content-length: %d\r\n\r\n" % len(body)
    ) + body
    server = subprocess.Popen(
        [SERVER, "serve", kind], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    port = int(server.stdout.readline().split()[1])

    def rss():
        with open(f"/proc/{server.pid}/status") as status:
            return next(int(l.split()[1]) for l in status if l.startswith("VmRSS"))

    def exchange(sock, request):
        sock.sendall(request)
        data = b""
        while b"\r\n\r\n" not in data:
            data += sock.recv(65536)
        head, rest = data.split(b"\r\n\r\n", 1)
        length = next(
            int(l.split(b":")[1])
            for l in head.split(b"\r\n")
            if l.lower().startswith(b"content-length")
        )
        while len(rest) < length:
            rest += sock.recv(65536)
        assert head.startswith(b"HTTP/1.1 200"), head

    warm = socket.create_connection(("127.0.0.1", port))
    for _ in range(20):
        exchange(warm, post)
    warm.close()
    time.sleep(0.5)
    before = rss()
    connections = []
    for _ in range(n):
        sock = socket.create_connection(("127.0.0.1", port))
        exchange(sock, hello)
        for _ in range(bodies):
            exchange(sock, post)
        connections.append(sock)
    time.sleep(1.0)
    after = rss()
    print(
        f"{kind}: {n} idle connections after {bodies} POST /batch each: "
        f"{(after - before) / n:.2f} KiB per connection"
    )
    server.stdin.close()
    server.wait()


if __name__ == "__main__":
    main()
