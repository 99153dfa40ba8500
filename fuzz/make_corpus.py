#!/usr/bin/env python3
"""Writes the seed corpus of the fuzz targets from the shared vectors.

    python3 fuzz/make_corpus.py

corpus/differential/: each case of vectors/vectors.json in the byte format of
src/case.rs, once pushed whole, once in mixed chunks, once in chunks with idle
calls, and once with an input made of the secrets' own patterns (wrapped and
cut); each case of vectors/idle.json with its own pushes and idle calls.
corpus/compile/: each distinct secrets list of both files as JSON, after the
version byte (0x00: the right version; 0xF3, 0xF0: a wrong one), plus the
documents of the known message leaks.

Only the standard library; the output depends on the vectors alone (a fixed
random seed), and files are named by the hash of their bytes, so a re-run
after a vectors change adds what is new and `git status` shows the rest.
Files named finding-* are minimised findings (FINDINGS.md), kept as they are.
"""

import hashlib
import json
import random
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = Path(__file__).resolve().parent / "corpus"
MAX_VALUE = 80  # src/case.rs: 8 + len % 73
MAX_PLACEHOLDER = 63
MAX_INPUT = 4096
MAX_JSON = 8192


def field_bytes(obj, key):
    if key in obj:
        return obj[key].encode()
    if key + "Hex" in obj:
        return bytes.fromhex(obj[key + "Hex"])
    return None


def case_input(case):
    if "input" in case:
        return case["input"].encode()
    return bytes.fromhex(case["inputHex"])


def literal(data):
    """Input bytes as a program: 0xFE is written 0xFE 0x00."""
    return data.replace(b"\xfe", b"\xfe\x00")


def plan_bytes(steps):
    """(size, idle_after) steps as plan bytes; a size that one byte cannot
    hold is split into several steps."""
    out = []
    for size, idle in steps:
        pieces = []
        while size > 63:
            big = min(size // 16, 63)
            pieces.append(0x80 | big)
            size -= big * 16
        pieces.append(size)
        pieces[-1] |= 0x40 if idle else 0
        out.extend(pieces)
    return out[:31]


def encode(secrets, same_length, plan, program):
    """A differential case; None when it cannot be expressed."""
    if len(secrets) > 4:
        return None
    out = bytearray([(len(secrets) << 1) | (1 if same_length else 0), len(plan)])
    out += bytes(plan)
    for s in secrets:
        value = field_bytes(s, "value")[:MAX_VALUE]
        if len(value) < 8:
            return None
        out.append(len(value) - 8)
        out += value
        placeholder = field_bytes(s, "placeholder")
        if placeholder:
            placeholder = placeholder[:MAX_PLACEHOLDER]
            out.append(0xC0 | len(placeholder))
            out += placeholder
        else:
            out.append(0)
    return bytes(out + program)


def mixed_plan(rng, length, idle):
    steps = []
    left = length
    while left > 0 and len(steps) < 30:
        size = min(left, rng.choice([1, 2, 3, 5, 7, 16, 17, 40]))
        steps.append((size, idle and rng.random() < 0.4))
        left -= size
    return plan_bytes(steps)


def pattern_program(rng, n, data):
    """Literal text around pieces of the secrets' patterns."""
    out = bytearray()
    for _ in range(rng.randint(1, 4)):
        out += literal(data[: rng.randint(0, 12)])
        s = rng.randint(1, n)
        p = rng.randint(0, 255)
        w = rng.choice([0, 0, 0x07, 0x4f, 0x8b, 0xc3])
        t = rng.choice([0, 0, 0, 1, 3, 0x81, 0x85])
        out += bytes([0xFE, s, p, w, t])
    return bytes(out)


def write(target, data, seen):
    if data is None or data in seen:
        return
    seen.add(data)
    name = hashlib.sha1(data).hexdigest()[:16]
    (OUT / target / name).write_bytes(data)


def main():
    rng = random.Random(20261201)
    vectors = json.loads((ROOT / "vectors" / "vectors.json").read_text())["cases"]
    idle = json.loads((ROOT / "vectors" / "idle.json").read_text())["cases"]
    for target in ("differential", "compile"):
        (OUT / target).mkdir(parents=True, exist_ok=True)
        for old in (OUT / target).iterdir():
            # Findings are committed by hand (FINDINGS.md): kept.
            if not old.name.startswith("finding-"):
                old.unlink()
    seen = set()

    for case in vectors:
        secrets = case["secrets"]
        same_length = bool(case.get("options", {}).get("sameLength"))
        data = case_input(case)[:MAX_INPUT]
        program = literal(data)
        write("differential", encode(secrets, same_length, [], program), seen)
        write("differential", encode(secrets, same_length, mixed_plan(rng, len(data), False), program), seen)
        write("differential", encode(secrets, same_length, mixed_plan(rng, len(data), True), program), seen)
        if secrets:
            write("differential", encode(secrets, same_length, mixed_plan(rng, 60, True), pattern_program(rng, len(secrets), data)), seen)

    for case in idle:
        steps, data = [], b""
        for step in case["steps"]:
            if "push" in step:
                chunk = step["push"].encode()
                steps.append([len(chunk), False])
                data += chunk
            elif "idle" in step:
                if steps:
                    steps[-1][1] = True
                else:
                    steps.append([0, True])
        same_length = bool(case.get("options", {}).get("sameLength"))
        write("differential", encode(case["secrets"], same_length, plan_bytes(steps), literal(data)), seen)

    documents = []
    for case in vectors + idle:
        documents.append(json.dumps(case["secrets"]).encode())
    # The leaks of issue 7: a name that holds another secret's value, its
    # hex, a 16-byte fragment of it; a value stored with a newline.
    documents += [
        b'[{"name":"DB_PASS","value":"hunter2hunter2"},{"name":"hunter2hunter2","value":"unrelated-value-1"}]',
        b'[{"name":"DB_PASS","value":"hunter2hunter2"},{"name":"x68756e7465723268756e74657232","value":"unrelated-value-1"}]',
        b'[{"name":"K","value":"0123456789abcdefghij"},{"name":"a3456789abcdefghijZ","value":"unrelated-value-1"}]',
        b'[{"name":"PW","valueHex":"0a68756e74657232313233"}]',
        b'[{"name":"T","value":"token12345\\n"},{"name":"T","value":"token12345"}]',
        b'[{"name":"A","value":"supersecret1"},{"name":"supersecret1!","value":"x"}]',
    ]
    for doc in documents:
        if len(doc) > MAX_JSON:
            continue
        write("compile", b"\x00" + doc, seen)
    for doc in documents[-6:] + documents[:3]:
        write("compile", b"\xf3" + doc, seen)
        write("compile", b"\xf0" + doc, seen)

    for target in ("differential", "compile"):
        files = list((OUT / target).iterdir())
        size = sum(f.stat().st_size for f in files)
        print(f"{target}: {len(files)} files, {size} bytes")


if __name__ == "__main__":
    main()
