#include "layoutopt/kernels/register_spills.h"

#include <map>
#include <optional>
#include <string>

#include "jit/jit_engine.h"
#include "jit/retained_ir.h"

namespace layoutopt::kernels {

namespace {

std::string_view trim_left(std::string_view text) {
  const size_t first = text.find_first_not_of(" \t");
  return first == std::string_view::npos ? std::string_view{} : text.substr(first);
}

/// The block a label line opens, by the name loop annotations use ("BB0_5" for ".LBB0_5:");
/// "" for a fall-through block ("# %bb.2:"), which no annotation names; nullopt for other lines.
std::optional<std::string> block_label(std::string_view line) {
  if (line.starts_with(".LBB")) return std::string(line.substr(2, line.find(':') - 2));
  if (line.starts_with("# %bb.")) return std::string();
  return std::nullopt;
}

/// The loop a block's annotation line puts it in: its own name when it heads one.
std::optional<std::string> annotated_loop(std::string_view comment, const std::string& block) {
  if (comment.find("Loop Header: Depth=") != std::string_view::npos) return block;
  constexpr std::string_view kInLoop = "in Loop: Header=";
  const size_t at = comment.find(kInLoop);
  if (at == std::string_view::npos) return std::nullopt;
  const std::string_view rest = comment.substr(at + kInLoop.size());
  return std::string(rest.substr(0, rest.find(' ')));
}

bool is_fma(std::string_view instruction) {
  for (std::string_view mnemonic : {"vfmadd", "vfmsub", "vfnmadd", "vfnmsub"})
    if (instruction.starts_with(mnemonic)) return true;
  return false;
}

/// A spill or reload of a vector register: LLVM annotates it "16-byte", "32-byte" or
/// "64-byte Spill" / "Reload" / "Folded Reload" (8 bytes and less: general registers).
bool is_vector_stack_move(std::string_view instruction) {
  const size_t comment = instruction.find('#');
  if (comment == std::string_view::npos) return false;
  const std::string_view note = instruction.substr(comment);
  if (note.find("Spill") == std::string_view::npos && note.find("Reload") == std::string_view::npos) return false;
  for (std::string_view width : {"16-byte", "32-byte", "64-byte"})
    if (note.find(width) != std::string_view::npos) return true;
  return false;
}

}  // namespace

LoopSpills count_loop_spills(std::string_view assembly) {
  std::map<std::string, LoopSpills> loops;  // by header block
  std::string block;
  std::optional<std::string> loop;  // of the current block
  while (!assembly.empty()) {
    const size_t end = assembly.find('\n');
    const std::string_view line = assembly.substr(0, end);
    assembly = end == std::string_view::npos ? std::string_view{} : assembly.substr(end + 1);
    if (const std::optional<std::string> label = block_label(line)) {
      block = *label;
      loop.reset();
      continue;
    }
    const std::string_view text = trim_left(line);
    if (text.starts_with("#")) {
      if (const std::optional<std::string> annotated = annotated_loop(text, block)) loop = annotated;
      continue;
    }
    if (!loop || text.starts_with(".") || text.empty()) continue;  // outside loops, directives
    LoopSpills& counts = loops[*loop];
    counts.fmas += is_fma(text) ? 1 : 0;
    counts.vector_moves += is_vector_stack_move(text) ? 1 : 0;
  }
  LoopSpills total;
  for (const auto& [header, counts] : loops)
    if (counts.fmas > 0) total += counts;
  return total;
}

std::vector<LoopSpills> register_spills(const std::function<Kernel()>& compile) {
  const jit::RetainedIr retained;
  const Kernel kernel = compile();
  std::vector<LoopSpills> stages;
  for (const KernelStage& stage : kernel.stages())
    stages.push_back(count_loop_spills(jit::JitEngine::instance().emit_assembly(stage.compiled->name)));
  return stages;
}

}  // namespace layoutopt::kernels
