#!/usr/bin/python3
"""Exports torchvision networks WITH random, seeded weights to ONNX for the benchmark peers.

layoutopt, ONNX Runtime and PyTorch must time the very same network. Nothing may be
downloaded, so the weights are random: torchvision's own initialisation under
torch.manual_seed(SEED), with batch-norm statistics and affine parameters (and any bias that
torchvision initialises to a constant) drawn from the same seeded generator, so every
tensor is distinct and the activations stay finite. torch_bench.py rebuilds the model with
build_model() from this file and thus has the same weights as the ONNX file.

The export is the call users make, torch.onnx.export(model, x, path) with the exporter's
defaults (opset 14 on torch 1.13: batch norms folded into the convs, equal initializers
merged behind Identity). The five benchmark networks are those of
scripts/export_torchvision.py; the others are the networks the ONNX front end is measured on
(issue: real models in).

    /usr/bin/python3 bench/peers/export_models.py [--out DIR] [--force] [MODEL ...]

MODEL defaults to the five benchmark networks; DIR to out/peers/models/. Existing files are
skipped unless --force. Needs Debian's python3-torch, python3-torchvision and python3-onnx
(`bash scripts/install-deps.sh --peers`).
"""

import argparse
import os
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "scripts"))

try:
    import torch
    import torchvision
    from export_torchvision import TORCHVISION_MODELS
except ImportError as error:
    sys.exit(f"export_models: {error}. Run with Debian's /usr/bin/python3 after "
             "`bash scripts/install-deps.sh --peers` (python3-torch, python3-torchvision, python3-onnx).")

SEED = 0
IMAGENET = (1, 3, 224, 224)
# Networks beyond the five benchmark ones: constructor, keyword arguments, input shape.
MODELS = dict(TORCHVISION_MODELS)
MODELS.update({
    "mobilenet-v3-large": (torchvision.models.mobilenet_v3_large, {}, IMAGENET),
    "shufflenet-v2-x1.0": (torchvision.models.shufflenet_v2_x1_0, {}, IMAGENET),
    "efficientnet-b0": (torchvision.models.efficientnet_b0, {}, IMAGENET),
    "fcn-resnet50": (torchvision.models.segmentation.fcn_resnet50, {"weights_backbone": None, "aux_loss": False},
                     IMAGENET),
    "regnet-x-400mf": (torchvision.models.regnet_x_400mf, {}, IMAGENET),
    "resnext50-32x4d": (torchvision.models.resnext50_32x4d, {}, IMAGENET),
    # More of bench/onnx_coverage.py's CNNs, mobile and dense families included.
    "mobilenet-v3-small": (torchvision.models.mobilenet_v3_small, {}, IMAGENET),
    "squeezenet1.1": (torchvision.models.squeezenet1_1, {}, IMAGENET),
    "densenet-121": (torchvision.models.densenet121, {}, IMAGENET),
    "googlenet": (torchvision.models.googlenet, {"aux_logits": False, "init_weights": True}, IMAGENET),
    "regnet-y-400mf": (torchvision.models.regnet_y_400mf, {}, IMAGENET),
    "mnasnet1.0": (torchvision.models.mnasnet1_0, {}, IMAGENET),
    "wide-resnet50-2": (torchvision.models.wide_resnet50_2, {}, IMAGENET),
    "efficientnet-b1": (torchvision.models.efficientnet_b1, {}, (1, 3, 240, 240)),
})
BENCH_MODELS = ["resnet-50", "inception-v3", "densenet-201", "vgg-19-bn", "mobilenet-v2"]
DEFAULT_OUT = os.path.join(ROOT, "out", "peers", "models")


class MainOutput(torch.nn.Module):
    """A segmentation model returns {"out": tensor}; every peer times and compares that tensor."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, x):
        return self.model(x)["out"]


def build_model(name, seed=SEED):
    """Returns (model in eval mode, input shape) for a torchvision network named as in
    MODELS; the same seed gives the same weights."""
    if name not in MODELS:
        raise KeyError(f"unknown model '{name}' (known: {', '.join(MODELS)})")
    constructor, kwargs, shape = MODELS[name]
    torch.manual_seed(seed)
    model = constructor(weights=None, **kwargs)
    with torch.no_grad():
        for module in model.modules():
            if isinstance(module, torch.nn.modules.batchnorm._BatchNorm):
                module.weight.uniform_(0.5, 1.5)
                module.bias.uniform_(-0.1, 0.1)
                module.running_mean.uniform_(-0.1, 0.1)
                module.running_var.uniform_(0.5, 1.5)
    if isinstance(model, torchvision.models.segmentation.fcn.FCN):
        model = MainOutput(model)
    return model.eval(), shape


def export_model(name, out_dir, force=False):
    """Writes out_dir/name.onnx (via a temporary file, so an interrupted export never leaves
    a truncated file that a later run would skip); returns the path."""
    path = os.path.join(out_dir, name + ".onnx")
    if os.path.exists(path) and not force:
        print(f"{name}: {path} exists, skipped")
        return path
    model, shape = build_model(name)
    with torch.no_grad():
        output = model(torch.zeros(shape))
    if not bool(torch.isfinite(output).all()):
        sys.exit(f"export_models: {name} gives non-finite outputs with seed {SEED}")
    partial = path + ".partial"
    torch.onnx.export(model, torch.zeros(shape), partial)
    os.replace(partial, path)
    megabytes = os.path.getsize(path) / 2**20
    print(f"{name}: wrote {path} ({megabytes:.1f} MiB, exporter defaults, input {list(shape)}, seed {SEED})")
    return path


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("models", nargs="*", default=BENCH_MODELS, metavar="MODEL",
                        help=f"torchvision networks (known: {', '.join(MODELS)})")
    parser.add_argument("--out", default=DEFAULT_OUT, help="output directory (default out/peers/models/)")
    parser.add_argument("--force", action="store_true", help="re-export files that exist")
    parser.add_argument("--list", action="store_true", help="print the known networks, one per line, and stop")
    args = parser.parse_args()
    if args.list:
        print("\n".join(MODELS))
        return
    unknown = [name for name in args.models if name not in MODELS]
    if unknown:
        sys.exit(f"export_models: unknown model(s) {', '.join(unknown)} (known: {', '.join(MODELS)})")
    os.makedirs(args.out, exist_ok=True)
    for name in args.models:
        export_model(name, args.out, args.force)


if __name__ == "__main__":
    main()
