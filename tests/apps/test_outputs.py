"""Output paths: no command replaces a file the user made unless told to (--force), and a
refused command leaves that file byte for byte as it was."""

import subprocess
import time

from cli_runner import BINARY, TIMEOUT_S, CliTestCase, digest
from inputs import TINY_INPUT_SHAPE, TINY_ONNX, write_npy

MODEL = str(TINY_ONNX)

# Commands whose -o names one file, with the flags they need; refused before any work.
WRITERS = {
    "export": ["export", MODEL],
    "dot": ["dot", MODEL],
    "gen-instance": ["gen-instance", "--nodes", "5"],
    "plan": ["plan", MODEL, "--model-costs"],
    "run": ["run", MODEL, "--input", "input.npy", "--threads", "1"],
    # The smallest budget, should a check be lost: the test then fails, but soon.
    "optimize": ["optimize", MODEL, "--threads", "1", "--time-budget", "1", "--calibrate-rounds", "0"],
}


class Overwrites(CliTestCase):
    def test_an_existing_output_is_refused_without_force_and_kept(self):
        write_npy(self.path("input.npy"), TINY_INPUT_SHAPE)
        for name in WRITERS:
            self.path(f"{name}.out").write_text(f"the user's {name} file\n")
        outcomes = self.run_all([[*args, "-o", f"{name}.out"] for name, args in WRITERS.items()])
        for name, outcome in zip(WRITERS, outcomes):
            with self.subTest(command=name):
                self.assert_failed(outcome, f"'{name}.out' exists", "--force")
                self.assertEqual(self.path(f"{name}.out").read_text(), f"the user's {name} file\n")
        self.assertFalse(self.path("out").exists(), "optimize made out/ before refusing")

    def test_force_replaces_the_output(self):
        self.path("tiny.json").write_text("old\n")
        self.expect_success("export", MODEL, "-o", "tiny.json", "--force", stdout=["wrote tiny.json"])
        self.assertIn("layoutopt-graph", self.path("tiny.json").read_text())

    def test_an_output_in_a_missing_folder_is_named(self):
        outcomes = self.run_all([[*WRITERS[name], "-o", "missing/out.file"] for name in ("export", "dot", "plan")])
        for outcome in outcomes:
            self.assert_failed(outcome, "folder 'missing' does not exist")

    def test_an_output_that_is_a_folder_is_refused_even_with_force(self):
        write_npy(self.path("input.npy"), TINY_INPUT_SHAPE)
        self.path("folder.out").mkdir()
        outcomes = self.run_all([[*WRITERS[name], "-o", "folder.out", "--force"] for name in WRITERS])
        for name, outcome in zip(WRITERS, outcomes):
            with self.subTest(command=name):
                self.assert_failed(outcome, "'folder.out' is a folder")

    def test_optimize_refuses_an_existing_summary_before_any_work(self):
        self.path("summary.json").write_text('{"mine": true}\n')
        before = digest(self.path("summary.json"))
        self.expect_failure(*WRITERS["optimize"], "--json-summary", "summary.json",
                            needles=["'summary.json' exists", "--force"])
        self.assert_unchanged(self.path("summary.json"), before)
        self.assertFalse(self.path("out").exists(), "optimize started before refusing")

    def test_optimize_refuses_an_existing_default_plan(self):
        (self.dir / "out" / "tiny-convnet").mkdir(parents=True)
        plan = self.path("out/tiny-convnet/plan.json")
        plan.write_text("{}\n")
        self.expect_failure(*WRITERS["optimize"], needles=["out/tiny-convnet/plan.json' exists"])
        self.assertEqual(plan.read_text(), "{}\n")
        self.assertFalse(self.path("out/tiny-convnet/tune.jsonl").exists(), "optimize tuned before refusing")

    def test_compare_refuses_a_folder_holding_a_report(self):
        for kept in ("report.html", "comparison.csv"):
            with self.subTest(file=kept):
                folder = self.path(f"report-{kept}")
                folder.mkdir()
                (folder / kept).write_text("the user's report\n")
                self.expect_failure("compare", "tiny.json", "-o", folder.name,
                                    needles=[f"{kept}' exists", "--force"])
                self.assertEqual((folder / kept).read_text(), "the user's report\n")


class CompileArtifacts(CliTestCase):
    """`compile -o DIR` replaces an artifact only with --force, touches nothing else in DIR, and
    writes beside DIR first, so that a failed or killed compile leaves the old artifact whole."""

    ARTIFACT = ("network.so", "program.bin", "weights.bin")

    def compile_tiny(self, folder: str, *extra) -> None:
        self.expect_success("compile", MODEL, "-o", folder, "--threads", "1", "--quiet", *extra, stdout=["artifact:"])

    def digests(self, folder: str) -> dict:
        return {name: digest(self.path(folder) / name) for name in self.ARTIFACT}

    def inodes(self, folder: str) -> dict:
        return {name: (self.path(folder) / name).stat().st_ino for name in self.ARTIFACT}

    def user_files(self, folder: str) -> None:
        """A folder and a file of the user's beside the artifact (an old compile removed DIR/objects)."""
        (self.path(folder) / "objects").mkdir()
        (self.path(folder) / "objects" / "notes.txt").write_text("the user's notes\n")
        (self.path(folder) / "README").write_text("the user's readme\n")

    def assert_user_files_kept(self, folder: str) -> None:
        self.assertEqual((self.path(folder) / "objects" / "notes.txt").read_text(), "the user's notes\n")
        self.assertEqual((self.path(folder) / "README").read_text(), "the user's readme\n")

    def test_an_existing_artifact_is_refused_without_force_and_kept(self):
        self.compile_tiny("tiny.aot")
        before = self.digests("tiny.aot")
        self.expect_failure("compile", MODEL, "-o", "tiny.aot", "--threads", "1", "--quiet",
                            needles=["holds an artifact", "--force"])
        self.assertEqual(self.digests("tiny.aot"), before)
        self.assertEqual(sorted(p.name for p in self.dir.iterdir()), ["tiny.aot"], "a staging folder was left")

    def test_force_replaces_only_the_artifacts_files(self):
        self.compile_tiny("tiny.aot")
        self.user_files("tiny.aot")
        before = self.inodes("tiny.aot")
        self.compile_tiny("tiny.aot", "--force")
        after = self.inodes("tiny.aot")
        for name in self.ARTIFACT:
            self.assertNotEqual(after[name], before[name], f"{name} was not replaced")
        self.assert_user_files_kept("tiny.aot")
        self.assertEqual(sorted(p.name for p in self.path("tiny.aot").iterdir()),
                         sorted([*self.ARTIFACT, "README", "objects"]))

    def test_a_folder_of_the_users_gets_the_artifact_beside_its_files(self):
        self.path("deploy").mkdir()
        self.user_files("deploy")
        self.compile_tiny("deploy")
        self.assert_user_files_kept("deploy")
        self.assertTrue(all((self.path("deploy") / name).is_file() for name in self.ARTIFACT))

    def test_force_swaps_a_folder_holding_only_an_artifact_whole(self):
        self.compile_tiny("tiny.aot")
        self.path("tiny.aot").chmod(0o750)
        self.compile_tiny("tiny.aot", "--force")
        self.assertEqual(self.path("tiny.aot").stat().st_mode & 0o777, 0o750, "the folder's permissions changed")
        self.assertEqual(sorted(p.name for p in self.dir.iterdir()), ["tiny.aot"], "a staging folder was left")

    def test_a_compile_killed_midway_leaves_the_old_artifact(self):
        self.compile_tiny("tiny.aot")
        before = self.digests("tiny.aot")
        # resnet-18 compiles for seconds: killed once it has started writing beside the artifact.
        process = subprocess.Popen([BINARY, "compile", "resnet-18", "-o", "tiny.aot", "--force", "--threads", "1",
                                    "--quiet"], cwd=self.dir, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + TIMEOUT_S
        while not list(self.dir.glob(".tiny.aot.partial-*")) and process.poll() is None:
            self.assertLess(time.monotonic(), deadline, "the compile never started writing")
            time.sleep(0.01)
        process.kill()
        process.wait()
        self.assertLess(process.returncode, 0, "the compile ended before it was killed")
        self.assertEqual(self.digests("tiny.aot"), before)
