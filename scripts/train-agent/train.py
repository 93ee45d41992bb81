"""Trains the agent model: a small qwen2 (llama.cpp's graph, exactly) on the sequences make-data.ts wrote.

The vocabulary is Qwen2.5's 151,936 rows, but only the tokens the data uses get rows of their own; every other row
is zero in the GGUF. Embeddings are tied (output = embedding^T), so an unused token's logit is exactly 0, and a
softmax over the used tokens plus one column holding log(number unused) equals the full-vocabulary softmax.

  /usr/bin/python3 scripts/train-agent/train.py --data .cache/train-agent/data --out src/test-models/trained-agent \
      [--minutes 50] [--threads 2]
"""
import argparse
import json
import math
import os
import time

import numpy as np
import torch
import torch.nn.functional as F

VOCAB_ROWS = 151936
SHAPE = {"hidden": 128, "layers": 4, "heads": 2, "kv_heads": 2, "ffn": 384, "rope_theta": 1000000.0, "rms_eps": 1e-6}


def rms_norm(x, weight, eps):
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * weight


def rope(x, cos, sin):
    # llama.cpp's NEOX rotation (qwen2): dimension i pairs with i + head_dim / 2
    half = x.shape[-1] // 2
    x1, x2 = x[..., :half], x[..., half:]
    return torch.cat([x1 * cos - x2 * sin, x2 * cos + x1 * sin], dim=-1)


class Model(torch.nn.Module):
    def __init__(self, used, shape):
        super().__init__()
        d, f = shape["hidden"], shape["ffn"]
        hd = d // shape["heads"]
        kv = hd * shape["kv_heads"]
        self.shape = shape
        self.embedding = torch.nn.Parameter(torch.randn(used, d) * 0.02)
        self.blocks = torch.nn.ModuleList()
        for _ in range(shape["layers"]):
            b = torch.nn.ParameterDict(
                {
                    "attn_norm": torch.nn.Parameter(torch.ones(d)),
                    "q": torch.nn.Parameter(torch.randn(d, d) / math.sqrt(d)),
                    "q_bias": torch.nn.Parameter(torch.zeros(d)),
                    "k": torch.nn.Parameter(torch.randn(kv, d) / math.sqrt(d)),
                    "k_bias": torch.nn.Parameter(torch.zeros(kv)),
                    "v": torch.nn.Parameter(torch.randn(kv, d) / math.sqrt(d)),
                    "v_bias": torch.nn.Parameter(torch.zeros(kv)),
                    "o": torch.nn.Parameter(torch.randn(d, d) / math.sqrt(d) / math.sqrt(2 * shape["layers"])),
                    "ffn_norm": torch.nn.Parameter(torch.ones(d)),
                    "gate": torch.nn.Parameter(torch.randn(f, d) / math.sqrt(d)),
                    "up": torch.nn.Parameter(torch.randn(f, d) / math.sqrt(d)),
                    "down": torch.nn.Parameter(torch.randn(d, f) / math.sqrt(f) / math.sqrt(2 * shape["layers"])),
                }
            )
            self.blocks.append(b)
        self.output_norm = torch.nn.Parameter(torch.ones(d))
        self.plant_previous_token_heads()

    def plant_previous_token_heads(self, pairs=8, amplitude=9.0):
        """Starts the first key/value head of layer 0 attending to the previous token.

        Copying what the prompt shows (a slug, a heading, the question) needs an induction circuit: a head that
        writes each position's previous token, and a later head that finds where the current token came before.
        From scratch neither formed within 40 minutes on 2 cores; this plants the first, so that only the second
        must be learned (whether that is enough is not yet measured). With the projections zero and constant
        biases, RoPE makes the score of a key r
        positions back sum_i a^2 cos(theta_i (r - 1)) over the fastest `pairs` rotation pairs: highest at r = 1,
        by about 9 nats over r = 0 or 2 at a = 9 and head size 64. Training may change all of it.
        """
        s = self.shape
        hd = s["hidden"] // s["heads"]
        half = hd // 2
        b = self.blocks[0]
        with torch.no_grad():
            theta = s["rope_theta"] ** (-torch.arange(0, hd, 2, dtype=torch.float32) / hd)
            k_bias = torch.zeros(hd)
            q_bias = torch.zeros(hd)
            q_bias[:pairs] = amplitude
            k_bias[:pairs] = amplitude * torch.cos(theta[:pairs])
            k_bias[half : half + pairs] = amplitude * torch.sin(theta[:pairs])
            per_kv = s["heads"] // s["kv_heads"]
            for h in range(per_kv):
                b["q"][h * hd : (h + 1) * hd] = 0
                b["q_bias"][h * hd : (h + 1) * hd] = q_bias
            b["k"][:hd] = 0
            b["k_bias"][:hd] = k_bias

    def hidden(self, ids):
        s = self.shape
        B, T = ids.shape
        H, KV = s["heads"], s["kv_heads"]
        hd = s["hidden"] // H
        pos = torch.arange(T, dtype=torch.float32)
        inv = s["rope_theta"] ** (-torch.arange(0, hd, 2, dtype=torch.float32) / hd)
        angles = pos[:, None] * inv[None, :]
        cos, sin = angles.cos()[None, None], angles.sin()[None, None]
        causal = torch.full((T, T), float("-inf")).triu(1)
        x = self.embedding[ids]
        for b in self.blocks:
            h = rms_norm(x, b["attn_norm"], s["rms_eps"])
            q = (h @ b["q"].T + b["q_bias"]).view(B, T, H, hd).transpose(1, 2)
            k = (h @ b["k"].T + b["k_bias"]).view(B, T, KV, hd).transpose(1, 2)
            v = (h @ b["v"].T + b["v_bias"]).view(B, T, KV, hd).transpose(1, 2)
            q, k = rope(q, cos, sin), rope(k, cos, sin)
            k = k.repeat_interleave(H // KV, dim=1)
            v = v.repeat_interleave(H // KV, dim=1)
            att = (q @ k.transpose(-1, -2)) / math.sqrt(hd) + causal
            y = (att.softmax(-1) @ v).transpose(1, 2).reshape(B, T, -1)
            x = x + y @ b["o"].T
            h = rms_norm(x, b["ffn_norm"], s["rms_eps"])
            x = x + (F.silu(h @ b["gate"].T) * (h @ b["up"].T)) @ b["down"].T
        return rms_norm(x, self.output_norm, s["rms_eps"])


def repeated_trigrams(seq):
    """Positions t whose token ends a trigram seen earlier in the same sequence: the prompt's own copies (a read
    section repeating a hit's snippet, a call repeated in a later turn), which teach copying sooner."""
    out = np.zeros(len(seq), dtype=bool)
    seen = set()
    for t in range(2, len(seq)):
        key = (int(seq[t - 2]), int(seq[t - 1]), int(seq[t]))
        if key in seen:
            out[t] = True
        seen.add(key)
    return out


def load(data_dir):
    meta = json.load(open(os.path.join(data_dir, "data.json")))
    tokens = np.fromfile(os.path.join(data_dir, "tokens.u32"), dtype=np.uint32)
    mask = np.fromfile(os.path.join(data_dir, "mask.u8"), dtype=np.uint8)
    return meta, tokens, mask


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--data", default=".cache/train-agent/data")
    p.add_argument("--out", default="src/test-models/trained-agent")
    p.add_argument("--minutes", type=float, default=70, help="train this long (wall clock)")
    p.add_argument("--steps", type=int, default=0, help="train this many steps instead of --minutes (reproducible)")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--batch-tokens", type=int, default=3000)
    p.add_argument("--lr", type=float, default=5e-3)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--no-copy-loss", dest="copy_loss", action="store_false", help="loss on the replies only")
    p.add_argument("--checkpoint-minutes", type=float, default=0, help="also save into OUT/checkpoint every N minutes")
    a = p.parse_args()
    torch.set_num_threads(a.threads)
    torch.manual_seed(a.seed)
    rng = np.random.default_rng(a.seed)

    meta, tokens, mask = load(a.data)
    used = np.array(meta["used_tokens"], dtype=np.int64)
    compact = np.full(VOCAB_ROWS, -1, dtype=np.int64)
    compact[used] = np.arange(len(used))
    offsets = meta["offsets"]
    seqs = [(offsets[i], offsets[i + 1]) for i in range(len(offsets) - 1)]
    unused_log = math.log(VOCAB_ROWS - len(used))
    model = Model(len(used), SHAPE)
    params = sum(p.numel() for p in model.parameters())
    print(f"{len(seqs)} sequences, {len(tokens)} tokens, {len(used)} used tokens, {params} parameters", flush=True)

    opt = torch.optim.AdamW(model.parameters(), lr=a.lr, betas=(0.9, 0.95), weight_decay=0.0)
    budget = a.minutes * 60
    started = time.time()
    step, seen, losses = 0, 0, []
    pending = []
    next_checkpoint = a.checkpoint_minutes * 60
    def progress():
        return step / a.steps if a.steps > 0 else (time.time() - started) / budget

    while progress() < 1:
        # a batch: sequences of similar length (drawn from a sorted pool), up to batch_tokens padded tokens
        if not pending:
            pool = [seqs[i] for i in rng.choice(len(seqs), size=min(64, len(seqs)), replace=False)]
            pool.sort(key=lambda se: se[1] - se[0])
            pending = []
            for se in pool:
                if pending and (se[1] - se[0]) * (len(pending[-1]) + 1) <= a.batch_tokens:
                    pending[-1].append(se)
                else:
                    pending.append([se])
            rng.shuffle(pending)
        batch = pending.pop()
        T = max(e - s for s, e in batch)
        ids = np.zeros((len(batch), T), dtype=np.int64)
        target_mask = np.zeros((len(batch), T), dtype=bool)
        for i, (s, e) in enumerate(batch):
            ids[i, : e - s] = compact[tokens[s:e]]
            target_mask[i, : e - s - 1] = (mask[s + 1 : e] == 1) | (a.copy_loss & repeated_trigrams(tokens[s:e])[1:])
        ids_t = torch.from_numpy(ids)
        where = torch.from_numpy(target_mask)
        targets = ids_t[:, 1:][where[:, :-1]]
        elapsed = time.time() - started
        lr = a.lr * min(1.0, (step + 1) / 30) * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * min(1.0, progress()))))
        for g in opt.param_groups:
            g["lr"] = lr
        h = model.hidden(ids_t)[where]
        logits = h @ model.embedding.T
        logits = torch.cat([logits, torch.full((logits.shape[0], 1), unused_log)], dim=1)
        loss = F.cross_entropy(logits, targets)
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        step += 1
        seen += int(ids.size)
        losses.append(loss.item())
        if a.checkpoint_minutes > 0 and elapsed > next_checkpoint:
            next_checkpoint += a.checkpoint_minutes * 60
            save(model, used, a, meta, step, seen, float(np.mean(losses[-50:])), elapsed, os.path.join(a.out, "checkpoint"))
        if step % 20 == 0:
            print(
                f"step {step} {elapsed / 60:.1f} min loss {np.mean(losses[-20:]):.4f} lr {lr:.5f} tokens {seen}",
                flush=True,
            )
    save(model, used, a, meta, step, seen, float(np.mean(losses[-50:])), time.time() - started)


def save(model, used, a, meta, steps, seen, loss, seconds, out=None):
    out = out or a.out
    os.makedirs(out, exist_ok=True)
    tensors = [("token_embd.weight", model.embedding)]
    for i, b in enumerate(model.blocks):
        for key, name in [
            ("attn_norm", "attn_norm.weight"),
            ("q", "attn_q.weight"),
            ("q_bias", "attn_q.bias"),
            ("k", "attn_k.weight"),
            ("k_bias", "attn_k.bias"),
            ("v", "attn_v.weight"),
            ("v_bias", "attn_v.bias"),
            ("o", "attn_output.weight"),
            ("ffn_norm", "ffn_norm.weight"),
            ("gate", "ffn_gate.weight"),
            ("up", "ffn_up.weight"),
            ("down", "ffn_down.weight"),
        ]:
            tensors.append((f"blk.{i}.{name}", b[key]))
    tensors.append(("output_norm.weight", model.output_norm))
    entries, blobs, offset = [], [], 0
    for name, t in tensors:
        # 1-D tensors (norms, biases) stay float32; matrices are stored as float16, as the GGUF holds them
        arr = t.detach().numpy().astype(np.float32 if t.dim() == 1 else np.float16)
        blob = arr.tobytes()
        entries.append({"name": name, "shape": list(arr.shape), "dtype": str(arr.dtype), "offset": offset})
        blobs.append(blob)
        offset += len(blob)
    with open(os.path.join(out, "weights.bin"), "wb") as f:
        for blob in blobs:
            f.write(blob)
    info = {
        "format": 1,
        "architecture": "qwen2",
        "shape": SHAPE,
        "vocab_rows": VOCAB_ROWS,
        "used_tokens": [int(x) for x in used],
        "tensors": entries,
        "training": {
            "steps": steps,
            "tokens_seen": seen,
            "final_loss": round(loss, 4),
            "seconds": round(seconds),
            "sequences": meta["sequences"],
            "data_tokens": meta["tokens"],
            "lr": a.lr,
            "batch_tokens": a.batch_tokens,
            "seed": a.seed,
            "threads": a.threads,
            "torch": torch.__version__,
        },
    }
    with open(os.path.join(out, "model.json"), "w") as f:
        json.dump(info, f, indent=1)
        f.write("\n")
    print(f"wrote {out}: {offset} bytes of weights, loss {loss:.4f}, {steps} steps", flush=True)


if __name__ == "__main__":
    main()
