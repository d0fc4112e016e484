"""`run` on a NumPy input: a tensor of the wrong shape or type, a damaged or missing file is
refused naming the file and what the model needs; a right one runs."""

from cli_runner import CliTestCase
from inputs import TINY_INPUT_SHAPE, TINY_ONNX, TINY_OUTPUT_SHAPE, random_bytes, read_npy_shape, truncated_copy, write_npy

MODEL = str(TINY_ONNX)


class RunInputs(CliTestCase):
    def run_on(self, input_name):
        return ["run", MODEL, "--input", input_name, "-o", "output.npy", "--threads", "1"]

    def test_wrong_inputs_are_refused_naming_the_problem(self):
        write_npy(self.path("small.npy"), (1, 3, 8, 8))
        write_npy(self.path("rank3.npy"), (3, 16, 16))
        write_npy(self.path("batch2.npy"), (2, 3, 16, 16))
        write_npy(self.path("int.npy"), TINY_INPUT_SHAPE, "<i4")
        write_npy(self.path("half.npy"), TINY_INPUT_SHAPE, "<f2")
        truncated_copy(write_npy(self.path("whole.npy"), TINY_INPUT_SHAPE), self.path("cut.npy"), keep=0.9)
        truncated_copy(self.path("whole.npy"), self.path("header.npy"), keep=0.01)
        random_bytes(self.path("random.npy"))
        inputs = {
            "small.npy": ["'small.npy' has shape [1, 3, 8, 8]", "needs [1, 3, 16, 16]"],
            "rank3.npy": ["'rank3.npy' has shape [3, 16, 16]"],
            "batch2.npy": ["'batch2.npy' has shape [2, 3, 16, 16]"],
            "int.npy": ["'int.npy' holds dtype '<i4'", "float32"],
            "half.npy": ["'half.npy' holds dtype '<f2'"],
            "cut.npy": ["'cut.npy'"],
            "header.npy": ["'header.npy' is truncated"],
            "random.npy": ["'random.npy'"],
            "missing.npy": ["--input", "missing.npy"],
        }
        outcomes = self.run_all([self.run_on(name) for name in inputs])
        for (name, needles), outcome in zip(inputs.items(), outcomes):
            with self.subTest(input=name):
                self.assert_failed(outcome, *needles)
        self.assertFalse(self.path("output.npy").exists())

    def test_a_right_input_runs_and_matches_the_reference(self):
        write_npy(self.path("input.npy"), TINY_INPUT_SHAPE)
        outcome = self.expect_success(*self.run_on("input.npy"), "--check",
                                      stdout=["default schedule", "-> output.npy", "largest difference"])
        self.assertEqual(read_npy_shape(self.path("output.npy")), TINY_OUTPUT_SHAPE, outcome.describe())
