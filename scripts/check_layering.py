#!/usr/bin/python3
"""Checks that the libraries depend on each other one way only, as the architecture says.

  python3 scripts/check_layering.py

Every source and header of a library may include the public headers ("layoutopt/<lib>/...")
of itself and of the libraries listed for it in ALLOWED, nothing else: cpu/ (the CPU
feature detector) knows nothing and everyone may use it, graph/ knows nothing
of kernels, solvers/ knows only cost problems, planning links no LLVM or XGBoost (it may read
the kernels' data-only schedule header), measure/ runs timing <- tuning <- costs <-
evaluation, distributed (the measurement farm) sits on tuning and costs, pipeline/ sits on
top of measure/ (nothing in measure/ may include it), and mpi/ (the MPI front end) on top of
pipeline/.
Exits 1 naming every include that breaks the rule, 0 otherwise.
"""

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
INCLUDE = re.compile(r'^\s*#\s*include\s*"layoutopt/(\w+)/([^"]+)"', re.MULTILINE)

# The CPU feature detector: every library may include it, and it includes none (ALLOWED).
EVERYONE = {"cpu"}
# library folder -> the libraries (by include prefix) it may include besides itself and EVERYONE
ALLOWED = {
    "cpu": set(),
    "layout": set(),
    "graph": {"layout"},
    "solvers": set(),
    # runtime: runs compiled networks (JIT or ahead of time) without LLVM or the graph
    "runtime": {"layout"},
    "kernels": {"runtime", "layout", "graph"},
    "measure/timing": {"graph", "layout"},
    "measure/planning": {"graph", "layout", "solvers"},
    "measure/tuning": {"timing", "kernels", "graph", "layout"},
    "measure/costs": {"timing", "tuning", "planning", "kernels", "graph", "layout", "solvers"},
    "measure/evaluation": {"timing", "tuning", "planning", "costs", "kernels", "graph", "layout", "solvers"},
    # distributed: the measurement farm (configs and transform passes) and host-fact check, on
    # tuning and costs; no MPI (mpi/ carries it)
    "measure/distributed": {"timing", "tuning", "costs", "planning", "kernels", "graph", "layout", "solvers"},
    # pipeline: also runtime, whose Session interface (TensorSpec, TensorView) JitSession serves
    "pipeline": {"timing", "tuning", "planning", "costs", "evaluation", "kernels", "graph", "layout",
                 "solvers", "runtime"},
    # mpi: the MPI front end of tuning, above pipeline (nothing below may include it)
    "mpi": {"pipeline", "distributed", "timing", "tuning", "planning", "costs", "evaluation", "kernels", "graph",
            "layout", "solvers", "runtime"},
}
# Headers a library may include from a library it does not link: data-only, no code behind them
# (kernel_schedule, the kernels' header-only target: schedules and knob declarations).
DATA_ONLY = {("measure/planning", "kernels", "network/network_schedule.h"),
             ("measure/planning", "kernels", "knob_table.h")}


def own_prefix(folder):
    return folder.split("/")[-1]


def violations():
    for folder, allowed in ALLOWED.items():
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix not in (".h", ".cpp"):
                continue
            for lib, header in INCLUDE.findall(path.read_text()):
                if lib == own_prefix(folder) or lib in EVERYONE or lib in allowed or (folder, lib, header) in DATA_ONLY:
                    continue
                yield f"{path.relative_to(ROOT)}: includes layoutopt/{lib}/{header}, but {folder} may not depend on {lib}"


def main():
    found = list(violations())
    for line in found:
        print(line)
    missing = [folder for folder in ALLOWED if not (ROOT / folder).is_dir()]
    for folder in missing:
        print(f"{folder}: listed in ALLOWED but not a folder (update scripts/check_layering.py)")
    print(f"check_layering: {len(found)} include(s) against the layering" if found or missing
          else f"check_layering: {len(ALLOWED)} libraries, dependencies one way")
    return 1 if found or missing else 0


if __name__ == "__main__":
    sys.exit(main())
