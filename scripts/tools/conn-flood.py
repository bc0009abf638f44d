#!/usr/bin/env python3
"""A connection flood on a loopback HTTP server, `make bench-hook`'s flood round (its under-attack
round holds idle and slowloris connections with scripts/tools/conn-hold.c).

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
    parser.add_argument("mode", choices=["flood"])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--attempts", type=int, default=30000)
    parser.add_argument("--duration", type=float, default=20)
    args = parser.parse_args()
    if args.duration > 60 or args.attempts > 50000:
        parser.error("bounded: at most 60 s and 50,000 attempts")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    asyncio.run(flood(args))


if __name__ == "__main__":
    main()
