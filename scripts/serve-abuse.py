#!/usr/bin/env python3
"""`dip serve` under the full-size attacks of BENCHMARKS.md ("Hosting under
abuse"), against a server this script starts on 127.0.0.1 with its default
limits:

  logins    64 parallel log-ins for 64 unknown names; the server's peak RSS
  logins-unbounded   the same with the limits lifted (every hash at once)
  conns     2,000 idle sockets, 2,000 slow heads, 1,000 slow bodies; how many
            the server holds, how long until all are closed, and whether a
            real request is answered meanwhile

Usage: scripts/serve-abuse.py [--dip target/release/dip] [logins|conns ...]
Only loopback is used; every loop is bounded.
"""

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request


def start(dip, extra):
    data = tempfile.mkdtemp(prefix="dip-abuse-")
    p = subprocess.Popen(
        [dip, "serve", "--listen", "127.0.0.1:0", "--data", data] + extra,
        stdout=subprocess.PIPE,
        text=True,
    )
    line = p.stdout.readline()
    url = next(w for w in line.split() if w.startswith("http://")).rstrip("/")
    threading.Thread(target=lambda: [None for _ in p.stdout], daemon=True).start()
    return p, url, data


def rss(pid, field):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) // 1024
    return 0


def fds(pid):
    return len(os.listdir(f"/proc/{pid}/fd"))


def post(url, path, body):
    req = urllib.request.Request(
        url + path, data=json.dumps(body).encode(), headers={"content-type": "application/json"}
    )
    try:
        with urllib.request.urlopen(req, timeout=120) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code
    except Exception as e:  # a connection refused or reset
        return type(e).__name__


def logins(dip, extra=()):
    p, url, data = start(dip, list(extra))
    try:
        before = rss(p.pid, "VmRSS")
        out = [None] * 64
        t0 = time.time()

        def one(i):
            out[i] = post(url, "/api/v1/sessions", {"name": f"nobody-{i}", "password": "password1"})

        ts = [threading.Thread(target=one, args=(i,)) for i in range(64)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        took = time.time() - t0
        counts = {s: out.count(s) for s in set(out)}
        print(
            f"64 parallel log-ins {' '.join(extra) or '(default limits)'}: RSS {before} MB before, peak {rss(p.pid, 'VmHWM')} MB, "
            f"{rss(p.pid, 'VmRSS')} MB after; answers {counts} in {took:.1f} s"
        )
    finally:
        p.kill()
        shutil.rmtree(data, ignore_errors=True)


def conns(dip):
    p, url, data = start(dip, [])
    host, port = url[len("http://"):].split(":")
    addr = (host, int(port))
    try:
        socks = []
        t0 = time.time()
        kinds = [(0, 2000), (1, 2000), (2, 1000)]
        for kind, n in kinds:
            for _ in range(n):
                s = socket.socket()
                s.settimeout(15)
                try:
                    s.connect(addr)
                    if kind == 1:
                        s.sendall(b"GET /api/v1/variants HTTP/1.1\r\nHost: x\r\n")
                    elif kind == 2:
                        s.sendall(
                            b"POST /api/v1/sessions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                            b"Content-Length: 100\r\n\r\n{\"na"
                        )
                    socks.append(s)
                except OSError:
                    s.close()
        opened = time.time() - t0
        held = fds(p.pid)
        t1 = time.time()
        try:
            with urllib.request.urlopen(url + "/api/v1/variants", timeout=60) as r:
                served = f"{r.status} in {time.time() - t1:.2f} s"
        except Exception as e:
            served = f"not served: {e}"
        # Every socket closed by the server, within the timeouts.
        deadline = time.time() + 120
        open_ = list(socks)
        while open_ and time.time() < deadline:
            still = []
            for s in open_:
                s.setblocking(False)
                try:
                    if s.recv(4096) == b"":
                        s.close()
                        continue
                    still.append(s)
                except BlockingIOError:
                    still.append(s)
                except OSError:
                    s.close()
            open_ = still
            time.sleep(0.5)
        print(
            f"{len(socks)} connections (2,000 idle, 2,000 slow heads, 1,000 slow bodies) opened in {opened:.1f} s; "
            f"server descriptors {held}; a real request {served}; "
            f"all closed by the server {time.time() - t0:.1f} s after the first, {len(open_)} still open"
        )
        for s in open_:
            s.close()
    finally:
        p.kill()
        shutil.rmtree(data, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dip", default="target/release/dip")
    ap.add_argument("what", nargs="*", default=["logins", "conns"])
    a = ap.parse_args()
    if not os.path.exists(a.dip):
        sys.exit(f"{a.dip}: build it first (cargo build --release -p dip)")
    lifted = ["--hash-threads", "256", "--hash-queue", "100000", "--logins-per-minute", "1000000"]
    for w in a.what:
        {
            "logins": lambda d: logins(d),
            # The limits lifted: every hash at once, as before the limits.
            "logins-unbounded": lambda d: logins(d, lifted),
            "conns": conns,
        }[w](a.dip)


if __name__ == "__main__":
    main()
