#!/usr/bin/python3
"""How many of torchvision's CNNs, exported the way users export them, layoutopt imports and
runs correctly, and how fast its default schedule is next to ONNX Runtime.

    /usr/bin/python3 bench/onnx_coverage.py [--models M ...] [--opsets 9 13 17] [--quick]
        [--skip-export] [--no-dynamic] [--threads 2] [--out out/coverage] [--timeout 600]
        [--export-timeout 1800] [--bench-seconds 1] [--prune-mb N] [--min-free-gb 20]
        [--resume] [--layoutopt PATH] [--optimize-seconds S]

Export: every classification CNN torchvision has (torchvision.models.list_models(), less the
transformer families below) and its segmentation models, weights=None and
weights_backbone=None (random init, seed 0; a model whose output moves by less than 0.1%
between two random inputs, googlenet for one, gets He-normal conv and linear weights instead:
see MIN_INPUT_SENSITIVITY), eval mode, exported with WEIGHTS and the
default `torch.onnx.export(model, x, path, opset_version=N)` at each opset of --opsets, and
once more with a dynamic batch axis (input_names=["x"], dynamic_axes={"x": {0: "batch"}},
opset 13). Input 1x3x224x224, 299x299 for inception_v3. Each export runs in its own
`nice -n 10` process with one torch thread and is cached: out/coverage/models/MODEL/
MODEL-opsetN[-dynamic].onnx is reused if present, and a failed export's reason is kept in
a .export-error.txt beside it (delete that to retry). Where torch cannot export a model at
an opset, the row says "export failed: <reason>" and does not count.
The token-mixing families are checked on seven models, convnext_tiny/small, vit_b_16/32,
swin_t/s and maxvit_t (TOKEN_MODELS), at opsets 14 and 17 (LayerNormalization is one node
from 17 and a ReduceMean/Sub/Pow/Sqrt/Div chain below), each also with a dynamic batch;
their other members (bigger copies of the same blocks) are listed as not swept, with the
message layoutopt gives for one export of each family.

Per exported file, on one seeded random input (uniform in [-1, 1), batch 2 for the dynamic
rows, which also pass `--batch 2` to layoutopt):
    layoutopt info FILE --json                     imported?
    layoutopt run FILE --input x.npy -o y.npy      ran? (the default schedule)
    node bench/peers/ort_run.js FILE --input x.npy -o ref.npy --time-seconds S
    layoutopt bench FILE --json --min-seconds S    the default schedule's median
and, with --optimize-seconds S,
    layoutopt optimize FILE --time-budget S        optimized to the end? its graph-tuned median
    layoutopt run FILE --plan PLAN ...             the tuned plan's max rel err to ORT
with --threads T for both runtimes. max rel err = max|layoutopt - ORT| / max|ORT| over the
first output. Every step has a timeout; a failing step fails its row and the sweep goes on.

Prints one row per file (model | opset | dynamic | imported | ran | max rel err | ORT ms |
default ms) and writes out/coverage/coverage.md, coverage.csv and rows.jsonl (every field,
full error messages), coverage-table.md (one line per model, one max rel err per export:
the table of docs/results/onnx-coverage.md) and coverage-families.md (per family, files
matching ORT of those run and planned: the README's table). --quick takes a representative subset; --skip-export only uses files
already exported. Each finished row is also kept as runs/FILE/row.json: --resume reuses those,
so a sweep stopped part way goes on where it was. --layoutopt runs another binary than
build/apps/layoutopt (a copy, so that rebuilding during a sweep does not break its rows).
Exporting everything with weights needs tens of GB (vgg and regnet_y_128gf
are big): --prune-mb N deletes files over N MB once their row is done, and no export starts
with less than --min-free-gb free. The whole sweep takes hours on 2 cores; --quick about
half an hour.
"""

import argparse
import csv
import json
import math
import os
import shutil
import signal
import subprocess
import sys
import time
import zlib

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
DEFAULT_LAYOUTOPT = os.path.join(ROOT, "build", "apps", "layoutopt")
ORT_RUN = os.path.join(ROOT, "bench", "peers", "ort_run.js")
PYTHON = "/usr/bin/python3"  # Debian's interpreter: the one with torch and torchvision

DEFAULT_OPSETS = [9, 13, 17]
DYNAMIC_OPSET = 13
DYNAMIC_BATCH = 2  # the batch the dynamic rows run at: not 1, so a batch axis fixed to 1 shows
IMAGE_SIZES = {"inception_v3": 299}  # every other model takes 224x224
# How far the output must move between two random inputs, relative to its largest value. The
# import contract (max rel err 1e-4 against ONNX Runtime) then bounds an error to a tenth of
# what the input changes; below it the output is mostly the last layer's bias (googlenet and
# deeplabv3_mobilenet_v3_large: all of it; shufflenet_v2: all but 3e-5) and the model is
# re-initialized. Deep residual networks sit at 4e-3 to 1e-2 and re-initialization does not
# raise them, so the bar is not higher.
MIN_INPUT_SENSITIVITY = 1e-3
UNSUPPORTED_FAMILIES = {  # prefix -> the one model exported to ask layoutopt about the family
    "vit_": "vit_b_16",
    "swin_": "swin_t",
    "maxvit_": "maxvit_t",
    "convnext_": "convnext_tiny",
}
# The token-mixing models the sweep checks like the CNNs: the two smallest of each family
# (MaxViT has one), at the opsets either side of LayerNormalization's arrival (17), each also
# with a dynamic batch.
TOKEN_MODELS = ["convnext_tiny", "convnext_small", "vit_b_16", "vit_b_32", "swin_t", "swin_s", "maxvit_t"]
TOKEN_OPSETS = [14, 17]
TOKEN_DYNAMIC_OPSETS = [14, 17]
QUICK_MODELS = ["resnet18", "resnet50", "mobilenet_v2", "mobilenet_v3_small", "squeezenet1_1", "densenet121",
                "googlenet", "inception_v3", "shufflenet_v2_x1_0", "efficientnet_b0", "regnet_y_400mf",
                "mnasnet1_0", "lraspp_mobilenet_v3_large"]
COLUMNS = ["model", "opset", "dynamic", "imported", "ran", "max rel err", "ORT ms", "default ms", "tuned ms", "note"]


def fail(message):
    sys.exit(f"onnx_coverage: {message}")


# ---------------------------------------------------------------------------------------
# Which models


def torchvision_models():
    """(classification CNNs, segmentation models, transformer-family models) of the
    installed torchvision."""
    import torchvision.models as models
    segmentation = models.list_models(module=models.segmentation)
    classification, transformers = [], []
    for name in models.list_models(module=models):
        family = next((prefix for prefix in UNSUPPORTED_FAMILIES if name.startswith(prefix)), None)
        (transformers if family else classification).append(name)
    return classification, segmentation, transformers


def selected_models(args):
    """(models to export and check, transformer-family models to list as unsupported)."""
    classification, segmentation, transformers = torchvision_models()
    if not args.models and not args.quick:
        token = [name for name in TOKEN_MODELS if name in transformers]
        return classification + segmentation + token, [name for name in transformers if name not in token]
    wanted = args.models or QUICK_MODELS
    known = classification + segmentation + transformers
    unknown = [name for name in wanted if name not in known]
    if unknown:
        fail(f"unknown models {', '.join(unknown)}; torchvision has: {', '.join(sorted(known))}")
    checked = [name for name in wanted if name not in transformers or name in TOKEN_MODELS]
    listed = [name for name in wanted if name not in checked] if args.models else [
        name for name in transformers if name not in TOKEN_MODELS]
    return checked, listed


def opsets_of(args, model):
    """(static opsets, dynamic-batch opsets) a model is exported at."""
    if model in TOKEN_MODELS:
        return TOKEN_OPSETS, TOKEN_DYNAMIC_OPSETS
    return args.opsets, [DYNAMIC_OPSET]


# ---------------------------------------------------------------------------------------
# Export (in a child process: torch is slow to load, may crash, and must run niced)


def export_path(out_dir, model, opset, dynamic):
    suffix = "-dynamic" if dynamic else ""
    return os.path.join(out_dir, "models", model, f"{model}-opset{opset}{suffix}.onnx")


def input_sensitivity(model, size):
    """How far the output moves between two random inputs, relative to its largest value."""
    import torch
    with torch.no_grad():
        first, second = (model(torch.rand(1, 3, size, size) * 2 - 1) for _ in range(2))
    first, second = (out["out"] if isinstance(out, dict) else out for out in (first, second))
    return float((first - second).abs().max() / first.abs().max().clamp(min=1e-30))


def keep_the_input(model, size):
    """Re-initializes a model whose random init nearly loses its input (torchvision's
    googlenet: convs drawn with std 0.01 leave only the classifier's bias), with He-normal
    conv and linear weights: otherwise its rows would compare a bias vector, not the network."""
    import torch
    if input_sensitivity(model, size) >= MIN_INPUT_SENSITIVITY:
        return
    for module in model.modules():
        if isinstance(module, (torch.nn.Conv2d, torch.nn.Linear)):
            torch.nn.init.kaiming_normal_(module.weight, nonlinearity="relu")
    if input_sensitivity(model, size) < MIN_INPUT_SENSITIVITY:
        raise RuntimeError("the output does not depend on the input, even after re-initialization")


def export_one(model_name, opset, dynamic, path):
    """The child's work: build the model as a user would and call the default exporter."""
    import warnings
    import torch
    import torchvision.models as models
    torch.set_num_threads(1)  # 2 shared cores: exports must not starve the timed runs
    warnings.filterwarnings("ignore")
    torch.manual_seed(0)
    if model_name in models.list_models(module=models.segmentation):
        model = models.get_model(model_name, weights=None, weights_backbone=None)
    else:
        model = models.get_model(model_name, weights=None)
    size = IMAGE_SIZES.get(model_name, 224)
    keep_the_input(model.eval(), size)
    x = torch.zeros(DYNAMIC_BATCH if dynamic else 1, 3, size, size)
    kwargs = {"opset_version": opset}
    if dynamic:
        kwargs.update(input_names=["x"], dynamic_axes={"x": {0: "batch"}})
    partial = path + ".partial.onnx"  # renamed when complete, so the cache never holds half a file
    torch.onnx.export(model.eval(), x, partial, **kwargs)
    os.replace(partial, path)


def short_reason(text):
    """The line of an error output that says what went wrong, shortened for a table cell."""
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    errors = [line for line in lines if "Error" in line or "error:" in line or "Unsupported" in line]
    line = (errors or lines or ["no message"])[-1]
    for prefix in ("layoutopt: error: ", "ort_run: "):
        line = line.replace(prefix, "")
    if line.startswith("'") and "': " in line:  # layoutopt names the file first: the row says which
        line = line.split("': ", 1)[1]
    return line[:200]


def ensure_export(args, model, opset, dynamic):
    """(path, None) with the file exported or cached, or (None, reason) if there is none."""
    path = export_path(args.out, model, opset, dynamic)
    error_file = path + ".export-error.txt"
    if os.path.exists(path):
        return path, None
    if os.path.exists(error_file):
        with open(error_file) as f:
            return None, "export failed: " + f.read().strip()
    if args.skip_export:
        return None, "not exported (--skip-export)"
    os.makedirs(os.path.dirname(path), exist_ok=True)
    free_gb = shutil.disk_usage(os.path.dirname(path)).free / 1e9
    if free_gb < args.min_free_gb:
        return None, f"not exported: {free_gb:.0f} GB free, --min-free-gb {args.min_free_gb}"
    command = ["nice", "-n", "10", PYTHON, os.path.abspath(__file__), "--export-one", model, str(opset),
               "1" if dynamic else "0", path]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=args.export_timeout)
    except subprocess.TimeoutExpired:
        return None, f"export timed out after {args.export_timeout} s"  # not cached: may pass when the host is quiet
    if done.returncode != 0 or not os.path.exists(path):
        reason = short_reason(done.stderr or done.stdout)
        with open(error_file, "w") as f:
            f.write(reason + "\n")
        return None, "export failed: " + reason
    return path, None


# ---------------------------------------------------------------------------------------
# Running one file


def run_tool(command, timeout):
    """(ok, stdout, error message) of a command; never raises for failures or timeouts."""
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return False, "", f"timed out after {timeout} s"
    except OSError as error:  # the binary is missing or being relinked
        return False, "", f"cannot start {command[0]}: {error.strerror}"
    if done.returncode < 0:  # killed by a signal: a crash says more than the output before it
        return False, done.stdout, f"crashed ({signal.Signals(-done.returncode).name})"
    if done.returncode != 0:
        message = done.stderr.strip() or done.stdout.strip()
        return False, done.stdout, short_reason(message) if message else f"exit code {done.returncode}, no message"
    return True, done.stdout, ""


def last_json(stdout):
    for line in reversed(stdout.strip().splitlines()):
        if line.startswith("{"):
            return json.loads(line)
    raise ValueError("no JSON line in the output")


def random_input(out_dir, model, batch):
    """A seeded input per model and batch, the same for every opset: uniform in [-1, 1)."""
    import numpy as np
    size = IMAGE_SIZES.get(model, 224)
    path = os.path.join(out_dir, "inputs", f"{model}-b{batch}.npy")
    if not os.path.exists(path):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        rng = np.random.default_rng(zlib.crc32(model.encode()))
        np.save(path, rng.uniform(-1, 1, (batch, 3, size, size)).astype(np.float32))
    return path


def max_relative_error(ours_path, reference_path):
    import numpy as np
    ours, reference = np.load(ours_path), np.load(reference_path)
    if ours.shape != reference.shape:
        raise ValueError(f"output shape {list(ours.shape)}, ONNX Runtime's {list(reference.shape)}")
    scale = float(np.abs(reference).max())
    return float(np.abs(ours.astype(np.float64) - reference).max()) / (scale if scale > 0 else 1.0)


def run_folder(args, row):
    name = f"{row['model']}-opset{row['opset']}{'-dynamic' if row['dynamic'] else ''}"
    return os.path.join(args.out, "runs", name)


def check_file(args, row, path):
    """Fills row's imported, ran, max_rel_err, ort_ms, default_ms (and errors) for one file."""
    layoutopt = args.layoutopt
    batch = DYNAMIC_BATCH if row["dynamic"] else 1
    batch_flags = ["--batch", str(batch)] if row["dynamic"] else []
    threads = ["--threads", str(args.threads)]
    work = run_folder(args, row)
    os.makedirs(work, exist_ok=True)
    x = random_input(args.out, row["model"], batch)
    ours, reference = os.path.join(work, "layoutopt.npy"), os.path.join(work, "ort.npy")

    ok, out, error = run_tool(["node", ORT_RUN, path, "--input", x, "-o", reference, "--json",
                               "--time-seconds", str(args.bench_seconds)] + threads, args.timeout)
    if ok:
        row["ort_ms"] = last_json(out)["median_ms"]
    else:
        row["ort_error"] = error

    ok, _, error = run_tool([layoutopt, "info", path, "--json"] + batch_flags, args.timeout)
    row["imported"] = ok
    if not ok:
        row["error"] = error
        return
    ok, _, error = run_tool([layoutopt, "run", path, "--input", x, "-o", ours, "--force"] + batch_flags + threads,
                            args.timeout)
    row["ran"] = ok
    if not ok:
        row["error"] = error
        return
    if "ort_ms" in row:
        try:
            row["max_rel_err"] = max_relative_error(ours, reference)
        except ValueError as mismatch:
            row["error"] = str(mismatch)
    ok, out, error = run_tool([layoutopt, "bench", path, "--json", "--min-seconds", str(args.bench_seconds)]
                              + batch_flags + threads, args.timeout)
    if ok:
        row["default_ms"] = last_json(out)["median_ms"]
    else:
        row["error"] = "bench: " + error
    if args.optimize_seconds is not None:
        optimize_file(args, row, path, x, reference, batch_flags + threads)


def optimize_file(args, row, path, x, reference, flags):
    """Fills row's tuned_ms, tuned_max_rel_err and optimize_s (or optimize_error): `layoutopt
    optimize` run to the end with --time-budget S, then its plan run on the same input. The
    tuning log and transform table are per model and batch (shared by its opsets), so a later
    export of the same network resumes the earlier tuning."""
    work = run_folder(args, row)
    shared = os.path.join(args.out, "optimize", f"{row['model']}-b{DYNAMIC_BATCH if row['dynamic'] else 1}")
    os.makedirs(shared, exist_ok=True)
    plan, summary_file, tuned = (os.path.join(work, name) for name in ("plan.json", "optimize.json", "tuned.npy"))
    start = time.time()
    ok, _, error = run_tool([args.layoutopt, "optimize", path, "--time-budget", str(args.optimize_seconds),
                             "--records", os.path.join(shared, "tune.jsonl"),
                             "--transforms", os.path.join(shared, "transforms.json"), "-o", plan,
                             "--json-summary", summary_file, "--force", "--quiet"] + flags, args.optimize_timeout)
    row["optimize_s"] = round(time.time() - start, 1)
    if not ok:
        row["optimize_error"] = error
        return
    with open(summary_file) as f:
        variants = json.load(f)["variants"]
    chosen = min((v for v in variants if v["name"].startswith("graph tuned")), key=lambda v: v["median_ms"],
                 default=None)
    if chosen is not None:
        row["tuned_ms"] = chosen["median_ms"]
    ok, _, error = run_tool([args.layoutopt, "run", path, "--plan", plan, "--input", x, "-o", tuned, "--force"]
                            + flags, args.timeout)
    if not ok:
        row["optimize_error"] = "running the plan: " + error
    elif os.path.exists(reference):
        row["tuned_max_rel_err"] = max_relative_error(tuned, reference)


# ---------------------------------------------------------------------------------------
# Rows, table, files


def planned_rows(args, models, transformers):
    rows = []
    for model in models:
        static_opsets, dynamic_opsets = opsets_of(args, model)
        for opset in static_opsets:
            rows.append({"model": model, "opset": opset, "dynamic": False})
        for opset in [] if args.no_dynamic else dynamic_opsets:
            rows.append({"model": model, "opset": opset, "dynamic": True})
    for model in transformers:
        rows.append({"model": model, "opset": DYNAMIC_OPSET, "dynamic": False, "family": "unsupported"})
    return rows


def family_messages(args, transformers):
    """layoutopt's message for one export of each transformer family among `transformers`."""
    messages = {}
    for prefix, representative in UNSUPPORTED_FAMILIES.items():
        if not any(name.startswith(prefix) for name in transformers):
            continue
        checked = [name for name in TOKEN_MODELS if name.startswith(prefix)]
        if checked:  # the family's blocks are checked on its smaller members
            messages[prefix] = "not swept: " + ", ".join(checked) + " have the same blocks"
            continue
        print(f"asking layoutopt about {prefix}* with {representative} (opset {DYNAMIC_OPSET})", flush=True)
        path, reason = ensure_export(args, representative, DYNAMIC_OPSET, False)
        if path is None:
            messages[prefix] = f"unsupported: {representative}: {reason}"
            continue
        ok, _, error = run_tool([args.layoutopt, "info", path, "--json"], args.timeout)
        messages[prefix] = f"unsupported: {representative}: " + ("imports (no longer unsupported?)" if ok else error)
    return messages


def cell(row, column):
    """A table cell; a failed export or an unsupported family is "export failed" or
    "unsupported" in the imported column, with the reason under note."""
    status = row.get("status", "")
    if column == "model":
        return row["model"]
    if column == "opset":
        return str(row["opset"])
    if column == "dynamic":
        return "batch" if row["dynamic"] else ""
    if column == "note":
        return (status.split(": ", 1)[1] if ": " in status else status) or row.get("error", "")
    if status:
        return status.split(":")[0] if column == "imported" else ""
    if column == "imported":
        return "yes" if row.get("imported") else "no"
    if column == "ran":
        return "" if not row.get("imported") else ("yes" if row.get("ran") else "no")
    if column == "max rel err":
        return f"{row['max_rel_err']:.1e}" if "max_rel_err" in row else ""
    if column == "ORT ms":
        return f"{row['ort_ms']:.2f}" if "ort_ms" in row else ("failed" if "ort_error" in row else "")
    if column == "default ms":
        return f"{row['default_ms']:.2f}" if "default_ms" in row else ""
    if column == "tuned ms":
        return f"{row['tuned_ms']:.2f}" if "tuned_ms" in row else ("failed" if "optimize_error" in row else "")
    raise KeyError(column)


WIDTHS = [28, 5, 7, 13, 4, 11, 9, 10, 9, 0]  # the note takes the rest of the line


def print_row(row):
    cells = [cell(row, c) for c in COLUMNS]
    cells[-1] = cells[-1][:110]
    print("  ".join(text.ljust(w) for text, w in zip(cells, WIDTHS)).rstrip(), flush=True)


def summary(rows):
    counted = [r for r in rows if "status" not in r]
    correct = [r for r in counted if r.get("max_rel_err", math.inf) < 1e-3]
    optimized = [r for r in counted if r.get("tuned_max_rel_err", math.inf) < 1e-3]
    tried = sum("optimize_s" in r for r in counted)
    return (f"{len(counted)} files exported; imported {sum(bool(r.get('imported')) for r in counted)}, "
            f"ran {sum(bool(r.get('ran')) for r in counted)}, max rel err < 1e-3 on {len(correct)}; "
            + (f"optimized to the end with the tuned plan's max rel err < 1e-3 on {len(optimized)} of {tried}; "
               if tried else "") +
            f"{sum(r.get('status', '').startswith('export failed') for r in rows)} exports failed, "
            f"{sum(r.get('family') == 'unsupported' for r in rows)} transformer-family models not swept or unsupported")


def pivot_cell(row):
    """One model-by-export cell: the max relative error, or why there is none."""
    if "status" not in row and "imported" not in row:
        return "not run"
    if "status" in row:
        return row["status"].split(":")[0]
    if not row.get("imported"):
        return "import failed"
    if not row.get("ran"):
        return "run failed"
    return f"{row['max_rel_err']:.1e}" if "max_rel_err" in row else "no ORT reference"


def pivot_table(rows):
    """Markdown: one line per model, one column per export (the static opsets, then the
    dynamic batch), each cell as pivot_cell gives it."""
    def column_of(row):
        return f"opset {row['opset']}" + (f", dynamic batch ({DYNAMIC_BATCH})" if row["dynamic"] else "")

    checked = [row for row in rows if row.get("family") != "unsupported"]
    columns = sorted({column_of(row) for row in checked}, key=lambda c: ("dynamic" in c, int(c.split()[1].rstrip(","))))
    cells = {}
    for row in checked:
        column = column_of(row)
        cells.setdefault(row["model"], {})[column] = pivot_cell(row)
    lines = ["| model | " + " | ".join(columns) + " |", "|---" * (len(columns) + 1) + "|"]
    for model, by_column in cells.items():
        lines.append(f"| {model} | " + " | ".join(by_column.get(c, "not run") for c in columns) + " |")
    return "\n".join(lines) + "\n"


FAMILIES = ["alexnet", "vgg", "resnet", "resnext", "wide_resnet", "squeezenet", "densenet", "googlenet",
            "inception", "mobilenet_v2", "mobilenet_v3", "mnasnet", "shufflenet_v2", "efficientnet_b",
            "efficientnet_v2", "regnet_x", "regnet_y", "fcn", "deeplabv3", "lraspp", "convnext", "vit", "swin"]


def family_of(model):
    """The longest family name `model` starts with ("resnet" for resnet50, not "resnext")."""
    matches = [f for f in FAMILIES if model.startswith(f)]
    return max(matches, key=len) if matches else model


def family_table(rows):
    """Markdown: per family, the files that matched ONNX Runtime (max rel err < 1e-4) of those
    that ran and of those planned, and the worst error among them."""
    counts = {}
    for row in rows:
        if row.get("family") == "unsupported":
            continue
        entry = counts.setdefault(family_of(row["model"]), {"planned": 0, "run": 0, "matched": 0, "worst": 0.0})
        entry["planned"] += 1
        if "imported" in row or "status" in row:
            entry["run"] += 1
        if "max_rel_err" in row and row["max_rel_err"] < 1e-4:
            entry["matched"] += 1
            entry["worst"] = max(entry["worst"], row["max_rel_err"])
    lines = ["| family | files matching ORT / run / planned | worst max rel err |", "|---|---|---|"]
    for family, c in counts.items():
        worst = f"{c['worst']:.1e}" if c["matched"] else ""
        lines.append(f"| {family} | {c['matched']} / {c['run']} / {c['planned']} | {worst} |")
    return "\n".join(lines) + "\n"


def write_outputs(args, rows, messages):
    with open(os.path.join(args.out, "coverage-table.md"), "w") as f:
        f.write(pivot_table(rows))
    with open(os.path.join(args.out, "coverage-families.md"), "w") as f:
        f.write(family_table(rows))
    with open(os.path.join(args.out, "coverage.md"), "w") as f:
        f.write("# ONNX import coverage (bench/onnx_coverage.py)\n\n" + summary(rows) + ".\n\n")
        f.write("| " + " | ".join(COLUMNS) + " |\n|" + "---|" * len(COLUMNS) + "\n")
        for row in rows:
            f.write("| " + " | ".join(cell(row, c).replace("|", "/") for c in COLUMNS) + " |\n")
        if messages:
            f.write("\nUnsupported families, layoutopt's message for one export each:\n\n")
            for prefix, message in messages.items():
                f.write(f"- `{prefix}*`: {message}\n")
    fields = ["model", "opset", "dynamic", "status", "imported", "ran", "max_rel_err", "ort_ms", "default_ms",
              "tuned_ms", "tuned_max_rel_err", "optimize_s", "export_s", "error", "ort_error", "optimize_error", "file"]
    with open(os.path.join(args.out, "coverage.csv"), "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)
    with open(os.path.join(args.out, "rows.jsonl"), "w") as f:
        for row in rows:
            f.write(json.dumps(row) + "\n")


def prune(args, path):
    if args.prune_mb is not None and path and os.path.getsize(path) > args.prune_mb * 1e6:
        os.remove(path)  # the next sweep exports it again


def format_minutes(seconds):
    return f"{seconds / 60:.0f} min" if seconds >= 90 else f"{seconds:.0f} s"


def sweep(args):
    models, transformers = selected_models(args)
    rows = planned_rows(args, models, transformers)
    messages = family_messages(args, transformers)
    print(f"{len(rows)} rows: {len(models)} models at opsets {args.opsets}"
          f"{'' if args.no_dynamic else f' and dynamic batch (opset {DYNAMIC_OPSET}; token models {TOKEN_DYNAMIC_OPSETS})'}, "
          f"{len(transformers)} transformer models; threads {args.threads}; {args.out}\n", flush=True)
    print("  ".join(c.ljust(w) for c, w in zip(COLUMNS, WIDTHS)).rstrip())
    start = time.time()
    resumed = 0
    for index, row in enumerate(rows):
        if row.get("family") == "unsupported":
            prefix = next(p for p in UNSUPPORTED_FAMILIES if row["model"].startswith(p))
            row["status"] = messages[prefix]
            print_row(row)
            continue
        saved = os.path.join(run_folder(args, row), "row.json")
        if args.resume and os.path.exists(saved):
            with open(saved) as f:
                row.update(json.load(f))
            print_row(row)
            resumed += 1
            continue
        elapsed = time.time() - start
        done = index - resumed
        eta = "" if done == 0 else f", ETA {format_minutes(elapsed / done * (len(rows) - index))}"
        print(f"[{index + 1}/{len(rows)}] {row['model']} opset {row['opset']}{' dynamic' if row['dynamic'] else ''}"
              f" ({format_minutes(elapsed)} so far{eta})", file=sys.stderr, flush=True)
        export_start = time.time()
        path, reason = ensure_export(args, row["model"], row["opset"], row["dynamic"])
        row["export_s"] = round(time.time() - export_start, 1)
        if path is None:
            row["status"] = reason
        else:
            row["file"] = os.path.relpath(path, ROOT) if path.startswith(ROOT + os.sep) else path
            check_file(args, row, path)
            prune(args, path)
        if not row.get("status", "").startswith("export timed out"):  # a timeout may pass when the host is quiet
            os.makedirs(run_folder(args, row), exist_ok=True)
            with open(os.path.join(run_folder(args, row), "row.json"), "w") as f:
                json.dump(row, f)
        print_row(row)
        write_outputs(args, rows[:index + 1], messages)  # partial results survive an interrupted sweep
    write_outputs(args, rows, messages)
    print("\n" + summary(rows) + f"; {format_minutes(time.time() - start)} in all")
    print(f"wrote {os.path.join(args.out, 'coverage.md')}, coverage.csv, rows.jsonl, coverage-table.md and "
          "coverage-families.md")


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--models", nargs="+", help="torchvision model names (default: all CNNs)")
    parser.add_argument("--opsets", nargs="+", type=int, default=DEFAULT_OPSETS, help="opsets of the static exports")
    parser.add_argument("--quick", action="store_true", help=f"only {len(QUICK_MODELS)} representative models")
    parser.add_argument("--skip-export", action="store_true", help="only use files exported before")
    parser.add_argument("--no-dynamic", action="store_true", help="leave out the dynamic-batch exports")
    parser.add_argument("--threads", type=int, default=2, help="threads of ONNX Runtime and layoutopt")
    parser.add_argument("--out", default=os.path.join(ROOT, "out", "coverage"), help="output directory")
    parser.add_argument("--timeout", type=float, default=600, help="seconds per layoutopt or ONNX Runtime step")
    parser.add_argument("--export-timeout", type=float, default=1800, help="seconds per export")
    parser.add_argument("--bench-seconds", type=float, default=1.0, help="least timed seconds per runtime")
    parser.add_argument("--prune-mb", type=float, help="delete exports over this size once their row is done")
    parser.add_argument("--min-free-gb", type=float, default=20, help="start no export with less disk free")
    parser.add_argument("--resume", action="store_true", help="reuse the rows a stopped sweep finished")
    parser.add_argument("--optimize-seconds", type=float,
                        help="also run `layoutopt optimize --time-budget S` on each file and its plan")
    parser.add_argument("--optimize-timeout", type=float, default=1800, help="seconds per optimize")
    parser.add_argument("--layoutopt", default=DEFAULT_LAYOUTOPT, help="the layoutopt binary to check")
    parser.add_argument("--export-one", nargs=4, metavar=("MODEL", "OPSET", "DYNAMIC", "PATH"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.export_one is None:
        if not os.access(args.layoutopt, os.X_OK):
            fail(f"{args.layoutopt} is missing: build the project first (cmake --build build)")
        if shutil.which("node") is None or not os.path.isdir(os.path.join(ROOT, "bench", "peers", "node_modules",
                                                                            "onnxruntime-node")):
            fail("ONNX Runtime is missing: needs node and `bash scripts/install-deps.sh --peers`")
        if not all(7 <= opset <= 17 for opset in args.opsets):
            fail("torch 1.13 exports opsets 7 to 17")
    return args


def main():
    args = parse_args()
    if args.export_one:
        model, opset, dynamic, path = args.export_one
        export_one(model, int(opset), dynamic == "1", path)
        return
    os.makedirs(args.out, exist_ok=True)
    sweep(args)


if __name__ == "__main__":
    main()
