"""The heading head: two planted layers that let the model start a read_section call's heading with the right word.

At a call's `"heading": "` the copy circuit (train.py's Model.plant_copy_circuit) cannot tell which hit's heading to
start: every hit's heading follows the same two tokens, and the hit meant is named five tokens further back. These
two layers, inserted after layer 0 of a trained 4-layer model (which becomes layers 0, 3, 4 and 5), find it instead:

- the shift layer (1): head 0 attends one token back and adds that token's two-back slot into THIRD, so each
  position also holds (a part of) the code of the token three back (THIRD was not reserved in the 4-layer model:
  layer 0's FFN writes there too, and the trained model needs those writes, so the match reads THIRD through them);
- the match layer (2): head 0 matches the current, previous and two-back tokens against each earlier position's
  previous, two-back and three-back codes (a three-token induction match), with a preference for matches about
  PREFER_BACK tokens back (where, at a read call, the latest search's first hit lies: the hit the policy reads), and
  adds the code and embedding of the token it finds, ten times over. So that it writes nothing elsewhere, head 0
  attends to the prompt's first token unless the current three tokens are `heading`, `":`, ` "`, and head 1, which
  always attends there, takes away what that adds.

Both layers are fixed (train.py's frozen_masks) and calibrated on sample sequences of the data, as are the
embedding and layer 0 that feed them (their inputs' scale must stay as calibrated); the layers above learn to use
what the match adds.
"""
import math

import numpy as np
import torch

SHIFT, MATCH = 1, 2
# The 4-layer model's layers in the 6-layer one.
FROM_FOUR_LAYERS = [0, 3, 4, 5]
PREFER_BACK = 450
PREFER_PAIR = 10
# The gate's sink: a slow pair free of the matches (the slowest 18 pairs) and of the preference.
SINK_PAIR = 13
PHASE_CENTER = 1000
ALWAYS_SINK = 400.0


def residual_after(model, ids, layer):
    """The residual stream after `layer` (its FFN included), before any later layer."""
    blocks = model.blocks
    model.blocks = torch.nn.ModuleList(list(blocks)[: layer + 1])
    try:
        with torch.no_grad():
            return model.hidden(ids, raw=True)
    finally:
        model.blocks = blocks


def normed(model, x):
    """x after an RMS norm of unit weight (the planted layers' norms are all ones)."""
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + model.shape["rms_eps"])


def pattern_ends(ids, pattern):
    """Positions t whose token and the two before it are `pattern` (current, previous, two back)."""
    out = np.zeros(len(ids), dtype=bool)
    out[2:] = (ids[2:] == pattern[0]) & (ids[1:-1] == pattern[1]) & (ids[:-2] == pattern[2])
    return out


def plant(
    model, samples, pattern_ids, first_id, slots, gains=(240.0, 240.0, 480.0), prefer=25.0, beta=100.0, copy_gain=10.0
):
    """Plants both layers into `model` (6 layers, the 4-layer weights already loaded). `samples`: a few sequences
    of compact ids, for calibrating the slots' scales; `pattern_ids`: the compact ids of ` "`, `":` and `heading`;
    `first_id`: the compact id of `<|im_start|>`, which every prompt starts with;
    `slots`: train.py's (CODE, PREVIOUS, BEFORE_PREVIOUS, THIRD, EMBEDDING, CODE_DIMS)."""
    code_slot, previous_slot, before_slot, third_slot, embedding_slot, code_dims = slots
    s = model.shape
    hd = s["hidden"] // s["heads"]
    half = hd // 2
    pairs = code_dims // 2
    slow = list(range(half - pairs, half)) + list(range(hd - pairs, hd))
    theta = s["rope_theta"] ** (-torch.arange(0, hd, 2, dtype=torch.float32) / hd)
    shift, match = model.blocks[SHIFT], model.blocks[MATCH]
    third = third_slot.stop - third_slot.start
    with torch.no_grad():
        for block in (shift, match):
            for name in block:
                block[name].zero_()
            block["attn_norm"].fill_(1.0)
            block["ffn_norm"].fill_(1.0)

        # The shift head: one back (constant query and key biases on fast pairs peak at that distance), its
        # two-back slot's first `third` dims into THIRD, scaled to the residual's size there.
        rms = torch.cat([residual_after(model, ids, SHIFT - 1).pow(2).mean(-1).sqrt().flatten() for ids in samples])
        fast, amplitude = 8, 10.0
        shift["q_bias"][:fast] = amplitude
        shift["k_bias"][:fast] = amplitude * torch.cos(theta[:fast])
        shift["k_bias"][half : half + fast] = amplitude * torch.sin(theta[:fast])
        for i in range(third):
            shift["v"][i, before_slot.start + i] = 1
            shift["o"][third_slot.start + i, i] = float(rms.median())

        # The match head's input scales, measured: each slot's median norm after the RMS norm.
        hs = [normed(model, residual_after(model, ids, MATCH - 1))[0] for ids in samples]
        n = torch.cat(hs)

        def scale(slot):
            return float(n[:, slot].norm(dim=-1).median())

        c_code, c_prev = scale(code_slot), scale(previous_slot)
        c_before_raw, c_third_raw = scale(before_slot), scale(third_slot)
        c_before = c_before_raw / math.sqrt((before_slot.stop - before_slot.start) / code_dims)
        c_third = c_third_raw / math.sqrt(third / code_dims)
        # three parts of the slow pairs: current vs previous, previous vs two-back, two-back vs three-back
        parts = [
            (0, 12, code_slot.start, c_code, previous_slot.start, c_prev, gains[0]),
            (12, 26, previous_slot.start, c_prev, before_slot.start, c_before, gains[1]),
            (26, 36, before_slot.start, c_before, third_slot.start, c_third, gains[2]),
        ]
        for j0, j1, query_start, query_scale, key_start, key_scale, gain in parts:
            for j in range(j0, j1):
                match["q"][slow[j], query_start + j - j0] = gain / query_scale
                match["k"][slow[j], key_start + j - j0] = 1 / key_scale
        # the preference for matches PREFER_BACK tokens back: a slower pair peaking at that distance
        amp = math.sqrt(prefer * math.sqrt(hd))
        match["q_bias"][PREFER_PAIR] = amp
        match["k_bias"][PREFER_PAIR] = amp * math.cos(PREFER_BACK * float(theta[PREFER_PAIR]))
        match["k_bias"][half + PREFER_PAIR] = amp * math.sin(PREFER_BACK * float(theta[PREFER_PAIR]))

        # The gate: a sink on the sequence's first position (its code and its previous slot both hold
        # <|im_start|>'s: the one place that is so), on a slow pair turned to peak PHASE_CENTER tokens back so that it
        # stays near full strength over a prompt. Head 0's query there is beta times what the current position lacks
        # of the pattern: about 0 at the pattern, so the match decides, and large elsewhere. Head 1 always sinks.
        codes = model.embedding.detach()[:, code_slot]
        width = before_slot.stop - before_slot.start
        current, previous, before = (codes[i] for i in pattern_ids)
        detectors = [
            (code_slot, current / current.norm() / c_code),
            (previous_slot, previous / previous.norm() / c_prev),
            (before_slot, before[:width] / before[:width].norm() / c_before_raw),
        ]
        level = pattern_level(hs, samples, pattern_ids, detectors)
        first = codes[first_id] / codes[first_id].norm()
        first_code = float(torch.tensor([float(h[0, code_slot] @ first) for h in hs]).median())
        first_previous = float(torch.tensor([float(h[0, previous_slot] @ first) for h in hs]).median())
        phase = PHASE_CENTER * float(theta[SINK_PAIR])
        for head in (0, 1):
            cos_row, sin_row = head * hd + SINK_PAIR, head * hd + half + SINK_PAIR
            match["k"][cos_row, code_slot] = 8 * first / first_code
            match["k"][cos_row, previous_slot] = 8 * first / first_previous
            strength = beta * level if head == 0 else ALWAYS_SINK
            match["q_bias"][cos_row] = strength * math.cos(phase)
            match["q_bias"][sin_row] = strength * math.sin(phase)
            if head == 0:
                for slot, weights in detectors:
                    match["q"][cos_row, slot] = -beta * weights * math.cos(phase)
                    match["q"][sin_row, slot] = -beta * weights * math.sin(phase)
        # both heads' values: the key's code and learned embedding; head 0 adds it, head 1 takes away what the
        # sink adds
        for i in range(embedding_slot.start, embedding_slot.stop):
            match["v"][i, i] = 1
            match["v"][hd + i, i] = 1
            match["o"][i, i] = copy_gain
            match["o"][i, hd + i] = -copy_gain
    return {"shift_gain": float(rms.median()), "pattern_level": level}


def pattern_level(hs, samples, pattern_ids, detectors):
    """The detectors' summed response where the pattern ends (about 2.5: each part is near 1 when it matches)."""
    levels = []
    for h, ids in zip(hs, samples):
        for t in np.nonzero(pattern_ends(ids[0].numpy(), pattern_ids))[0]:
            levels.append(sum(float(h[t, slot] @ weights) for slot, weights in detectors))
    if not levels:
        raise SystemExit("train.py: the calibration samples hold no read_section call's heading")
    return float(torch.tensor(levels).median())
