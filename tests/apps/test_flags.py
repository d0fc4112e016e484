"""Flag values: negative or zero counts, unknown names and non-numbers are refused by the
parser before any work, naming the flag and what it needs."""

from cli_runner import CliTestCase
from inputs import TINY_INPUT_SHAPE, TINY_ONNX, write_npy

MODEL = str(TINY_ONNX)

# (command line, words the error must contain)
BAD_FLAGS = [
    (["info", MODEL, "--batch", "-1"], ["--batch", "-1 is not a positive number"]),
    (["info", MODEL, "--threads", "-2"], ["--threads", "-2 is not a positive number"]),
    (["info", MODEL, "--threads", "0"], ["--threads", "0 is not a positive number"]),
    (["info", MODEL, "--seed", "abc"], ["--seed", "abc"]),
    (["cpu", "--threads", "-1"], ["--threads", "-1 is not a positive number"]),
    (["tune", MODEL, "--records", "r.jsonl", "--trials", "-5"], ["--trials", "-5 is not a positive number"]),
    (["tune", MODEL, "--records", "r.jsonl", "--time-budget", "0"], ["--time-budget", "0 is not a positive number"]),
    (["tune", MODEL, "--records", "r.jsonl", "--trials", "1", "--threads", "-1"], ["--threads"]),
    (["tune", MODEL, "--records", "r.jsonl", "--trials", "1", "--early-stopping", "-1"],
     ["--early-stopping", "-1 is not zero or a positive number"]),
    (["tune", MODEL, "--records", "r.jsonl", "--trials", "1", "--task", "99"],
     ["task 99 does not exist", "5 tasks"]),
    (["tune", MODEL, "--records", "r.jsonl"], ["give a budget"]),
    (["tune", MODEL, "--records", "r.jsonl", "--trials", "1", "--time-budget", "5"], ["--time-budget", "--trials"]),
    (["bench-transforms", MODEL, "-o", "t.json", "--threads", "-1"], ["--threads", "-1 is not a positive number"]),
    (["bench-transforms", MODEL, "-o", "t.json", "--min-repeat-ms", "0"], ["--min-repeat-ms"]),
    (["plan", MODEL, "--model-costs", "-o", "p.json", "--solver", "greedy"], ["--solver", "greedy"]),
    (["plan", MODEL, "--model-costs", "-o", "p.json", "--threads", "-4"], ["--threads", "-4 is not a positive number"]),
    (["plan", MODEL, "--model-costs", "-o", "p.json", "--time-limit", "-1"],
     ["--time-limit", "-1 is not zero or a positive number"]),
    (["plan", MODEL, "-o", "p.json"], ["give --records"]),
    (["plan", MODEL, "-o", "p.json", "--records", "r.jsonl"], ["give --transforms"]),
    (["plan", MODEL, "--model-costs", "--records", "r.jsonl", "-o", "p.json"], ["--model-costs", "--records"]),
    (["run", MODEL, "--input", "input.npy", "-o", "o.npy", "--threads", "-1"], ["--threads", "-1 is not a positive"]),
    (["run", MODEL, "--input", "input.npy", "-o", "o.npy", "--batch", "-2"], ["--batch", "-2 is not a positive"]),
    (["bench", MODEL, "--threads", "-1"], ["--threads", "-1 is not a positive number"]),
    (["bench", MODEL, "--min-seconds", "-3"], ["--min-seconds", "-3 is not a positive number"]),
    (["bench", MODEL, "--batch", "0"], ["--batch", "0 is not a positive number"]),
    (["optimize", MODEL, "--budget", "huge"], ["--budget", "huge", "quick"]),
    (["optimize", MODEL, "--budget", ""], ["--budget"]),
    (["optimize", MODEL, "--time-budget", "-5"], ["--time-budget", "-5 is not a positive number"]),
    (["optimize", MODEL, "--threads", "-1"], ["--threads", "-1 is not a positive number"]),
    (["optimize", MODEL, "--calibrate-rounds", "-1"], ["--calibrate-rounds", "-1 is not zero or a positive"]),
    (["optimize", MODEL, "--budget", "quick", "--time-budget", "5"], ["--time-budget", "--budget"]),
    (["gen-instance", "--nodes", "-3", "-o", "i.json"], ["--nodes", "-3 is not a positive number"]),
    (["gen-instance", "--candidates", "0", "-o", "i.json"], ["--candidates", "0 is not a positive number"]),
    (["gen-instance", "--structure", "weird", "-o", "i.json"], ["--structure", "weird", "residual"]),
    (["gen-instance", "--forbidden", "1.5", "-o", "i.json"], ["--forbidden", "1.5"]),
    (["gen-instance", "--nodes", "5"], ["-o"]),
    (["solve", "instance.json", "--solver", "nosuch"], ["--solver", "nosuch", "pbqp"]),
    (["solve", "instance.json", "--time-limit", "-1"], ["--time-limit", "-1 is not zero or a positive number"]),
    (["solve", "instance.json", "--memory-budget", "0"], ["--memory-budget", "0 is not a positive number"]),
    (["compare", MODEL, "--solvers", "nosuch", "-o", "report"], ["unknown solver 'nosuch'"]),
    (["compare", MODEL, "--candidates", "0", "-o", "report"], ["--candidates", "0 is not a positive number"]),
    (["no-such-command"], ["unknown subcommand 'no-such-command'"]),
    ([], ["subcommand"]),
]


class BadFlags(CliTestCase):
    def test_bad_flag_values_are_refused_naming_the_flag(self):
        write_npy(self.path("input.npy"), TINY_INPUT_SHAPE)
        self.path("instance.json").write_text("{}\n")
        for (args, needles), outcome in zip(BAD_FLAGS, self.run_all([args for args, _ in BAD_FLAGS])):
            with self.subTest(args=" ".join(args)):
                self.assert_failed(outcome, *needles)
        # Refused before any work: nothing was written.
        self.assertEqual(sorted(p.name for p in self.dir.iterdir()), ["input.npy", "instance.json"])
