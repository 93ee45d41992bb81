# Replays exported prompts against llama-server at each slot count and records wall time and token rates as JSON.
"""Replays a file of prompts (blogqa export-prompts) against a running llama-server.

Each prompt goes to /v1/completions as raw text with the study's greedy settings (temperature 0, top_k 1, seed 0,
no repetition penalty, the recorded max_tokens), `slots` requests in flight at once, for each slot count asked. One
entry per (shape, slot count) is added to the result file's "runs": wall time, prompt tokens read and evaluated,
tokens generated, and their rates. Standard library only.

usage: replay.py --url http://127.0.0.1:PORT --prompts FILE --shape NAME --result FILE [--slots 1 8] [--limit N]
"""

import argparse
import json
import sys
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

# What the harness sends llama-server in completions mode (server-model.ts completionParameters), penalty off.
GREEDY = {
    "temperature": 0,
    "top_k": 1,
    "seed": 0,
    "stream": False,
    "repeat_penalty": 1,
    "frequency_penalty": 0,
    "presence_penalty": 0,
}


def request(url: str, path: str, body: dict | None, timeout: float) -> tuple[int, dict]:
    """(HTTP status, JSON answer) of a GET (no body) or POST; an HTTP error's JSON body is returned, not raised."""
    data = None if body is None else json.dumps(body).encode("utf-8")
    headers = {} if body is None else {"Content-Type": "application/json"}
    req = urllib.request.Request(url + path, data=data, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        text = error.read().decode("utf-8", "replace")
        try:
            return error.code, json.loads(text)
        except json.JSONDecodeError:
            return error.code, {"error": {"message": text}}


def wait_until_ready(url: str, seconds: float) -> None:
    """llama-server answers /health with 503 while it loads the model, 200 once it serves."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            if request(url, "/health", None, 5)[0] == 200:
                return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        if time.monotonic() > deadline:
            sys.exit(f"replay.py: no llama-server ready at {url} within {seconds:.0f} s")
        time.sleep(0.5)


def complete(url: str, prompt: dict, cache_prompt: bool, timeout: float) -> dict:
    """One call: its reply and the server's own counts, or the refusal. llama-server refuses some completions with
    HTTP 500 after generating them (its final parse fails on bytes that are not UTF-8, which random weights write):
    they are counted apart, as their tokens are not reported."""
    body = {"prompt": prompt["prompt"], "max_tokens": prompt["max_tokens"], **GREEDY, "cache_prompt": cache_prompt}
    started = time.monotonic()
    status, answer = request(url, "/v1/completions", body, timeout)
    seconds = time.monotonic() - started
    if status != 200:
        message = answer.get("error", {}).get("message", json.dumps(answer))
        if status == 500:
            return {"refused": message, "seconds": seconds}
        sys.exit(f"replay.py: HTTP {status} from /v1/completions: {message}")
    choice, usage, timings = answer["choices"][0], answer["usage"], answer["timings"]
    return {
        "text": choice["text"],
        "finish_reason": choice["finish_reason"],
        "prompt_tokens": usage["prompt_tokens"],
        "completion_tokens": usage["completion_tokens"],
        "prompt_evaluated": timings["prompt_n"],
        "prompt_ms": timings["prompt_ms"],
        "predicted_n": timings["predicted_n"],
        "predicted_ms": timings["predicted_ms"],
        "seconds": seconds,
    }


def replay(url: str, prompts: list[dict], slots: int, cache_prompt: bool, timeout: float) -> tuple[float, list[dict]]:
    """Wall time of all the calls with `slots` in flight, and each call's result, in the file's order."""
    started = time.monotonic()
    with ThreadPoolExecutor(max_workers=slots) as pool:
        results = list(pool.map(lambda p: complete(url, p, cache_prompt, timeout), prompts))
    return time.monotonic() - started, results


def summary(shape: str, slots: int, wall: float, results: list[dict], with_replies: bool) -> dict:
    answered = [r for r in results if "refused" not in r]
    prompt_ms = sum(r["prompt_ms"] for r in answered)
    predicted_ms = sum(r["predicted_ms"] for r in answered)
    evaluated = sum(r["prompt_evaluated"] for r in answered)
    generated = sum(r["predicted_n"] for r in answered)
    entry = {
        "shape": shape,
        "slots": slots,
        "calls": len(results),
        "answered": len(answered),
        "refused": len(results) - len(answered),
        "wall_s": round(wall, 3),
        "prompt_tokens": sum(r["prompt_tokens"] for r in answered),
        "prompt_tokens_evaluated": evaluated,
        "generated_tokens": generated,
        # Rates while the server worked on each call (per slot), and the generation rate of all slots together.
        "prompt_tokens_per_s": round(evaluated / (prompt_ms / 1000), 1) if prompt_ms > 0 else None,
        "generated_tokens_per_s": round(generated / (predicted_ms / 1000), 1) if predicted_ms > 0 else None,
        "generated_tokens_per_s_all_slots": round(generated / wall, 1) if wall > 0 else None,
    }
    if with_replies:
        entry["replies"] = [
            {"refused": r["refused"]}
            if "refused" in r
            else {k: r[k] for k in ("text", "finish_reason", "prompt_tokens", "completion_tokens")}
            for r in results
        ]
    return entry


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True, help="llama-server's root, e.g. http://127.0.0.1:8080")
    parser.add_argument("--prompts", type=Path, required=True, help="JSONL from blogqa export-prompts")
    parser.add_argument("--shape", required=True, help="the model's shape, recorded with each entry")
    parser.add_argument("--result", type=Path, required=True, help="the JSON file the entries are added to")
    parser.add_argument("--slots", type=int, nargs="+", default=[1, 8], help="requests in flight, one pass each")
    parser.add_argument("--limit", type=int, help="replay only the first N prompts")
    parser.add_argument("--cache-prompt", action="store_true", help="let a slot reuse its KV cache's common prefix")
    parser.add_argument("--replies", action="store_true", help="record each reply's text and token counts too")
    parser.add_argument("--ready-timeout", type=float, default=300, help="seconds to wait for the server to load")
    parser.add_argument("--timeout", type=float, default=600, help="seconds one call may take")
    args = parser.parse_args()
    url = args.url.rstrip("/")

    lines = args.prompts.read_text(encoding="utf-8").splitlines()
    prompts = [json.loads(line) for line in lines if line.strip()][: args.limit]
    if not prompts:
        sys.exit(f"replay.py: no prompts in {args.prompts}")
    wait_until_ready(url, args.ready_timeout)
    props = request(url, "/props", None, 30)[1]
    slots_served = props.get("total_slots", 1)
    if max(args.slots) > slots_served:
        sys.exit(f"replay.py: the server has {slots_served} slots, not the {max(args.slots)} asked: start it with -np")
    # The first call of a fresh server also pays for its warm-up (CUDA kernels loading, buffers growing): made once
    # before timing, so every pass measures the same steady state.
    complete(url, {**prompts[0], "max_tokens": 1}, False, args.timeout)

    result = json.loads(args.result.read_text(encoding="utf-8")) if args.result.exists() else {"runs": []}
    result["prompts"] = str(args.prompts)
    result.setdefault("servers", {})[args.shape] = {k: props.get(k) for k in ("build_info", "total_slots", "model_path")}
    for slots in args.slots:
        wall, results = replay(url, prompts, slots, args.cache_prompt, args.timeout)
        entry = summary(args.shape, slots, wall, results, args.replies)
        result["runs"].append(entry)
        print(
            f"replay.py: {args.shape}, {slots} slot(s): {entry['calls']} calls in {entry['wall_s']} s "
            f"({entry['refused']} refused); prompts {entry['prompt_tokens_evaluated']} tokens at "
            f"{entry['prompt_tokens_per_s']} tok/s, generated {entry['generated_tokens']} at "
            f"{entry['generated_tokens_per_s']} tok/s a slot, {entry['generated_tokens_per_s_all_slots']} in all",
            flush=True,
        )
        # Written after each pass, so a pass cut short by the time limit leaves the earlier ones.
        args.result.parent.mkdir(parents=True, exist_ok=True)
        args.result.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
