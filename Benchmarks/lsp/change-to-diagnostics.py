#!/usr/bin/env python3
"""Time from a didChange of a bundle file to its publishDiagnostics, through `herald lsp`.

usage: change-to-diagnostics.py HERALD_BINARY REPO_ROOT [FILE] [EDITS]
FILE defaults to policies/handz/policy.yaml. Each edit alternates the file's own text and the
text with one expression broken, so every edit changes the diagnostics. Prints the median,
p90 and max in milliseconds.
"""
import json, os, subprocess, sys, time

binary, root = sys.argv[1], os.path.abspath(sys.argv[2])
relative = sys.argv[3] if len(sys.argv) > 3 else "policies/handz/policy.yaml"
edits = int(sys.argv[4]) if len(sys.argv) > 4 else 40
path = os.path.join(root, relative)
uri = "file://" + path

server = subprocess.Popen([binary, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)

def send(message):
    body = json.dumps(message).encode()
    server.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    server.stdin.flush()

def receive():
    length = None
    while True:
        line = server.stdout.readline()
        if line in (b"\r\n", b"\n"):
            break
        name, _, value = line.decode().partition(":")
        if name.lower() == "content-length":
            length = int(value)
    return json.loads(server.stdout.read(length))

def until_diagnostics():
    while True:
        message = receive()
        if message.get("method") == "textDocument/publishDiagnostics" and message["params"]["uri"] == uri:
            return message["params"]["diagnostics"]

send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"rootUri": "file://" + root, "capabilities": {}}})
receive()
send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
text = open(path, encoding="utf-8").read()
broken = text.replace("state.session.midFlow\"", "state.session.midFlw\"", 1)
send({"jsonrpc": "2.0", "method": "textDocument/didOpen",
      "params": {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}}})
until_diagnostics()
times = []
for version in range(2, edits + 2):
    new = broken if version % 2 == 0 else text
    start = time.perf_counter()
    send({"jsonrpc": "2.0", "method": "textDocument/didChange",
          "params": {"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": new}]}})
    diagnostics = until_diagnostics()
    times.append((time.perf_counter() - start) * 1000)
    assert bool(diagnostics) == (new is broken), diagnostics
send({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
receive()
send({"jsonrpc": "2.0", "method": "exit"})
server.wait(timeout=10)
times.sort()
print(f"{relative}: {len(times)} edits, median {times[len(times)//2]:.1f} ms, "
      f"p90 {times[int(len(times)*0.9)]:.1f} ms, max {times[-1]:.1f} ms; exit {server.returncode}")
