"""Trains the agent model: a small qwen2 (llama.cpp's graph, exactly) on the sequences make-data.ts wrote.

The vocabulary is Qwen2.5's 151,936 rows, but only the tokens the data uses get rows of their own; every other row
is zero in the GGUF. Embeddings are tied (output = embedding^T), so an unused token's logit is exactly 0, and a
softmax over the used tokens plus one column holding log(number unused) equals the full-vocabulary softmax.

  /usr/bin/python3 scripts/train-agent/train.py --data .cache/train-agent/data --out src/test-models/trained-agent \
      [--minutes 50] [--threads 2]
"""
import argparse
import hashlib
import json
import math
import os
import time

import numpy as np
import torch
import torch.nn.functional as F

import heading_head

VOCAB_ROWS = 151936
# The residual's reserved dimensions (see Model.plant_copy_circuit).
CODE_DIMS = 36
CODE = slice(0, CODE_DIMS)
EMBEDDING = slice(0, 64)
PREVIOUS = slice(64, 64 + CODE_DIMS)
# the two-back slot holds only the half of a code that the two-token match reads
BEFORE_PREVIOUS = slice(PREVIOUS.stop, PREVIOUS.stop + CODE_DIMS // 2)
# the three-back slot (part of a code) that the heading head's shift layer writes (heading_head.py)
THIRD = slice(118, 128)
# A large RoPE base leaves CODE_DIMS / 2 rotation pairs slow enough for matching content across a prompt.
SHAPE = {"hidden": 128, "layers": 4, "heads": 2, "kv_heads": 2, "ffn": 384, "rope_theta": 1e8, "rms_eps": 1e-6}
# With the heading head: its two layers inserted after layer 0.
HEADING_SHAPE = {**SHAPE, "layers": 6}


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
        # the layer holding the copy circuit's matches: layer 1, or 3 once the heading head sits below it
        self.copy_layer = 1 if shape["layers"] == SHAPE["layers"] else heading_head.FROM_FOUR_LAYERS[1]
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

    def plant_copy_circuit(self, codes, prev_gain=0.1, match_gain=120.0, copy_gain=1.0):
        """Plants an induction circuit: the part of copying (a slug, a heading, the question) that 2 CPU cores cannot
        learn in an hour. From scratch no run of up to 40 minutes formed one; with it planted, training only has to
        learn where a copy starts and when it stops.

        The residual's dimensions: CODE holds a fixed random code of each token's text (tokens that differ only by a
        leading space share it: "Source: bm" copies the `bm` of `"post": "bm25..."`), the rest of EMBEDDING is learned,
        PREVIOUS and BEFORE_PREVIOUS receive the codes of the tokens one and two back, the rest is free.

        Layer 0's heads attend one and two tokens back: constant query and key biases, so that RoPE scores a key r
        positions back sum_i a^2 cos(theta_i (r - n)) over the fastest rotation pairs, highest at r = n. Layer 1's
        heads match in the slowest rotation pairs, which barely turn over a prompt: head 0 the current token's code
        against PREVIOUS (the token after an earlier occurrence of the current one), head 1 the current and previous
        tokens' against PREVIOUS and BEFORE_PREVIOUS (the token after an earlier occurrence of the last two), which
        settles a repeated word ("in" twice in one question). Each adds the embedding of the token it found, hence
        its logit, to the residual. These parts stay fixed (see frozen_masks) but for the matches' queries, which
        training may turn down where the model should not copy.
        """
        s = self.shape
        hd = s["hidden"] // s["heads"]
        half = hd // 2
        pairs = CODE_DIMS // 2
        slow = list(range(half - pairs, half)) + list(range(hd - pairs, hd))
        b0, b1 = self.blocks[0], self.blocks[self.copy_layer]
        with torch.no_grad():
            self.embedding[:, CODE] = codes
            self.embedding[:, EMBEDDING.stop :] = 0
            theta = s["rope_theta"] ** (-torch.arange(0, hd, 2, dtype=torch.float32) / hd)
            fast, amplitude = 8, 10.0
            for t in ("q", "q_bias", "k", "k_bias", "v", "v_bias"):
                b0[t][:] = 0
            b0["o"][:] = 0
            # nothing but these two heads writes into the slots layer 1's matches read
            for slot in (CODE, PREVIOUS, BEFORE_PREVIOUS):
                b0["down"][slot] = 0
            for head, back, slot in ((0, 1, PREVIOUS), (1, 2, BEFORE_PREVIOUS)):
                rows = slice(head * hd, (head + 1) * hd)
                b0["q_bias"][rows][:fast] = amplitude
                b0["k_bias"][rows][:fast] = amplitude * torch.cos(back * theta[:fast])
                b0["k_bias"][rows][half : half + fast] = amplitude * torch.sin(back * theta[:fast])
                for i in range(slot.stop - slot.start):
                    b0["v"][head * hd + i, CODE.start + i] = 1
                    b0["o"][slot.start + i, head * hd + i] = prev_gain
            for t in ("q", "q_bias", "k", "k_bias", "v", "v_bias"):
                b1[t][: 2 * hd] = 0
            b1["o"][:, : 2 * hd] = 0
            for i, dim in enumerate(slow):
                # head 0: the current token
                b1["q"][dim, CODE.start + i] = match_gain
                b1["k"][dim, PREVIOUS.start + i] = 1
            for i, dim in enumerate(slow):
                # head 1: the last two tokens, half a code each
                current, previous = i < pairs, i >= pairs
                b1["q"][hd + dim, (CODE.start + i) if current else (PREVIOUS.start + i - pairs)] = match_gain
                b1["k"][hd + dim, (PREVIOUS.start + i) if current else (BEFORE_PREVIOUS.start + i - pairs)] = 1
            for head in (0, 1):
                for i in range(EMBEDDING.stop):
                    b1["v"][head * hd + i, i] = 1
                    b1["o"][i, head * hd + i] = copy_gain

    def frozen_masks(self):
        """Gradient masks (1 = trained) that keep the planted circuits and their reserved dimensions as planted."""
        hd = self.shape["hidden"] // self.shape["heads"]
        masks = {}

        def mask(param, *index):
            m = masks.setdefault(param, torch.ones_like(param))
            m[index] = 0

        mask(self.embedding, slice(None), CODE)
        mask(self.embedding, slice(None), slice(EMBEDDING.stop, None))
        b0, b1 = self.blocks[0], self.blocks[self.copy_layer]
        for name in ("q", "q_bias", "k", "k_bias", "v", "v_bias", "o"):
            mask(b0[name], slice(None))
        for slot in (CODE, PREVIOUS, BEFORE_PREVIOUS):
            mask(b0["down"], slot)
        for name in ("k", "k_bias", "v", "v_bias"):
            mask(b1[name], slice(0, 2 * hd))
        mask(b1["o"], slice(None), slice(0, 2 * hd))
        if self.shape["layers"] == HEADING_SHAPE["layers"]:
            # the heading head, and what feeds it: its calibration holds only while its inputs keep their scale.
            # The copy layer's matches keep their queries too: where the heading head writes a heading's first word,
            # they would copy what follows it, and training would turn them down everywhere to stop that.
            mask(self.embedding, slice(None))
            mask(b1["q"], slice(0, 2 * hd))
            mask(b1["q_bias"], slice(0, 2 * hd))
            for block in (b0, self.blocks[heading_head.SHIFT], self.blocks[heading_head.MATCH]):
                for name in block:
                    mask(block[name], slice(None))
        return masks

    def copy_attention(self, ids):
        """The copy layer's head 1's attention (the planted two-token match), for checking the circuit."""
        captured = {}
        self.hidden(ids, captured)
        return captured["attention"]

    def hidden(self, ids, captured=None, raw=False):
        """The final hidden states (normed; `raw`: the residual stream itself)."""
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
        for layer, b in enumerate(self.blocks):
            h = rms_norm(x, b["attn_norm"], s["rms_eps"])
            q = (h @ b["q"].T + b["q_bias"]).view(B, T, H, hd).transpose(1, 2)
            k = (h @ b["k"].T + b["k_bias"]).view(B, T, KV, hd).transpose(1, 2)
            v = (h @ b["v"].T + b["v_bias"]).view(B, T, KV, hd).transpose(1, 2)
            q, k = rope(q, cos, sin), rope(k, cos, sin)
            k = k.repeat_interleave(H // KV, dim=1)
            v = v.repeat_interleave(H // KV, dim=1)
            att = (q @ k.transpose(-1, -2)) / math.sqrt(hd) + causal
            att = att.softmax(-1)
            if captured is not None and layer == self.copy_layer:
                captured["attention"] = att[:, 1].detach()
            y = (att @ v).transpose(1, 2).reshape(B, T, -1)
            x = x + y @ b["o"].T
            h = rms_norm(x, b["ffn_norm"], s["rms_eps"])
            x = x + (F.silu(h @ b["gate"].T) * (h @ b["up"].T)) @ b["down"].T
        return x if raw else rms_norm(x, self.output_norm, s["rms_eps"])


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


def token_codes(texts):
    """A fixed unit-length random code per token text, the same for texts that differ only by leading spaces."""
    rows = []
    for text in texts:
        seed = int.from_bytes(hashlib.sha256(text.lstrip(" ").encode("utf-8", "replace")).digest()[:8], "little")
        v = np.random.default_rng(seed).standard_normal(CODE_DIMS)
        rows.append(v / np.linalg.norm(v))
    return torch.tensor(np.array(rows), dtype=torch.float32)


def check_copy_circuit(model, rng, first, length=120, trials=4):
    """Share of second-half positions of a twice-repeated random sequence where the match attends (argmax) to the
    token after the current token's first occurrence: the planted circuit working, before and after training. The
    sequence starts with `first` (<|im_start|>), as every prompt does: the heading head's gate needs it."""
    hits = total = 0
    for _ in range(trials):
        half = rng.choice(model.embedding.shape[0], size=length, replace=False)
        ids = torch.from_numpy(np.concatenate([[first], half, half])[None])
        with torch.no_grad():
            att = model.copy_attention(ids)[0]
        for i in range(length + 1, 2 * length):
            hits += int(att[i].argmax()) == i - length + 1
            total += 1
    return hits / total


def load_weights(model, folder, used):
    """Loads a saved model (a continued training); returns its training record, kept as the new one's `continued`.

    The data may use other tokens than the saved model's: a token both know keeps its row, a new one its planted
    code and fresh learned part (its code is a function of its text, so the copy circuit treats it as before).
    A 4-layer model loads into a model with the heading head as its layers 0, 3, 4 and 5."""
    info = json.load(open(os.path.join(folder, "model.json")))
    layer_of = {i: i for i in range(model.shape["layers"])}
    if info["shape"] == SHAPE and model.shape == HEADING_SHAPE:
        layer_of = dict(enumerate(heading_head.FROM_FOUR_LAYERS))
    elif info["shape"] != model.shape:
        raise SystemExit(f"train.py: {folder} was trained in another shape")
    earlier_rows = {int(t): i for i, t in enumerate(info["used_tokens"])}
    pairs = [(i, earlier_rows[int(t)]) for i, t in enumerate(used) if int(t) in earlier_rows]
    rows_now = torch.tensor([p[0] for p in pairs], dtype=torch.long)
    rows_then = torch.tensor([p[1] for p in pairs], dtype=torch.long)
    blob = open(os.path.join(folder, "weights.bin"), "rb").read()
    params = dict(named_tensors(model))
    with torch.no_grad():
        for e in info["tensors"]:
            count = int(np.prod(e["shape"]))
            arr = np.frombuffer(blob, dtype=np.dtype(e["dtype"]), count=count, offset=e["offset"])
            saved = torch.from_numpy(arr.reshape(e["shape"]).astype(np.float32))
            name = e["name"]
            if name.startswith("blk."):
                layer, rest = name[len("blk.") :].split(".", 1)
                name = f"blk.{layer_of[int(layer)]}.{rest}"
            if name == "token_embd.weight":
                params[name][rows_now] = saved[rows_then]
            else:
                params[name].copy_(saved)
    print(f"continued from {folder}: {len(pairs)} of {len(used)} tokens' rows kept", flush=True)
    return info["training"]


def named_tensors(model):
    """The model's tensors by their GGUF names, in the order weights.bin stores them."""
    yield "token_embd.weight", model.embedding
    for i, b in enumerate(model.blocks):
        for key, name in GGUF_NAMES:
            yield f"blk.{i}.{name}", b[key]
    yield "output_norm.weight", model.output_norm


GGUF_NAMES = [
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
]


def evaluate(model, held_out, tokens, mask, compact):
    """Teacher-forced accuracy on held-out sequences' reply tokens: all of them, and those that continue a trigram
    the sequence showed before (copies)."""
    right = total = copy_right = copy_total = 0
    with torch.no_grad():
        for s, e in held_out:
            ids = torch.from_numpy(compact[tokens[s:e]][None])
            logits = model.hidden(ids)[0] @ model.embedding.T
            predicted = logits.argmax(-1).numpy()
            target = compact[tokens[s + 1 : e]]
            trained = mask[s + 1 : e] == 1
            copies = trained & repeated_trigrams(tokens[s:e])[1:]
            ok = predicted[:-1] == target
            right += int(ok[trained].sum())
            total += int(trained.sum())
            copy_right += int(ok[copies].sum())
            copy_total += int(copies.sum())
    return f"replies {right / max(1, total):.3f} ({total} tokens), copies {copy_right / max(1, copy_total):.3f} ({copy_total})"


def copy_starts(seq):
    """Positions t whose token the sequence showed before, though never after the token before it: where a copy of
    what the prompt shows begins (the first word of a query, a slug after "Source: "), the hardest tokens to learn.
    `seq` holds one id per token text without leading spaces, so ` bm` after "Source:" starts a copy of `bm`."""
    out = np.zeros(len(seq), dtype=bool)
    seen, pairs = set(), set()
    for t in range(1, len(seq)):
        token, pair = int(seq[t]), (int(seq[t - 1]), int(seq[t]))
        seen.add(int(seq[t - 1]))
        out[t] = token in seen and pair not in pairs
        pairs.add(pair)
    return out


def with_pattern(seqs, tokens, compact, pattern, count=6):
    """The first `count` sequences that hold the pattern: the heading head's calibration samples."""
    found = [(s, e) for s, e in seqs if heading_head.pattern_ends(compact[tokens[s:e]], pattern).any()]
    return found[:count]


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
    p.add_argument("--start-weight", type=float, default=1.0, help="loss weight of a reply token that starts a copy")
    p.add_argument("--first-weight", type=float, default=1.0, help="loss weight of a reply's first token")
    p.add_argument("--init", help="start from the weights in this folder (model.json, weights.bin) instead of planting")
    p.add_argument("--checkpoint-minutes", type=float, default=0, help="also save into OUT/checkpoint every N minutes")
    p.add_argument(
        "--heading-head",
        action="store_true",
        help="insert and plant the heading head (heading_head.py) into the 4-layer model --init names",
    )
    p.add_argument(
        "--heading-weight", type=float, default=1.0, help="loss weight of a reply's token that starts a heading"
    )
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
    held_out = [seqs[i] for i in rng.choice(len(seqs), size=min(60, len(seqs) // 10), replace=False)]
    seqs = [se for se in seqs if se not in set(held_out)]
    unused_log = math.log(VOCAB_ROWS - len(used))
    stripped = {}
    same_text = np.array([stripped.setdefault(t.lstrip(" "), len(stripped)) for t in meta["used_token_texts"]])
    if a.heading_head and not a.init:
        raise SystemExit("train.py: --heading-head goes into a trained model: name it with --init")
    init_shape = json.load(open(os.path.join(a.init, "model.json")))["shape"] if a.init else SHAPE
    if a.heading_head and init_shape == HEADING_SHAPE:
        raise SystemExit(f"train.py: {a.init} has the heading head already: continue it without --heading-head")
    # a model with the heading head continues as one
    model = Model(len(used), HEADING_SHAPE if a.heading_head or init_shape == HEADING_SHAPE else SHAPE)
    model.plant_copy_circuit(token_codes(meta["used_token_texts"]))
    earlier = load_weights(model, a.init, used) if a.init else None
    texts = meta["used_token_texts"]
    first = texts.index("<|im_start|>")
    # a heading's first token follows these three: `"heading": "`
    heading_pattern = [texts.index(t) for t in (' "', '":', "heading")]
    if a.heading_head:
        with_calls = with_pattern(seqs, tokens, compact, heading_pattern)
        calibration = [torch.from_numpy(compact[tokens[s:e]][None]) for s, e in with_calls]
        slots = (CODE, PREVIOUS, BEFORE_PREVIOUS, THIRD, EMBEDDING, CODE_DIMS)
        planted = heading_head.plant(model, calibration, heading_pattern, first, slots)
        print(f"heading head planted: {planted}", flush=True)
    for param, m in model.frozen_masks().items():
        param.register_hook(lambda grad, m=m: grad * m)
    print(f"copy circuit at start: {check_copy_circuit(model, rng, first):.3f} of matches attend right", flush=True)
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
        weight = np.ones((len(batch), T), dtype=np.float32)
        for i, (s, e) in enumerate(batch):
            ids[i, : e - s] = compact[tokens[s:e]]
            target_mask[i, : e - s - 1] = (mask[s + 1 : e] == 1) | (a.copy_loss & repeated_trigrams(tokens[s:e])[1:])
            starts = copy_starts(same_text[compact[tokens[s:e]]])
            weight[i, : e - s - 1] += (a.start_weight - 1) * ((mask[s + 1 : e] == 1) & starts[1:])
            # a reply's first token decides what the reply is (a tool call, an answer): rare, and it matters most
            weight[i, : e - s - 1] += (a.first_weight - 1) * ((mask[s + 1 : e] == 1) & (mask[s : e - 1] == 0))
            # a read_section call's heading: its first token is where a read succeeds or fails
            heading_starts = heading_head.pattern_ends(ids[i, : e - s], heading_pattern)
            weight[i, : e - s - 1] += (a.heading_weight - 1) * ((mask[s + 1 : e] == 1) & heading_starts[:-1])
        ids_t = torch.from_numpy(ids)
        where = torch.from_numpy(target_mask)
        targets = ids_t[:, 1:][where[:, :-1]]
        weights = torch.from_numpy(weight)[where]
        elapsed = time.time() - started
        lr = a.lr * min(1.0, (step + 1) / 30) * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * min(1.0, progress()))))
        for g in opt.param_groups:
            g["lr"] = lr
        h = model.hidden(ids_t)[where]
        logits = h @ model.embedding.T
        logits = torch.cat([logits, torch.full((logits.shape[0], 1), unused_log)], dim=1)
        loss = (F.cross_entropy(logits, targets, reduction="none") * weights).sum() / weights.sum()
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        step += 1
        seen += int(ids.size)
        losses.append(loss.item())
        if a.checkpoint_minutes > 0 and elapsed > next_checkpoint:
            next_checkpoint += a.checkpoint_minutes * 60
            save(model, used, a, meta, step, seen, float(np.mean(losses[-50:])), elapsed, earlier, os.path.join(a.out, "checkpoint"))
        if step % 250 == 0:
            print("held out: " + evaluate(model, held_out, tokens, mask, compact), flush=True)
        if step % 20 == 0:
            print(
                f"step {step} {elapsed / 60:.1f} min loss {np.mean(losses[-20:]):.4f} lr {lr:.5f} tokens {seen}",
                flush=True,
            )
    print("held out: " + evaluate(model, held_out, tokens, mask, compact), flush=True)
    print(f"copy circuit at the end: {check_copy_circuit(model, rng, first):.3f} of matches attend right", flush=True)
    save(model, used, a, meta, step, seen, float(np.mean(losses[-50:])), time.time() - started, earlier)


def save(model, used, a, meta, steps, seen, loss, seconds, earlier=None, out=None):
    out = out or a.out
    os.makedirs(out, exist_ok=True)
    tensors = list(named_tensors(model))
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
        "shape": model.shape,
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
            "start_weight": a.start_weight,
            "first_weight": a.first_weight,
            **({"heading_head": True, "heading_weight": a.heading_weight} if a.heading_head else {}),
            "seed": a.seed,
            "threads": a.threads,
            "torch": torch.__version__,
            **({"continued": earlier} if earlier else {}),
        },
    }
    with open(os.path.join(out, "model.json"), "w") as f:
        json.dump(info, f, indent=1)
        f.write("\n")
    print(f"wrote {out}: {offset} bytes of weights, loss {loss:.4f}, {steps} steps", flush=True)


if __name__ == "__main__":
    main()
