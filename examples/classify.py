"""Classify a random image with resnet-18 compiled ahead of time (`layoutopt compile resnet-18 -o DIR`).

    PYTHONPATH=build/python python3 examples/classify.py DIR
"""
import sys
import time

import numpy as np

import layoutopt

session = layoutopt.Session.load(sys.argv[1])  # network.so, program.bin, weights.bin
image = np.random.default_rng(0).standard_normal(session.inputs[0].shape, dtype=np.float32)
session.run(image)  # the first run starts the OpenMP threads
start = time.perf_counter()
(logits,) = session.run(image)  # read in place: float32, C-contiguous
latency_ms = (time.perf_counter() - start) * 1e3
top5 = np.argsort(logits[0])[::-1][:5]
print("top-5 classes:", " ".join(map(str, top5)))
print(f"latency: {latency_ms:.2f} ms on {session.threads} threads")
