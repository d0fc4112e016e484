#!/usr/bin/python3
"""Exports the convolution reference cases: tiny torch models with random weights, each
exported with torch's default settings and stored with torch's own output, so the suite has
a convolution ground truth that is not the project's code.

Run with Debian's interpreter, which has torch and onnx (a few seconds):
  /usr/bin/python3 scripts/export_conv_references.py [OUT_DIR]   (default: data/onnx/conv-reference/)
Everything is seeded per case name: the same torch version writes the same files again.

Writes into OUT_DIR, per case NAME:
  NAME-opset14.onnx   torch.onnx.export(model, x, path): the plain default call (opset 14)
  NAME-opset9.onnx    the same with opset_version=9, kept only where its operators differ
                      from the default file's (opset 9 writes Pad's pads and Clip's bounds
                      as attributes, later opsets as inputs built from constants; HardSwish
                      is HardSigmoid + Mul before opset 14)
  NAME.input.npy      the input, uniform in [-1, 1) (float32)
  NAME.output.npy     torch's output on that input (float32)
and cases.json: {"torch", "opsets", "cases": {NAME: {"covers", "files": {opset: file},
"input", "output", "input_shape", "output_shape"}}, "not_exported": {NAME-opsetN: torch's
error}}. A case torch cannot export is recorded, not fatal.

Each case is one convolution or dense layer (or two, for a residual block) with the
operators the importer fuses into it: padding, bias, activation, residual add.
"""

import json
import os
import sys
import warnings
import zlib

import numpy as np
import onnx
import torch
import torch.nn.functional as F
from torch import nn

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
DEFAULT_OPSET = 14  # torch 1.13's default opset_version
EXTRA_OPSET = 9


class Sequence(nn.Module):
    """Layers applied in order; a plain nn.Sequential exports the same, but this keeps each
    case's forward readable in one place."""

    def __init__(self, *layers):
        super().__init__()
        self.layers = nn.ModuleList(layers)

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


class Padded(nn.Module):
    """F.pad(x, pads) then a conv with padding 0: explicit (asymmetric) padding, as TF-style
    'same' ports (timm, TF converters) write it. pads = (left, right, top, bottom)."""

    def __init__(self, pads, conv):
        super().__init__()
        self.pads, self.conv = pads, conv

    def forward(self, x):
        return self.conv(F.pad(x, self.pads))


class Residual(nn.Module):
    """after(body(x) + x): ResNet's add, with the activation after it (or none)."""

    def __init__(self, body, after=None):
        super().__init__()
        self.body, self.after = body, after or nn.Identity()

    def forward(self, x):
        return self.after(self.body(x) + x)


def tf_same_pads(size, kernel, stride):
    """TF's 'SAME' padding of one axis: total pad split with the extra element at the end."""
    out = -(-size // stride)
    total = max((out - 1) * stride + kernel - size, 0)
    return total // 2, total - total // 2


def tf_same(channels_in, channels_out, kernel, stride, h, w, groups=1):
    top, bottom = tf_same_pads(h, kernel, stride)
    left, right = tf_same_pads(w, kernel, stride)
    return Padded((left, right, top, bottom), nn.Conv2d(channels_in, channels_out, kernel, stride, groups=groups))


def conv(cin, cout, k, **kwargs):
    return nn.Conv2d(cin, cout, k, **kwargs)


# name -> (constructor, input shape, what it covers). Channel counts are chosen so the
# default blocks (default_channel_block: 16, 8, a masked block or none) leave remainders and spatial sizes are not square.
CASES = {
    # Kernel sizes, strides, paddings.
    "conv1x1": (lambda: conv(12, 20, 1), (1, 12, 7, 9), "1x1, 12 -> 20 channels"),
    "conv3x3": (lambda: conv(8, 16, 3, padding=1), (1, 8, 10, 9), "3x3 pad 1"),
    "conv3x3_nobias": (lambda: conv(16, 8, 3, padding=1, bias=False), (1, 16, 9, 10), "3x3 without bias"),
    "conv3x3_stride2": (lambda: conv(8, 16, 3, stride=2, padding=1), (1, 8, 11, 10), "3x3 stride 2 pad 1, odd size"),
    "conv5x5": (lambda: conv(6, 12, 5, padding=2), (1, 6, 9, 11), "5x5 pad 2"),
    "conv5x5_stride2": (lambda: conv(8, 8, 5, stride=2), (1, 8, 13, 12), "5x5 stride 2, no padding"),
    "conv7x7_stride2": (lambda: conv(3, 8, 7, stride=2, padding=3), (1, 3, 16, 15), "7x7 stride 2 pad 3 (ResNet stem)"),
    "conv_rect": (lambda: conv(8, 8, (1, 7), padding=(0, 3)), (1, 8, 7, 9), "1x7 pad (0, 3) (Inception)"),
    "pad_hw": (lambda: conv(8, 16, 3, padding=(1, 2)), (1, 8, 8, 7), "padding=(1, 2): height 1, width 2"),
    "stride_hw": (lambda: conv(8, 8, 3, stride=(2, 1), padding=1), (1, 8, 10, 7), "stride (2, 1)"),
    "batch2": (lambda: conv(8, 16, 3, padding=1), (2, 8, 6, 7), "batch 2"),
    # Groups and depthwise.
    "groups2": (lambda: conv(8, 16, 3, padding=1, groups=2), (1, 8, 9, 8), "groups 2"),
    "groups4_stride2": (lambda: conv(16, 32, 3, stride=2, padding=1, groups=4), (1, 16, 9, 10), "groups 4 stride 2"),
    "groups2_1x1": (lambda: conv(16, 16, 1, groups=2), (1, 16, 6, 5), "1x1 groups 2"),
    "depthwise3x3": (lambda: conv(24, 24, 3, padding=1, groups=24), (1, 24, 9, 10), "depthwise 3x3, 24 channels"),
    "depthwise3x3_stride2": (lambda: conv(16, 16, 3, stride=2, padding=1, groups=16), (1, 16, 11, 10),
                             "depthwise 3x3 stride 2"),
    "depthwise5x5": (lambda: conv(16, 16, 5, padding=2, groups=16), (1, 16, 9, 8), "depthwise 5x5"),
    "depthwise5x5_stride2": (lambda: conv(8, 8, 5, stride=2, padding=2, groups=8), (1, 8, 12, 11),
                             "depthwise 5x5 stride 2"),
    "depthwise_multiplier2": (lambda: conv(8, 16, 3, padding=1, groups=8), (1, 8, 7, 8),
                              "groups == in_channels, 2 filters each (not depthwise)"),
    # Dilation.
    "dilation2": (lambda: conv(8, 16, 3, padding=2, dilation=2), (1, 8, 12, 11), "3x3 dilation 2 pad 2"),
    "dilation3": (lambda: conv(8, 8, 3, padding=3, dilation=3), (1, 8, 13, 14), "3x3 dilation 3 pad 3"),
    "dilation2_pad1": (lambda: conv(8, 8, 3, padding=1, dilation=2), (1, 8, 11, 10), "3x3 dilation 2, padding 1"),
    "dilation2_depthwise": (lambda: conv(16, 16, 3, padding=2, dilation=2, groups=16), (1, 16, 10, 9),
                            "depthwise 3x3 dilation 2"),
    "dilation_hw": (lambda: conv(8, 8, 3, padding=(2, 3), dilation=(2, 3)), (1, 8, 12, 13), "dilation (2, 3)"),
    # Asymmetric and TF-style 'same' padding.
    "zeropad_asymmetric": (lambda: Sequence(nn.ZeroPad2d((1, 2, 0, 3)), conv(8, 16, 3)), (1, 8, 9, 8),
                           "nn.ZeroPad2d((1, 2, 0, 3)) + 3x3 pad 0"),
    "fpad_asymmetric_grouped": (lambda: Padded((2, 0, 1, 1), conv(8, 8, 3, groups=2)), (1, 8, 8, 9),
                                "F.pad (2, 0, 1, 1) + 3x3 groups 2"),
    # nn.Conv2d(padding="same") is not here: torch 1.13 cannot export it (aten::_convolution_mode).
    "same_even_kernel": (lambda: Padded((1, 2, 1, 2), conv(8, 8, 4)), (1, 8, 9, 10), "'same' 4x4 as F.pad (1, 2, 1, 2)"),
    "tf_same_stride2": (lambda: tf_same(8, 16, 3, 2, 10, 12), (1, 8, 10, 12), "TF SAME 3x3 stride 2 on even sizes"),
    "tf_same_depthwise_stride2": (lambda: tf_same(16, 16, 5, 2, 12, 11, groups=16), (1, 16, 12, 11),
                                  "TF SAME depthwise 5x5 stride 2"),
    "tf_same_2x2": (lambda: tf_same(8, 8, 2, 1, 7, 8), (1, 8, 7, 8), "TF SAME 2x2 stride 1"),
    # Fused epilogues.
    "relu": (lambda: Sequence(conv(8, 16, 3, padding=1), nn.ReLU()), (1, 8, 8, 9), "bias + relu"),
    "relu6": (lambda: Sequence(conv(8, 16, 3, padding=1), nn.ReLU6()), (1, 8, 9, 8), "relu6 (Clip 0, 6)"),
    "hardtanh_0_6": (lambda: Sequence(conv(8, 8, 1), nn.Hardtanh(0.0, 6.0)), (1, 8, 7, 7), "Hardtanh(0, 6) (Clip 0, 6)"),
    "hardswish": (lambda: Sequence(conv(8, 16, 3, padding=1), nn.Hardswish()), (1, 8, 8, 8), "hardswish"),
    "hardsigmoid": (lambda: Sequence(conv(16, 8, 1), nn.Hardsigmoid()), (1, 16, 6, 7), "hardsigmoid"),
    "sigmoid": (lambda: Sequence(conv(8, 8, 3, padding=1), nn.Sigmoid()), (1, 8, 7, 9), "sigmoid"),
    "silu": (lambda: Sequence(conv(8, 16, 3, padding=1), nn.SiLU()), (1, 8, 9, 9), "silu"),
    "depthwise_relu6": (lambda: Sequence(conv(16, 16, 3, padding=1, groups=16), nn.ReLU6()), (1, 16, 8, 9),
                        "depthwise + relu6 (MobileNet)"),
    "depthwise_hardswish": (lambda: Sequence(conv(16, 16, 5, stride=2, padding=2, groups=16), nn.Hardswish()),
                            (1, 16, 10, 9), "depthwise 5x5 stride 2 + hardswish (MobileNet-v3)"),
    "residual_relu": (lambda: Residual(conv(16, 16, 3, padding=1), nn.ReLU()), (1, 16, 8, 9), "relu(conv(x) + x)"),
    "residual_after_relu6": (lambda: Residual(Sequence(conv(8, 8, 3, padding=1), nn.ReLU6())), (1, 8, 9, 8),
                             "relu6(conv(x)) + x"),
    "residual_relu_relu": (lambda: Residual(Sequence(conv(8, 8, 1), nn.ReLU()), nn.ReLU()), (1, 8, 7, 8),
                           "relu(relu(conv(x)) + x)"),
    "residual_dilated": (lambda: Residual(conv(8, 8, 3, padding=2, dilation=2), nn.ReLU6()), (1, 8, 10, 10),
                         "relu6(dilated conv(x) + x)"),
    # Dense.
    "dense": (lambda: nn.Linear(40, 24), (1, 40), "Linear 40 -> 24 (Gemm)"),
    "dense_relu": (lambda: Sequence(nn.Linear(64, 20), nn.ReLU()), (2, 64), "Linear + relu, batch 2"),
    "dense_nobias_sigmoid": (lambda: Sequence(nn.Linear(24, 10, bias=False), nn.Sigmoid()), (1, 24),
                             "Linear without bias + sigmoid (MatMul)"),
}


def seed_for(name):
    """A seed per case from its name, so adding a case leaves the others' files alone."""
    return zlib.crc32(name.encode())


def export(model, x, opset, path):
    """The plain default call; opset_version only when it is not the default."""
    kwargs = {} if opset == DEFAULT_OPSET else {"opset_version": opset}
    torch.onnx.export(model, x, path, **kwargs)


def export_case(name, out_dir):
    constructor, shape, covers = CASES[name]
    torch.manual_seed(seed_for(name))
    model = constructor().eval()
    x = torch.rand(shape) * 2 - 1
    with torch.no_grad():
        y = model(x)
    files, failures, operators = {}, {}, {}
    for opset in (DEFAULT_OPSET, EXTRA_OPSET):
        file = f"{name}-opset{opset}.onnx"
        path = os.path.join(out_dir, file)
        try:
            export(model, x, opset, path)
        except Exception as error:  # torch's own exporter refuses: recorded, not fatal
            failures[f"{name}-opset{opset}"] = str(error).splitlines()[0][:200]
            continue
        operators[opset] = [node.op_type for node in onnx.load(path).graph.node]
        if opset != DEFAULT_OPSET and operators[opset] == operators.get(DEFAULT_OPSET):
            os.remove(path)  # the same graph as the default file's: nothing new to import
        else:
            files[str(opset)] = file
    np.save(os.path.join(out_dir, name + ".input.npy"), x.numpy())
    np.save(os.path.join(out_dir, name + ".output.npy"), y.numpy())
    entry = {"covers": covers, "files": files, "input": name + ".input.npy", "output": name + ".output.npy",
             "input_shape": list(x.shape), "output_shape": list(y.shape)}
    return entry, failures


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "data", "onnx", "conv-reference")
    torch.set_num_threads(1)
    warnings.filterwarnings("ignore", category=UserWarning)
    os.makedirs(out_dir, exist_ok=True)
    cases, failures = {}, {}
    for name in CASES:
        cases[name], failed = export_case(name, out_dir)
        failures.update(failed)
    with open(os.path.join(out_dir, "cases.json"), "w") as f:
        json.dump({"torch": torch.__version__, "opsets": [DEFAULT_OPSET, EXTRA_OPSET], "cases": cases,
                   "not_exported": failures}, f, indent=1)
        f.write("\n")
    total = sum(os.path.getsize(os.path.join(out_dir, file)) for file in os.listdir(out_dir))
    print(f"{len(cases)} cases, {len(failures)} exports refused, {total} bytes in {out_dir}")
    for key, error in failures.items():
        print(f"  {key}: {error}")


if __name__ == "__main__":
    main()
