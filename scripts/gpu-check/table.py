#!/usr/bin/env python3
"""Prints a gpu-check.json's figures as docs/models.md's time table takes them: the study's calls per slot count."""
import argparse
import json
import sys
from pathlib import Path


def rows(result: dict) -> list[str]:
    by_slots: dict[int, list[dict]] = {}
    for run in result.get("runs", []):
        by_slots.setdefault(run["slots"], []).append(run)
    lines = []
    for slots, runs in sorted(by_slots.items()):
        wall = sum(r["wall_s"] for r in runs)
        calls = sum(r["calls"] for r in runs)
        refused = sum(r["refused"] for r in runs)
        shapes = ", ".join(
            f"{r['shape']} {r['wall_s']:.1f} s (prompts {r['prompt_tokens_per_s']} tok/s, "
            f"decode {r['generated_tokens_per_s']} tok/s a slot)"
            for r in runs
        )
        lines.append(
            f"table.py: {slots} slot(s): {calls} calls of {len(runs)} shape(s) in {wall:.1f} s "
            f"({wall / 60:.1f} min; {refused} refused): {shapes}"
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("result", type=Path, help="gpu-check.json, as run.sh writes it")
    args = parser.parse_args()
    try:
        result = json.loads(args.result.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        sys.exit(f"table.py: cannot read {args.result}: {error}")
    for line in rows(result):
        print(line)


if __name__ == "__main__":
    main()
