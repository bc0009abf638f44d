#!/usr/bin/env python3
"""Connection-level attacks on a loopback HTTP server: `make bench-hook` runs its flood (its hold
mode has a cheaper twin in C, scripts/tools/conn-hold.c, which the under-attack round uses).

  conn-flood.py hold  --port P --idle N --slowloris M --duration S
      keeps N connections that send nothing and M that trickle a request head (one header line
      every 5 s) open for S seconds, reopening each as soon as the server closes it, as an attacker
      does; prints how many the server closed.
  conn-flood.py flood --port P --attempts N --duration S
      opens N connections as fast as it can and holds them until S seconds (keep S below the
      server's header timeout), counting those the server closed (refused at its cap) and those
      it kept.

The last line is machine-readable: ATTACK key=value ... Loopback only; bounded in count and time.
"""
import argparse
import asyncio
import resource
import time


async def connect(port):
    return await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), timeout=5)


async def idle(port, stats, deadline):
    while time.monotonic() < deadline:
        try:
            reader, writer = await connect(port)
        except (OSError, asyncio.TimeoutError):
            stats["connect_failed"] += 1
            await asyncio.sleep(0.2)
            continue
        stats["opened"] += 1
        try:
            data = await asyncio.wait_for(reader.read(1), timeout=max(0.1, deadline - time.monotonic()))
            if not data:
                stats["closed_by_server"] += 1
        except (asyncio.TimeoutError, OSError):
            pass
        writer.close()


async def slowloris(port, stats, deadline):
    while time.monotonic() < deadline:
        try:
            reader, writer = await connect(port)
        except (OSError, asyncio.TimeoutError):
            stats["connect_failed"] += 1
            await asyncio.sleep(0.2)
            continue
        stats["opened"] += 1
        try:
            writer.write(b"GET /v1/ping HTTP/1.1\r\nHost: x\r\n")
            line = 0
            while time.monotonic() < deadline:
                try:
                    data = await asyncio.wait_for(reader.read(4096), timeout=5)
                    stats["closed_by_server"] += 1
                    if data.startswith(b"HTTP/1.1 408"):
                        stats["answered_408"] += 1
                    break
                except asyncio.TimeoutError:
                    writer.write(b"X-Slow-%d: a\r\n" % line)
                    line += 1
        except OSError:
            stats["closed_by_server"] += 1
        writer.close()


async def hold(args):
    stats = {"opened": 0, "closed_by_server": 0, "answered_408": 0, "connect_failed": 0}
    deadline = time.monotonic() + args.duration
    tasks = [idle(args.port, stats, deadline) for _ in range(args.idle)]
    tasks += [slowloris(args.port, stats, deadline) for _ in range(args.slowloris)]
    await asyncio.gather(*tasks)
    print("ATTACK mode=hold idle=%d slowloris=%d opened=%d closed_by_server=%d answered_408=%d connect_failed=%d"
          % (args.idle, args.slowloris, stats["opened"], stats["closed_by_server"], stats["answered_408"],
             stats["connect_failed"]), flush=True)


async def flood(args):
    stats = {"attempts": 0, "refused": 0, "held": 0, "connect_failed": 0}
    deadline = time.monotonic() + args.duration
    semaphore = asyncio.Semaphore(512)

    async def one():
        async with semaphore:
            stats["attempts"] += 1
            try:
                reader, writer = await connect(args.port)
            except (OSError, asyncio.TimeoutError):
                stats["connect_failed"] += 1
                return
        try:
            data = await asyncio.wait_for(reader.read(1), timeout=max(0.1, deadline - time.monotonic()))
            # Closed by the server before the end: refused at the cap (or, over the cap, its
            # reserve's short header timeout). Admitted ones last the header timeout (10 s), longer
            # than a flood run.
            stats["refused" if not data else "held"] += 1
        except asyncio.TimeoutError:
            stats["held"] += 1
        except OSError:
            stats["refused"] += 1
        writer.close()

    await asyncio.gather(*(one() for _ in range(args.attempts)))
    print("ATTACK mode=flood attempts=%d refused=%d held=%d connect_failed=%d"
          % (stats["attempts"], stats["refused"], stats["held"], stats["connect_failed"]), flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=["hold", "flood"])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--idle", type=int, default=5000)
    parser.add_argument("--slowloris", type=int, default=2000)
    parser.add_argument("--attempts", type=int, default=30000)
    parser.add_argument("--duration", type=float, default=20)
    args = parser.parse_args()
    if args.duration > 60 or args.idle + args.slowloris > 20000 or args.attempts > 50000:
        parser.error("bounded: at most 60 s, 20,000 held connections, 50,000 attempts")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    asyncio.run(hold(args) if args.mode == "hold" else flood(args))


if __name__ == "__main__":
    main()
