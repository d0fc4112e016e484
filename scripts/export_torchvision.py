#!/usr/bin/python3
"""Exports the ONNX test models layoutopt's importer is checked against.

Writes into data/onnx/ (or the directory given as the first argument):
  <name>.onnx         six torchvision networks, structure only (export_params=False: the
                      weights become graph inputs without initializers, so the files stay small)
  tiny-convnet.onnx   a small network defined here, exported WITH weights (initializer path)
  expected.json       per model, figures computed by torch itself: parameter count, input and
                      output shapes, batch-norm count; for tiny-convnet also every weight and
                      the output on a fixed input, so tests never compare against hand-typed numbers

Run with Debian's interpreter, which has torch, torchvision and onnx:
  /usr/bin/python3 scripts/export_torchvision.py
"""

import json
import os
import sys

import onnx
import torch
import torchvision

OPSET = 13
IMAGENET = (1, 3, 224, 224)

# Constructors take weights=None (random init) and the keyword arguments that keep the
# eval-mode graph free of training-only branches.
TORCHVISION_MODELS = {
    "resnet-18": (torchvision.models.resnet18, {}, IMAGENET),
    "resnet-50": (torchvision.models.resnet50, {}, IMAGENET),
    "vgg-19-bn": (torchvision.models.vgg19_bn, {}, IMAGENET),
    "inception-v3": (torchvision.models.inception_v3, {"aux_logits": False, "init_weights": False}, (1, 3, 299, 299)),
    "densenet-201": (torchvision.models.densenet201, {}, IMAGENET),
    "mobilenet-v2": (torchvision.models.mobilenet_v2, {}, IMAGENET),
}


class TinyConvNet(torch.nn.Module):
    """Covers the initializer path: conv, batch norm, relu, max pool, relu6 (Clip), global
    pooling, flatten, a Linear (Gemm) and a hand-written matmul plus bias (MatMul + Add)."""

    def __init__(self):
        super().__init__()
        self.conv1 = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.bn1 = torch.nn.BatchNorm2d(8)
        self.conv2 = torch.nn.Conv2d(8, 16, 3, stride=2, padding=1)
        self.fc = torch.nn.Linear(16, 12)
        self.head_weight = torch.nn.Parameter(torch.randn(12, 10) * 0.3)
        self.head_bias = torch.nn.Parameter(torch.randn(10) * 0.1)

    def forward(self, x):
        x = torch.relu(self.bn1(self.conv1(x)))
        x = torch.nn.functional.max_pool2d(x, 2)
        x = torch.nn.functional.relu6(self.conv2(x))
        x = torch.flatten(torch.nn.functional.adaptive_avg_pool2d(x, 1), 1)
        return torch.matmul(torch.relu(self.fc(x)), self.head_weight) + self.head_bias


def randomize_state(model):
    """Gives every parameter and buffer distinct values. The exporter deduplicates tensors
    with equal contents (fresh batch norms all have scale 1 = variance 1 and shift 0 = mean 0)
    into Identity nodes, which would hide parameters from a structure-only file. Positive
    values keep variances valid."""
    with torch.no_grad():
        for tensor in model.state_dict().values():
            if tensor.is_floating_point():
                tensor.uniform_(0.5, 1.5)


def export(model, shape, path, with_weights):
    model.eval()
    torch.onnx.export(
        model,
        torch.zeros(shape),
        path,
        export_params=with_weights,
        opset_version=OPSET,
        # TrainingMode.EVAL would run torch's eval peephole pass, which folds batch norms
        # into the convolutions even without constant folding. PRESERVE on a model in eval
        # mode exports the same eval-mode graph but keeps BatchNormalization nodes, so the
        # file has torch's parameters one to one.
        training=torch.onnx.TrainingMode.PRESERVE,
        do_constant_folding=False,
        input_names=["input"],
        output_names=["output"],
    )


def count_batch_norms(model):
    return sum(isinstance(m, torch.nn.modules.batchnorm._BatchNorm) for m in model.modules())


def check_export(name, model, path):
    """Fails unless the file has torch's batch norms and no deduplicated parameters; returns
    the number of BatchNormalization nodes."""
    nodes = onnx.load(path).graph.node
    exported = sum(node.op_type == "BatchNormalization" for node in nodes)
    expected = count_batch_norms(model)
    if exported != expected:
        sys.exit(f"{name}: the export has {exported} BatchNormalization nodes, the model {expected}")
    if any(node.op_type == "Identity" for node in nodes):
        sys.exit(f"{name}: the exporter merged equal parameters into Identity nodes")
    return exported


def describe(name, model, shape, path):
    with torch.no_grad():
        output = model(torch.zeros(shape))
    return {
        "file": os.path.basename(path),
        "parameters": sum(p.numel() for p in model.parameters()),
        "input_shape": list(shape),
        "output_shape": list(output.shape),
        "batch_norm_nodes": check_export(name, model, path),
        "file_bytes": os.path.getsize(path),
    }


def export_torchvision(out_dir):
    expected = {}
    for name, (constructor, kwargs, shape) in TORCHVISION_MODELS.items():
        model = constructor(weights=None, **kwargs).eval()
        randomize_state(model)
        path = os.path.join(out_dir, name + ".onnx")
        export(model, shape, path, with_weights=False)
        expected[name] = describe(name, model, shape, path)
        print(f"{name}: {expected[name]['parameters']} parameters, {expected[name]['file_bytes']} bytes")
    return expected


def export_tiny(out_dir):
    torch.manual_seed(0)
    model = TinyConvNet().eval()
    # Non-trivial running statistics, so a wrong mean/variance binding changes the output.
    model.bn1.running_mean.uniform_(-0.5, 0.5)
    model.bn1.running_var.uniform_(0.5, 1.5)
    shape = (1, 3, 16, 16)
    path = os.path.join(out_dir, "tiny-convnet.onnx")
    export(model, shape, path, with_weights=True)
    entry = describe("tiny-convnet", model, shape, path)
    x = torch.sin(0.1 * torch.arange(torch.Size(shape).numel(), dtype=torch.float32)).reshape(shape)
    with torch.no_grad():
        entry["input_formula"] = "sin(0.1 * i) for flat index i"
        entry["output"] = model(x).flatten().tolist()
    # Every weight as torch stores it (MatMul weights are [in, out]; Linear weights [out, in]).
    entry["weights"] = {
        key: {"shape": list(value.shape), "values": value.flatten().tolist()}
        for key, value in model.state_dict().items()
        if value.dtype == torch.float32
    }
    print(f"tiny-convnet: {entry['parameters']} parameters, {entry['file_bytes']} bytes")
    return entry


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "data", "onnx")
    os.makedirs(out_dir, exist_ok=True)
    expected = export_torchvision(out_dir)
    expected["tiny-convnet"] = export_tiny(out_dir)
    with open(os.path.join(out_dir, "expected.json"), "w") as f:
        json.dump({"opset": OPSET, "torch": torch.__version__, "torchvision": torchvision.__version__,
                   "models": expected}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
