#!/usr/bin/python3
"""Exports the ONNX test models layoutopt's importer is checked against, with torch's
DEFAULT export settings, i.e. the files users get from a plain
`torch.onnx.export(model, x, path)`.

Run with Debian's interpreter, which has torch, torchvision and onnx (about a minute):
  /usr/bin/python3 scripts/export_torchvision.py [OUT_DIR]        (default: data/onnx/)
  /usr/bin/python3 scripts/export_torchvision.py --only ops       (only the ops/ files)
  /usr/bin/python3 scripts/export_torchvision.py --check-ort      (also check the files with weights in ONNX Runtime)
Everything is seeded: the same torch version writes the same files and figures again.

Writes into OUT_DIR:
  <name>.onnx        six torchvision networks, structure only:
                     torch.onnx.export(model.eval(), x, path, export_params=False, opset_version=13)
  tiny-convnet.onnx  a small network defined here, exported with weights and defaults
  expected.json      per model, figures computed by torch (see EXPECTED FIELDS below)
  ops/<name>-opset<N>.onnx, ops/expected.json
                     one tiny model with weights per operator family, exported with defaults
                     (opset 14, torch 1.13's default; some also at opsets 9 and 11), with
                     torch's output on a fixed input

What torch 1.13's exporter does by default (all of it shows up in these files):
  - Batch norms are folded into the conv before them (the "eval peephole" pass runs because
    `training` defaults to TrainingMode.EVAL). The folded convs get new weight and bias
    tensors named like "onnx::Conv_193"; the BatchNormalization nodes and the names
    "bn1.weight", "bn1.running_var" disappear. A batch norm that does not follow a conv
    (DenseNet's pre-activation norm after a concat) stays a BatchNormalization node.
  - export_params=False does NOT change this: torch builds, folds, constant-folds and
    deduplicates the same parameter dictionary either way and only leaves the tensors out
    at the end (the folded weights become graph inputs without initializers). So the
    structure-only files have exactly the graph of a full default export.
  - Initializers with equal contents are deduplicated: one tensor stays, every other user
    reads it through an Identity node. Fresh batch norms make all folded biases of one width
    zero, so e.g. resnet-18 has 16 Identity nodes; DenseNet's remaining norms share their
    ones (scale and running variance) and zeros (shift and running mean) across layers.
  - Constant folding turns static shape arithmetic into constants (a channel shuffle on a
    fixed-shape input becomes Reshape with a constant shape), but not all of it: chunk
    exports Shape/Gather/Add/Div/Mul feeding Slice, interpolate(size=...) builds the
    Resize sizes from Shape/Slice/Concat, F.pad from opset 11 builds its pads with
    ConstantOfShape/Concat/Reshape/Slice/Transpose/Cast, and a dynamic batch axis keeps
    Shape/Gather/Unsqueeze/Concat feeding Reshape.
  - torch.onnx never emits Sum (a + b + c becomes two Adds; no file for it), HardSwish only
    from opset 14 (HardSigmoid + Mul below), Upsample at opset 9 and Resize from 10. Bilinear
    interpolation with align_corners=True cannot be exported at opset 9, and with
    align_corners=False it exports as an opset-9 Upsample whose ONNX meaning is not torch's
    (see MEANING_DIFFERS). LRN from opset 13 comes with an If node (a rank test).

EXPECTED FIELDS (expected.json, "models"; the six networks and tiny-convnet):
  file, opset, input_name, output_name, input_shape, output_shape, file_bytes
  parameters          torch's sum(p.numel() for p in model.parameters()), as before
  parameters_in_file  float values every consumer in the file reads, a deduplicated tensor
                      counted at each use. Predicted from torch's module (a folded norm's
                      scale and shift go and its conv gains a bias if it had none; a norm
                      that stays adds its running mean and variance) and checked against
                      the file by this script.
  distinct_weight_values  values in the file's distinct weight tensors (graph inputs other
                      than the image, or initializers), each counted once
  weight_tensors      how many such tensors there are
  batch_norm_nodes    BatchNormalization nodes IN THE FILE (0 except densenet-201, whose
                      norms after concats cannot fold); it used to be torch's count
  torch_batch_norms   torch's BatchNorm2d modules; folded_batch_norms = the difference
  identity_nodes      Identity nodes the deduplication left
  op_counts           op_type -> count of the file's nodes
tiny-convnet also has input_formula, output (torch's output on that input), weights (every
float initializer of the FILE under its file name: shape, values; the folded conv1 is
checked against torch's conv1 and bn1 here) and torch_state (torch's own state_dict).
ops/expected.json: see export_ops() below.
"""

import argparse
import collections
import json
import math
import os
import sys
import warnings
import zlib

import onnx
import onnx.numpy_helper
import torch
import torch.nn.functional as F
import torchvision

STRUCTURE_OPSET = 13
IMAGENET = (1, 3, 224, 224)
OPS_DEFAULT_OPSET = 14  # torch 1.13's default opset_version
ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

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


def seed_for(name):
    """A seed per model from its name, so adding a model leaves the others' files alone."""
    return zlib.crc32(name.encode())


def formula_input(shape):
    """The fixed test input sin(0.1 * i) over the flat index i (tests recompute it)."""
    count = math.prod(shape)
    return torch.sin(0.1 * torch.arange(count, dtype=torch.float32)).reshape(shape)


# ---------------------------------------------------------------------------------------
# Inspecting an exported file


def image_input(graph):
    """The graph's data input: the first input that is not an initializer."""
    initializers = {tensor.name for tensor in graph.initializer}
    return next(value for value in graph.input if value.name not in initializers)


def dims_of(value_info):
    return [dim.dim_value if dim.HasField("dim_value") else dim.dim_param
            for dim in value_info.type.tensor_type.shape.dim]


def weight_tensors(graph):
    """name -> dims of every weight tensor: initializers, and graph inputs other than the
    image (a structure-only export's weights)."""
    tensors = {tensor.name: list(tensor.dims) for tensor in graph.initializer}
    data_input = image_input(graph).name
    for value in graph.input:
        if value.name != data_input and value.name not in tensors:
            tensors[value.name] = dims_of(value)
    return tensors


def values_per_use(graph, tensors):
    """Float values the nodes read from weight tensors, each use counted (through Identity)."""
    source = {node.output[0]: node.input[0] for node in graph.node if node.op_type == "Identity"}
    total = 0
    for node in graph.node:
        if node.op_type == "Identity":
            continue
        for name in node.input:
            while name in source:
                name = source[name]
            if name in tensors:
                total += math.prod(tensors[name])
    return total


def op_counts(graph):
    return dict(sorted(collections.Counter(node.op_type for node in graph.node).items()))


def batch_norms_of(model):
    return [m for m in model.modules() if isinstance(m, torch.nn.modules.batchnorm._BatchNorm)]


def foldable_batch_norms(model):
    """(batch norm, conv) pairs torch's eval peephole folds: a norm whose input is a conv's
    output that nothing else reads. Found on torch.fx's graph of the module."""
    traced = torch.fx.symbolic_trace(model)
    modules = dict(traced.named_modules())
    pairs = []
    for node in traced.graph.nodes:
        if node.op != "call_module" or not isinstance(modules[node.target], torch.nn.modules.batchnorm._BatchNorm):
            continue
        source = node.args[0]
        if (source.op == "call_module" and isinstance(modules[source.target], torch.nn.Conv2d)
                and len(source.users) == 1):
            pairs.append((modules[node.target], modules[source.target]))
    return pairs


def predicted_values_in_file(model):
    """Weight values a default export's nodes read, from torch's module: a folded norm's
    scale and shift go (the conv gains a bias if it had none), a kept norm adds its running
    mean and variance. Returns (values, kept norms)."""
    folded = foldable_batch_norms(model)
    folded_ids = {id(norm) for norm, _ in folded}
    kept = [norm for norm in batch_norms_of(model) if id(norm) not in folded_ids]
    values = sum(p.numel() for p in model.parameters())
    for norm, conv_module in folded:
        values -= 2 * norm.num_features - (0 if conv_module.bias is not None else norm.num_features)
    values += sum(2 * norm.num_features for norm in kept)
    return values, len(kept)


def describe_file(name, model, shape, path):
    """The figures of one exported network, checked against torch's own module."""
    model_proto = onnx.load(path)
    onnx.checker.check_model(model_proto)
    graph = model_proto.graph
    tensors = weight_tensors(graph)
    with torch.no_grad():
        output = model(torch.zeros(shape))
    norms = batch_norms_of(model)
    file_norms = sum(node.op_type == "BatchNormalization" for node in graph.node)
    predicted, kept_norms = predicted_values_in_file(model)
    in_file = values_per_use(graph, tensors)
    if (in_file, file_norms) != (predicted, kept_norms):
        sys.exit(f"{name}: the file's nodes read {in_file} weight values and it has {file_norms} batch norms; "
                 f"torch's module predicts {predicted} and {kept_norms}")
    return {
        "file": os.path.basename(path),
        "opset": model_proto.opset_import[0].version,
        "input_name": image_input(graph).name,
        "output_name": graph.output[0].name,
        "parameters": sum(p.numel() for p in model.parameters()),
        "parameters_in_file": in_file,
        "distinct_weight_values": sum(math.prod(dims) for dims in tensors.values()),
        "weight_tensors": len(tensors),
        "input_shape": list(shape),
        "output_shape": list(output.shape),
        "batch_norm_nodes": file_norms,
        "torch_batch_norms": len(norms),
        "folded_batch_norms": len(norms) - file_norms,
        "identity_nodes": sum(node.op_type == "Identity" for node in graph.node),
        "op_counts": op_counts(graph),
        "file_bytes": os.path.getsize(path),
    }


# ---------------------------------------------------------------------------------------
# The six structure-only networks and tiny-convnet


def export_structure(out_dir):
    expected = {}
    for name, (constructor, kwargs, shape) in TORCHVISION_MODELS.items():
        torch.manual_seed(seed_for(name))
        model = constructor(weights=None, **kwargs).eval()
        path = os.path.join(out_dir, name + ".onnx")
        # The default call; export_params=False only leaves the (already folded) tensors out.
        torch.onnx.export(model.eval(), torch.zeros(shape), path, export_params=False, opset_version=STRUCTURE_OPSET)
        expected[name] = describe_file(name, model, shape, path)
        entry = expected[name]
        print(f"{name}: {entry['parameters']} parameters, {entry['folded_batch_norms']} batch norms folded, "
              f"{entry['identity_nodes']} Identity nodes, {entry['file_bytes']} bytes")
    return expected


class TinyConvNet(torch.nn.Module):
    """Covers the initializer path: conv + batch norm (folded by the exporter), relu, max
    pool, relu6 (Clip), global pooling, flatten, a Linear (Gemm) and a hand-written matmul
    plus bias (MatMul + Add)."""

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
        x = F.max_pool2d(x, 2)
        x = F.relu6(self.conv2(x))
        x = torch.flatten(F.adaptive_avg_pool2d(x, 1), 1)
        return torch.matmul(torch.relu(self.fc(x)), self.head_weight) + self.head_bias


def float_initializers(path):
    tensors = onnx.load(path).graph.initializer
    return {t.name: onnx.numpy_helper.to_array(t) for t in tensors if t.data_type == onnx.TensorProto.FLOAT}


def check_folded_conv1(model, initializers):
    """The exporter's folded conv1 must be torch's conv1 scaled by bn1: catches a file whose
    weights no longer mean what the docstring says."""
    bn = model.bn1
    scale = bn.weight / torch.sqrt(bn.running_var + bn.eps)
    weight = (model.conv1.weight * scale[:, None, None, None]).detach().numpy()
    bias = ((model.conv1.bias - bn.running_mean) * scale + bn.bias).detach().numpy()
    matches = [name for name, value in initializers.items()
               if value.shape == weight.shape and abs(value - weight).max() < 1e-5]
    if not matches or not any(v.shape == bias.shape and abs(v - bias).max() < 1e-5 for v in initializers.values()):
        sys.exit("tiny-convnet: the file has no conv1 weight or bias folded from bn1")


def export_tiny(out_dir):
    torch.manual_seed(0)
    model = TinyConvNet().eval()
    # Non-trivial running statistics, so a wrong folding changes the output.
    model.bn1.running_mean.uniform_(-0.5, 0.5)
    model.bn1.running_var.uniform_(0.5, 1.5)
    shape = (1, 3, 16, 16)
    path = os.path.join(out_dir, "tiny-convnet.onnx")
    torch.onnx.export(model.eval(), torch.zeros(shape), path)  # all defaults: weights, opset 14
    entry = describe_file("tiny-convnet", model, shape, path)
    initializers = float_initializers(path)
    check_folded_conv1(model, initializers)
    with torch.no_grad():
        entry["input_formula"] = "sin(0.1 * i) for flat index i"
        entry["output"] = model(formula_input(shape)).flatten().tolist()
    # The file's weights under the file's names (MatMul weights are [in, out], Gemm's [out, in]).
    entry["weights"] = {name: {"shape": list(value.shape), "values": value.flatten().tolist()}
                        for name, value in initializers.items()}
    entry["torch_state"] = {key: {"shape": list(value.shape), "values": value.flatten().tolist()}
                            for key, value in model.state_dict().items() if value.dtype == torch.float32}
    print(f"tiny-convnet: {entry['parameters']} parameters, {entry['file_bytes']} bytes")
    return entry


# ---------------------------------------------------------------------------------------
# Tiny models, one per operator family (data/onnx/ops/)


def conv(cin, cout, k=3, **kwargs):
    return torch.nn.Conv2d(cin, cout, k, padding=kwargs.pop("padding", k // 2), **kwargs)


class SqueezeExciteHard(torch.nn.Module):
    """MobileNet-v3 block: conv -> hardswish -> SE (adaptive avg pool, 1x1 conv, relu, 1x1
    conv, hardsigmoid, mul)."""

    def __init__(self):
        super().__init__()
        self.conv = conv(3, 8)
        self.fc1 = torch.nn.Conv2d(8, 4, 1)
        self.fc2 = torch.nn.Conv2d(4, 8, 1)

    def forward(self, x):
        x = F.hardswish(self.conv(x))
        scale = F.hardsigmoid(self.fc2(F.relu(self.fc1(F.adaptive_avg_pool2d(x, 1)))))
        return x * scale


class TransitionAndProjection(torch.nn.Module):
    """DenseNet's transition (BatchNorm with drawn statistics, ReLU, 1x1 conv, 2x2 average
    pool), then ResNet's downsampling block: a strided 3x3 conv beside the 1x1 stride-2
    projection shortcut, added, ReLU."""

    def __init__(self):
        super().__init__()
        self.norm = torch.nn.BatchNorm2d(8)
        with torch.no_grad():
            self.norm.running_mean.uniform_(-0.5, 0.5)
            self.norm.running_var.uniform_(0.5, 1.5)
            self.norm.weight.uniform_(0.5, 1.5)
            self.norm.bias.uniform_(-0.2, 0.2)
        self.reduce = torch.nn.Conv2d(8, 16, 1)
        self.body = conv(16, 16, stride=2)
        self.projection = torch.nn.Conv2d(16, 16, 1, stride=2, bias=False)

    def forward(self, x):
        x = F.avg_pool2d(self.reduce(F.relu(self.norm(x))), 2)
        return F.relu(self.body(x) + self.projection(x))


class Silu(torch.nn.Module):
    """nn.SiLU and the hand-written x * sigmoid(x) (both Sigmoid + Mul in the file)."""

    def __init__(self):
        super().__init__()
        self.conv1, self.conv2 = conv(3, 8), conv(8, 8)

    def forward(self, x):
        x = F.silu(self.conv1(x))
        x = self.conv2(x)
        return x * torch.sigmoid(x)


class ReduceMeanPool(torch.nn.Module):
    """Global pooling written as x.mean((2, 3)) with and without keepdim (ReduceMean)."""

    def __init__(self):
        super().__init__()
        self.conv = conv(3, 8)
        self.fc = torch.nn.Linear(8, 6)

    def forward(self, x):
        x = torch.relu(self.conv(x))
        gate = torch.sigmoid(x.mean((2, 3), keepdim=True))
        return self.fc((x * gate).mean((2, 3)))


class Activation(torch.nn.Module):
    """conv -> an activation module -> conv."""

    def __init__(self, activation):
        super().__init__()
        self.conv1, self.activation, self.conv2 = conv(3, 8), activation, conv(8, 4)

    def forward(self, x):
        return self.conv2(self.activation(self.conv1(x)))


class PReluBoth(torch.nn.Module):
    """PReLU with one slope per channel and with a single shared slope."""

    def __init__(self):
        super().__init__()
        self.conv1, self.conv2 = conv(3, 8), conv(8, 4)
        self.per_channel, self.shared = torch.nn.PReLU(8, init=0.2), torch.nn.PReLU(init=0.1)
        with torch.no_grad():
            self.per_channel.weight.uniform_(0.05, 0.5)  # distinct slopes, so a wrong channel shows

    def forward(self, x):
        return self.shared(self.conv2(self.per_channel(self.conv1(x))))


class Binary(torch.nn.Module):
    """Sub, Div, Max, Min with a constant and between two activations."""

    def __init__(self):
        super().__init__()
        self.conv_a, self.conv_b = conv(3, 4), conv(3, 4)

    def forward(self, x):
        a, b = self.conv_a(x), self.conv_b(x)
        with_constant = torch.cat([a - 0.5, a / 3.0, torch.maximum(a, torch.tensor(0.1)),
                                   torch.minimum(a, torch.tensor(0.2))], 1)
        two_activations = torch.cat([a - b, a / (b * b + 1.0), torch.maximum(a, b), torch.minimum(a, b)], 1)
        return with_constant + two_activations


class Interpolate(torch.nn.Module):
    def __init__(self, **kwargs):
        super().__init__()
        self.conv, self.kwargs = conv(3, 4), kwargs

    def forward(self, x):
        return F.interpolate(self.conv(x), **self.kwargs)


class ChannelSlice(torch.nn.Module):
    """x[:, :8] and x[:, 8:] (Slice)."""

    def __init__(self):
        super().__init__()
        self.conv = conv(3, 12)

    def forward(self, x):
        x = self.conv(x)
        return x[:, :8] * 0.5 + torch.cat([x[:, 8:], x[:, 8:]], 1)


class ChunkSplit(torch.nn.Module):
    """torch.chunk and torch.split (equal and unequal) on channels."""

    def __init__(self):
        super().__init__()
        self.conv = conv(3, 8)

    def forward(self, x):
        x = self.conv(x)
        a, b = x.chunk(2, 1)
        c, d = x.split([2, 6], 1)
        e, f = x.split(4, 1)
        return torch.cat([b, a * 2.0, c, d * f.mean(), e], 1)


class ConvTranspose(torch.nn.Module):
    def __init__(self, **kwargs):
        super().__init__()
        self.conv = conv(3, 8)
        self.up = torch.nn.ConvTranspose2d(8, 4, 3, **kwargs)

    def forward(self, x):
        return self.up(torch.relu(self.conv(x)))


class Lrn(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = conv(3, 8)
        self.lrn = torch.nn.LocalResponseNorm(5, alpha=0.01, beta=0.75, k=2.0)

    def forward(self, x):
        return self.lrn(torch.relu(self.conv(x)))


def channel_shuffle(x, groups):
    """torchvision's ShuffleNet-v2 channel shuffle, verbatim: shapes from x.size()."""
    batchsize, num_channels, height, width = x.size()
    channels_per_group = num_channels // groups
    x = x.view(batchsize, groups, channels_per_group, height, width)
    x = torch.transpose(x, 1, 2).contiguous()
    x = x.view(batchsize, -1, height, width)
    return x


class ChannelShuffle(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1, self.conv2 = conv(3, 8), torch.nn.Conv2d(8, 8, 1)

    def forward(self, x):
        return self.conv2(channel_shuffle(torch.relu(self.conv1(x)), 2))


# timm's TF-"same" padding (timm/layers/padding.py and conv2d_same.py), written as timm does.
def get_same_padding(x: int, k: int, s: int, d: int):
    return max((math.ceil(x / s) - 1) * s + (k - 1) * d + 1 - x, 0)


def pad_same(x, k, s, d=(1, 1), value: float = 0):
    ih, iw = x.size()[-2:]
    pad_h, pad_w = get_same_padding(ih, k[0], s[0], d[0]), get_same_padding(iw, k[1], s[1], d[1])
    if pad_h > 0 or pad_w > 0:
        x = F.pad(x, [pad_w // 2, pad_w - pad_w // 2, pad_h // 2, pad_h - pad_h // 2], value=value)
    return x


def conv2d_same(x, weight, bias=None, stride=(1, 1), padding=(0, 0), dilation=(1, 1), groups=1):
    x = pad_same(x, weight.shape[-2:], stride, dilation)
    return F.conv2d(x, weight, bias, stride, (0, 0), dilation, groups)


class Conv2dSame(torch.nn.Conv2d):
    """timm's Conv2dSame: padding computed from the input size at run time."""

    def __init__(self, cin, cout, k, stride=1, dilation=1, groups=1):
        super().__init__(cin, cout, k, stride, 0, dilation, groups)

    def forward(self, x):
        return conv2d_same(x, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)


class PadSame(torch.nn.Module):
    """Stride-2 and dilated depthwise TF-'same' convs on odd sizes (asymmetric pads)."""

    def __init__(self):
        super().__init__()
        self.stem = Conv2dSame(3, 8, 3, stride=2)
        self.depthwise = Conv2dSame(8, 8, 5, dilation=2, groups=8)

    def forward(self, x):
        return self.depthwise(torch.relu(self.stem(x)))


class AsymmetricPads(torch.nn.Module):
    """Grouped, depthwise and dilated convs whose padding is an explicit asymmetric F.pad."""

    def __init__(self):
        super().__init__()
        self.grouped = torch.nn.Conv2d(4, 8, 3, stride=2, groups=2)
        self.depthwise = torch.nn.Conv2d(8, 8, 3, groups=8)
        self.dilated = torch.nn.Conv2d(8, 4, 3, dilation=2)

    def forward(self, x):
        x = self.grouped(F.pad(x, (0, 1, 0, 1)))  # TF's stride-2 'same' on an even size
        x = self.depthwise(F.pad(torch.relu(x), (1, 1, 0, 2)))
        return self.dilated(F.pad(x, (2, 1, 1, 2)))


class ZeroBiasDedup(torch.nn.Module):
    """Two fresh convs with zeroed biases and a conv + fresh batch norm (whose folded bias is
    zero too): the exporter keeps one zero tensor and feeds the others through Identity."""

    def __init__(self):
        super().__init__()
        self.conv_a, self.conv_b = conv(3, 8), conv(8, 8)
        self.conv_c, self.bn = conv(8, 8, bias=False), torch.nn.BatchNorm2d(8)
        with torch.no_grad():
            self.conv_a.bias.zero_()
            self.conv_b.bias.zero_()

    def forward(self, x):
        x = torch.relu(self.conv_b(torch.relu(self.conv_a(x))))
        return self.bn(self.conv_c(x))


class DynamicBatch(torch.nn.Module):
    """A batch axis left symbolic: the channel shuffle's and the classifier's view keep
    their Shape/Gather/Unsqueeze/Concat subgraphs."""

    def __init__(self):
        super().__init__()
        self.conv = conv(3, 8)
        self.fc = torch.nn.Linear(8 * 4 * 4, 5)

    def forward(self, x):
        x = F.max_pool2d(channel_shuffle(torch.relu(self.conv(x)), 2), 2)
        return self.fc(x.view(x.size(0), -1))


class LayerNormChannels(torch.nn.Module):
    """torchvision's LayerNorm2d: permute to NHWC, LayerNorm over C, permute back (ConvNeXt's
    stem and downsampling norm); LayerNormalization from opset 17, decomposed below."""

    def __init__(self):
        super().__init__()
        self.conv1, self.conv2 = conv(3, 8), conv(8, 4)
        self.norm = torch.nn.LayerNorm(8, eps=1e-6)
        with torch.no_grad():  # distinct values, so a scale or shift read per the wrong axis shows
            self.norm.weight.uniform_(0.5, 1.5)
            self.norm.bias.uniform_(-0.5, 0.5)

    def forward(self, x):
        x = self.conv1(x).permute(0, 2, 3, 1)
        return self.conv2(self.norm(x).permute(0, 3, 1, 2))


class ConvNeXtBlock(torch.nn.Module):
    """torchvision's ConvNeXt block (CNBlock: depthwise 7x7, permute, LayerNorm, Linear,
    GELU, Linear, layer scale, permute back, residual) after a stem conv; the layer scale is
    drawn near 1 instead of torch's 1e-6, so the branch shows in the output."""

    def __init__(self):
        super().__init__()
        from torchvision.models.convnext import CNBlock
        self.stem = conv(3, 8)
        self.block = CNBlock(8, layer_scale=1.0, stochastic_depth_prob=0.0)
        with torch.no_grad():
            self.block.layer_scale.uniform_(0.5, 1.5)

    def forward(self, x):
        return self.block(self.stem(x))


def tiny_vit():
    """torchvision's VisionTransformer at toy sizes (4x4 patches of 8x8, 8 channels, 2 heads,
    one encoder block): patch conv, class token Concat, position Add, LayerNorm, attention
    (MatMul with weights on [T, N, C], batched MatMul and Softmax), GELU MLP, Gather of the
    class token. torchvision zeroes the class token and the head: drawn here instead."""
    from torchvision.models.vision_transformer import VisionTransformer
    model = VisionTransformer(image_size=8, patch_size=4, num_layers=1, num_heads=2, hidden_dim=8, mlp_dim=16,
                              num_classes=5)
    with torch.no_grad():
        model.class_token.normal_()
        model.heads.head.weight.normal_(0.0, 0.3)
        model.heads.head.bias.uniform_(-0.1, 0.1)
    return model


def tiny_swin():
    """torchvision's SwinTransformer at toy sizes (2x2 patches of 8x8, 8 channels, two stages
    of two blocks, 2 heads, 2x2 windows): the window partition (view to rank 6, permute
    (0, 1, 3, 2, 4, 5)) and its reverse, the qkv split (reshape to rank 5, permute
    (2, 0, 3, 1, 4)), the shifted window's roll and constant mask, the relative position bias
    Gather, patch merging's strided slices. torchvision draws the bias table and head near
    zero: drawn wider here, so a misplaced bias or class shows."""
    from torchvision.models.swin_transformer import SwinTransformer
    model = SwinTransformer(patch_size=[2, 2], embed_dim=8, depths=[2, 2], num_heads=[2, 2], window_size=[2, 2],
                            num_classes=5)
    with torch.no_grad():
        for name, parameter in model.named_parameters():
            if name.endswith("relative_position_bias_table"):
                parameter.normal_(0.0, 0.5)
        model.head.weight.normal_(0.0, 0.3)
        model.head.bias.uniform_(-0.1, 0.1)
    return model


class Einsums(torch.nn.Module):
    """Einsum as MaxViT writes it (spaces in the equation; A.B^T, then A.B over the last two
    axes) and with the contracted axis first in both operands and the output transposed."""

    def __init__(self):
        super().__init__()
        self.q, self.v = conv(3, 8), conv(3, 8)

    def forward(self, x):
        q = self.q(x).reshape(1, 2, 4, 64)  # B H I D
        v = self.v(x).reshape(1, 2, 4, 64)
        scores = torch.einsum("B H I D, B H J D -> B H I J", q, v).softmax(-1)
        attended = torch.einsum("B H I J, B H J D -> B H I D", scores, v)
        return torch.einsum("bhki,bhkj->bhji", q, attended)


def tiny_maxvit():
    """torchvision's MaxVit at toy sizes (16x16 input, 8 stem channels, two stages of one
    layer, 2x2 partitions, head dimension 4): MBConv with squeeze-excitation, block and grid
    attention (rank-6 Reshape + Transpose, Einsum products, relative position bias Gather),
    LayerNorm, GELU MLP, Tanh head. torchvision draws the bias tables near zero: drawn wider
    here, so a misplaced bias shows."""
    from torchvision.models.maxvit import MaxVit
    model = MaxVit(input_size=(16, 16), stem_channels=8, partition_size=2, block_channels=[8, 16], block_layers=[1, 1],
                   head_dim=4, stochastic_depth_prob=0.0, num_classes=5)
    with torch.no_grad():
        for name, parameter in model.named_parameters():
            if name.endswith("relative_position_bias_table"):
                parameter.normal_(0.0, 0.5)
    return model


SMALL = (1, 3, 8, 8)
# name -> (constructor, input shape, opsets besides the default, what it covers)
OP_MODELS = {
    "se_hardswish": (SqueezeExciteHard, SMALL, [9, 11], "HardSwish (HardSigmoid+Mul before opset 14), HardSigmoid, GlobalAveragePool, Mul"),
    "silu": (Silu, SMALL, [], "SiLU and x*sigmoid(x): Sigmoid + Mul"),
    "transition_projection": (TransitionAndProjection, (1, 8, 16, 16), [],
                              "DenseNet's transition (BatchNorm, Relu, 1x1 Conv, AveragePool 2x2) and ResNet's "
                              "strided 1x1 projection Conv beside a strided 3x3 Conv, Add"),
    "reduce_mean": (ReduceMeanPool, SMALL, [11], "ReduceMean over (2,3) with keepdims 1 and 0, Gemm"),
    "leaky_relu": (lambda: Activation(torch.nn.LeakyReLU(0.1)), SMALL, [], "LeakyRelu alpha 0.1"),
    "prelu": (PReluBoth, SMALL, [9], "PRelu with per-channel and shared slope"),
    "tanh": (lambda: Activation(torch.nn.Tanh()), SMALL, [], "Tanh"),
    "binary": (Binary, SMALL, [], "Sub, Div, Max, Min with a constant and between two activations"),
    "upsample_nearest": (lambda: Interpolate(scale_factor=2, mode="nearest"), SMALL, [9, 11], "Resize nearest x2 (Upsample at opset 9)"),
    "upsample_bilinear": (lambda: Interpolate(scale_factor=2, mode="bilinear", align_corners=False), SMALL, [9, 11],
                          "Resize linear x2, half_pixel"),
    "upsample_bilinear_align_corners": (lambda: Interpolate(scale_factor=2, mode="bilinear", align_corners=True), SMALL, [9, 11],
                                        "Resize linear x2, align_corners"),
    "resize_to_size": (lambda: Interpolate(size=(13, 11), mode="bilinear", align_corners=False), SMALL, [11],
                       "Resize linear to 13x11 from 8x8 (sizes from Shape/Slice/Concat)"),
    "channel_slice": (ChannelSlice, SMALL, [], "Slice on channels, Concat"),
    "chunk_split": (ChunkSplit, SMALL, [9, 11], "chunk and split on channels: Split, Slice, shape arithmetic"),
    "conv_transpose": (lambda: ConvTranspose(stride=2, padding=1, output_padding=1), SMALL, [], "ConvTranspose stride 2, output_padding 1"),
    "conv_transpose_grouped_dilated": (lambda: ConvTranspose(stride=2, padding=2, output_padding=1, dilation=2, groups=2), SMALL, [],
                                       "ConvTranspose groups 2, dilation 2, stride 2, output_padding 1"),
    "lrn": (Lrn, SMALL, [9], "LRN size 5"),
    "channel_shuffle": (ChannelShuffle, SMALL, [9], "ShuffleNet channel shuffle: Reshape, Transpose, Reshape"),
    "pad_same": (PadSame, (1, 3, 15, 14), [9, 11], "timm Conv2dSame: Pad (pads built at run time from opset 11) + Conv, depthwise dilated"),
    "asymmetric_pads": (AsymmetricPads, (1, 4, 10, 10), [11], "F.pad (asymmetric) before grouped, depthwise, dilated Conv"),
    "zero_bias_dedup": (ZeroBiasDedup, SMALL, [], "deduplicated zero biases behind Identity, folded batch norm"),
    "dynamic_batch": (DynamicBatch, (2, 3, 8, 8), [9, 11], "dynamic batch axis 'batch': Shape/Gather/Unsqueeze/Concat + Reshape"),
    "gelu": (lambda: Activation(torch.nn.GELU()), SMALL, [], "GELU exact: Div, Erf, Add, Mul, Mul"),
    "gelu_tanh": (lambda: Activation(torch.nn.GELU(approximate="tanh")), SMALL, [], "GELU tanh approximation: Mul (x^3), Add, Tanh, Mul"),
    "layer_norm": (LayerNormChannels, SMALL, [17], "LayerNorm over C between permutes (LayerNormalization from opset 17)"),
    "convnext_block": (ConvNeXtBlock, SMALL, [17], "ConvNeXt block: Transpose, LayerNorm, MatMul + Add on NHWC, GELU, layer scale"),
    "vit_tiny": (tiny_vit, SMALL, [17], "ViT: Concat class token, LayerNorm on [N, T, C], MatMul with weights on rank 3, "
                                        "attention's batched MatMul and Softmax, GELU, Gather"),
    "swin_tiny": (tiny_swin, SMALL, [17], "Swin: window partition (rank-6 Reshape + Transpose), qkv split (rank-5 "
                                          "Reshape + Transpose), shifted windows, relative position bias, patch merging"),
    "einsum": (Einsums, SMALL, [17], "Einsum as batched products: MaxViT's spelling, and contracted axes first with a transposed output"),
    "maxvit_tiny": (tiny_maxvit, (1, 3, 16, 16), [17], "MaxViT: MBConv + SE, block and grid attention (rank-6 Reshape + "
                                                      "Transpose, Einsum, relative position bias), LayerNorm, GELU, Tanh head"),
}
# Files torch writes but whose ONNX meaning is not the model's, so torch's output would be a
# wrong expectation: skipped and listed in not_exported with the reason.
MEANING_DIFFERS = {
    "upsample_bilinear-opset9": "torch writes Upsample 'linear' and warns that before opset 11 its ONNX meaning "
                                "(asymmetric coordinates) is not torch's interpolation; ONNX Runtime's output "
                                "differs from torch's by 0.4 of the largest value",
}
DYNAMIC = {"dynamic_batch": {"x": {0: "batch"}}}
DYNAMIC_EXTRA_BATCHES = [1, 3]  # torch's outputs also at these batch sizes


def export_op_model(name, model, shape, opset, path):
    """The default call, plus opset_version when it is not the default and the names the
    dynamic axes need."""
    kwargs = {} if opset == OPS_DEFAULT_OPSET else {"opset_version": opset}
    if name in DYNAMIC:
        kwargs.update(input_names=["x"], dynamic_axes=DYNAMIC[name])
    torch.onnx.export(model, torch.zeros(shape), path, **kwargs)


def torch_run(model, shape):
    with torch.no_grad():
        output = model(formula_input(shape))
    return {"input_shape": list(shape), "output_shape": list(output.shape), "output": output.flatten().tolist()}


def describe_op_file(model, shape, path, covers):
    proto = onnx.load(path)
    onnx.checker.check_model(proto)
    graph = proto.graph
    tensors = weight_tensors(graph)
    entry = {
        "file": os.path.basename(path),
        "opset": proto.opset_import[0].version,
        "covers": covers,
        "input_name": image_input(graph).name,
        "input_dims": dims_of(image_input(graph)),  # a string is a symbolic axis
        "output_dims": dims_of(graph.output[0]),
        "op_counts": op_counts(graph),
        "parameters": sum(p.numel() for p in model.parameters()),
        "parameters_in_file": values_per_use(graph, tensors),
        "identity_nodes": sum(node.op_type == "Identity" for node in graph.node),
        "file_bytes": os.path.getsize(path),
    }
    entry.update(torch_run(model, shape))
    return entry


def export_ops(out_dir):
    """ops/expected.json: {"input_formula", "default_opset", "models": {"<name>-opset<N>":
    {file, opset, covers, input_name, input_dims, output_dims, op_counts, parameters,
    parameters_in_file, identity_nodes, file_bytes, input_shape, output_shape, output
    (torch's, flattened), and for dynamic models "batches": [{input_shape, output_shape,
    output}] at other batch sizes}}, "not_exported": {"<name>-opset<N>": why there is no
    file: torch's error, or MEANING_DIFFERS}}."""
    ops_dir = os.path.join(out_dir, "ops")
    os.makedirs(ops_dir, exist_ok=True)
    models, failures = {}, {}
    for name, (constructor, shape, extra_opsets, covers) in OP_MODELS.items():
        torch.manual_seed(seed_for(name))
        model = constructor().eval()
        for opset in sorted(extra_opsets) + [OPS_DEFAULT_OPSET]:
            key = f"{name}-opset{opset}"
            path = os.path.join(ops_dir, key + ".onnx")
            if key in MEANING_DIFFERS:
                failures[key] = MEANING_DIFFERS[key]
                continue
            try:
                export_op_model(name, model, shape, opset, path)
            except Exception as error:  # torch's own exporter refuses: recorded, not fatal
                failures[key] = str(error).splitlines()[0][:200]
                print(f"{key}: torch cannot export it: {failures[key]}")
                continue
            entry = describe_op_file(model, shape, path, covers)
            if name in DYNAMIC:
                entry["batches"] = [torch_run(model, (batch,) + shape[1:]) for batch in DYNAMIC_EXTRA_BATCHES]
            models[key] = entry
            print(f"{key}: {entry['file_bytes']} bytes, {entry['op_counts']}")
    return {"input_formula": "sin(0.1 * i) for flat index i", "default_opset": OPS_DEFAULT_OPSET,
            "torch": torch.__version__, "models": models, "not_exported": failures}


def compact_json(value, indent=0):
    """JSON with one key per line but every list of numbers on a single line, floats with 9
    significant digits (exact for float32): keeps the files small and diffable."""
    pad = " " * (indent + 1)
    if isinstance(value, dict):
        items = [f"{pad}{json.dumps(key)}: {compact_json(item, indent + 1)}" for key, item in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}" if items else "{}"
    if isinstance(value, list) and all(isinstance(item, (int, float)) for item in value):
        return "[" + ",".join(f"{item:.9g}" if isinstance(item, float) else str(item) for item in value) + "]"
    if isinstance(value, list):
        items = [pad + compact_json(item, indent + 1) for item in value]
        return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]" if items else "[]"
    return json.dumps(value)


def write_json(path, content):
    with open(path, "w") as f:
        f.write(compact_json(content) + "\n")
    json.load(open(path))  # the writer above must produce valid JSON


def check_with_onnxruntime(files):
    """Runs each file in ONNX Runtime (bench/peers/ort_run.js) on the formula input and
    compares with torch's output: shows the exporter kept torch's meaning. `files` maps a
    name to (path, entry with input_shape, output_shape, output and optional batches)."""
    import subprocess
    import tempfile
    import numpy as np
    script = os.path.join(ROOT, "bench", "peers", "ort_run.js")
    worst = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for key, (path, entry) in files.items():
            for run in [entry] + entry.get("batches", []):
                x, y = os.path.join(tmp, "x.npy"), os.path.join(tmp, "y.npy")
                np.save(x, formula_input(run["input_shape"]).numpy())
                done = subprocess.run(["node", script, path, "--input", x, "-o", y,
                                       "--threads", "1"], capture_output=True, text=True)
                if done.returncode != 0:
                    sys.exit(f"{key}: ONNX Runtime failed: {done.stderr.strip()}")
                got, want = np.load(y), np.array(run["output"], dtype=np.float32).reshape(run["output_shape"])
                if got.shape != want.shape:
                    sys.exit(f"{key}: ONNX Runtime's output has shape {got.shape}, torch's {want.shape}")
                error = float(np.abs(got - want).max() / max(np.abs(want).max(), 1e-30))
                worst = max(worst, error)
                if error > 1e-4:
                    sys.exit(f"{key}: ONNX Runtime differs from torch by {error:.2e} of the largest output")
    print(f"ONNX Runtime agrees with torch on all {len(files)} files (largest relative difference {worst:.1e})")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out_dir", nargs="?", default=os.path.join(ROOT, "data", "onnx"))
    parser.add_argument("--only", choices=["networks", "ops"], help="write only the networks or only ops/")
    parser.add_argument("--check-ort", action="store_true",
                        help="also run tiny-convnet and the ops/ files in ONNX Runtime (node + bench/peers) against torch's outputs")
    args = parser.parse_args()
    torch.set_num_threads(1)  # the machine is shared; the export is not compute bound anyway
    warnings.filterwarnings("ignore", category=torch.jit.TracerWarning)  # timm's pad_same converts sizes on purpose
    warnings.filterwarnings("ignore", category=UserWarning)
    os.makedirs(args.out_dir, exist_ok=True)
    with_weights = {}  # files with torch outputs, for --check-ort
    if args.only != "ops":
        expected = export_structure(args.out_dir)
        expected["tiny-convnet"] = export_tiny(args.out_dir)
        with_weights["tiny-convnet"] = (os.path.join(args.out_dir, "tiny-convnet.onnx"), expected["tiny-convnet"])
        write_json(os.path.join(args.out_dir, "expected.json"),
                   {"opset": STRUCTURE_OPSET, "torch": torch.__version__, "torchvision": torchvision.__version__,
                    "models": expected})
    if args.only != "networks":
        ops = export_ops(args.out_dir)
        write_json(os.path.join(args.out_dir, "ops", "expected.json"), ops)
        with_weights.update({key: (os.path.join(args.out_dir, "ops", entry["file"]), entry)
                             for key, entry in ops["models"].items()})
    if args.check_ort:
        check_with_onnxruntime(with_weights)


if __name__ == "__main__":
    main()
