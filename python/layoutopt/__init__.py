"""layoutopt from Python: run compiled CNNs on NumPy arrays, plan and tune them, and solve
layout cost problems.

    import numpy as np, layoutopt
    session = layoutopt.Session.load("out/resnet-18-aot")          # ahead-of-time artifact
    session = layoutopt.Session.compile("resnet-18", plan="plan.json", threads=2)  # or the JIT
    x = np.zeros(session.inputs[0].shape, dtype=np.float32)
    (logits,) = session.run(x)

Inputs must be float32 of the input's shape (TypeError / ValueError otherwise, never a silent
conversion); a C-contiguous array is read in place, any other float32 array copied once. The
outputs are new arrays the network writes into. Every error of the C++ libraries is a
layoutopt.Error (GraphError, PlanError, SolverError, ArtifactError, KernelError, NpyError,
...) carrying the C++ message.

compile(), optimize(), plan() and tune() call what the CLI commands of the same names call, with
keyword arguments named after their flags, and return the figures they print as dicts;
progress goes to stderr. Problem, load_instance, generate_instance and solve() give the
solvers (dp, pbqp, exact, greedy, toulbar2) to notebooks.
"""

from ._layoutopt import (  # noqa: F401  (the public API, re-exported)
    ArtifactError,
    Error,
    GraphError,
    KernelError,
    LayoutError,
    NpyError,
    PlanError,
    Problem,
    RecordError,
    Session,
    Solution,
    SolverError,
    TensorSpec,
    XGBoostError,
    compile,
    generate_instance,
    load_instance,
    optimize,
    plan,
    save_instance,
    solve,
    solver_names,
    tune,
)

__all__ = [
    "ArtifactError", "Error", "GraphError", "KernelError", "LayoutError", "NpyError", "PlanError", "Problem",
    "RecordError", "Session", "Solution", "SolverError", "TensorSpec", "XGBoostError", "compile", "generate_instance",
    "load_instance", "optimize", "plan", "save_instance", "solve", "solver_names", "tune",
]
