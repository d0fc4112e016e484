#include "jit/jit_engine.h"

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Transforms/Scalar/EarlyCSE.h>
#include <llvm/Transforms/Scalar/SimplifyCFG.h>
#include <llvm/Transforms/Utils/Mem2Reg.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>

#include <cstdlib>

#include "jit/host_target.h"
#include "layoutopt/kernels/error.h"

namespace layoutopt::kernels::jit {

namespace {

template <typename T>
T unwrap(llvm::Expected<T> value, const std::string& what) {
  if (!value) throw KernelError(what + ": " + llvm::toString(value.takeError()));
  return std::move(*value);
}

llvm::orc::JITTargetMachineBuilder host_machine_builder(const HostTarget& host) {
  llvm::orc::JITTargetMachineBuilder builder{llvm::Triple(host.triple)};
  builder.setCPU(host.cpu);
  if (!host.features.empty()) {
    llvm::SmallVector<llvm::StringRef, 128> parts;
    llvm::StringRef(host.features).split(parts, ',');
    for (llvm::StringRef part : parts) builder.getFeatures().AddFeature(part);
  }
  builder.setCodeGenOptLevel(llvm::CodeGenOpt::Aggressive);
  return builder;
}

// LAYOUTOPT_JIT_DUMP=<dir> writes each optimized module to <dir>/<symbol>.ll, for reading
// the generated code (e.g. `llc-16 -mcpu=native -O3 <file>.ll` for the assembly).
void dump_if_requested(const llvm::Module& module, const std::string& symbol) {
  const char* directory = std::getenv("LAYOUTOPT_JIT_DUMP");
  if (directory == nullptr) return;
  std::error_code error;
  llvm::raw_fd_ostream file(std::string(directory) + "/" + symbol + ".ll", error);
  if (!error) module.print(file, nullptr);
}

void optimize(llvm::Module& module, llvm::TargetMachine& machine) {
  // The emitter already produces unrolled, vectorized code with constant offsets; all it needs
  // is promotion of the accumulator slots to registers, CSE of the address arithmetic and CFG
  // cleanup. The full O2 pipeline measured 20-50x slower here for no run-time gain.
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager cgscc;
  llvm::ModuleAnalysisManager modules;
  llvm::PassBuilder builder(&machine);
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(cgscc);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, cgscc, modules);
  llvm::FunctionPassManager passes;
  passes.addPass(llvm::PromotePass());
  passes.addPass(llvm::EarlyCSEPass());
  passes.addPass(llvm::SimplifyCFGPass());
  llvm::ModulePassManager pipeline;
  pipeline.addPass(llvm::createModuleToFunctionPassAdaptor(std::move(passes)));
  pipeline.run(module, modules);
}

/// The module's machine code as `machine` generates it: an object file (ELF) or assembly text.
llvm::SmallVector<char, 0> machine_code(llvm::Module& module, llvm::TargetMachine& machine,
                                        llvm::CodeGenFileType type = llvm::CGFT_ObjectFile) {
  llvm::SmallVector<char, 0> code;
  llvm::raw_svector_ostream stream(code);
  llvm::legacy::PassManager passes;
  if (machine.addPassesToEmitFile(passes, stream, nullptr, type))
    throw KernelError(type == llvm::CGFT_ObjectFile ? "the host target cannot emit object files"
                                                    : "the host target cannot emit assembly");
  passes.run(module);
  return code;
}

}  // namespace

JitEngine& JitEngine::instance() {
  static JitEngine engine;
  return engine;
}

JitEngine::JitEngine()
    : host_(detect_host_target()),
      machines_([this] {
        return unwrap(host_machine_builder(host_).createTargetMachine(), "creating the host target machine");
      }),
      object_machines_([this] {
        // The JIT's machine but position-independent: the objects go into a shared library.
        llvm::orc::JITTargetMachineBuilder builder = host_machine_builder(host_);
        builder.setRelocationModel(llvm::Reloc::PIC_);
        return unwrap(builder.createTargetMachine(), "creating the object target machine");
      }) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  data_layout_ = machines_.lease()->createDataLayout().getStringRepresentation();
  jit_ = unwrap(llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(host_machine_builder(host_)).create(),
                "creating the LLJIT");
}

void JitEngine::configure(llvm::Module& module) const {
  module.setTargetTriple(host_.triple);
  module.setDataLayout(data_layout_);
}

void JitEngine::configure(llvm::Function& function) const {
  const std::string bits = std::to_string(host_.vector_lanes * 32);
  function.addFnAttr("target-cpu", host_.cpu);
  function.addFnAttr("target-features", host_.features);
  function.addFnAttr("prefer-vector-width", bits);
  function.addFnAttr("min-legal-vector-width", bits);
}

void* JitEngine::compile(llvm::orc::ThreadSafeModule module, const std::string& symbol) {
  // Code generation happens here, outside the lock, with the machines the JIT itself would
  // use (same builder: CPU, features, optimization level, code model); the JIT only links.
  llvm::SmallVector<char, 0> object;
  module.withModuleDo([this, &symbol, &object](llvm::Module& m) {
    std::string problems;
    llvm::raw_string_ostream stream(problems);
    if (llvm::verifyModule(m, &stream)) throw KernelError("generated IR for " + symbol + " is invalid: " + problems);
    TargetMachinePool::Lease machine = machines_.lease();
    optimize(m, *machine);
    dump_if_requested(m, symbol);
    if (retaining_ir()) {
      std::string bitcode;
      llvm::raw_string_ostream out(bitcode);
      llvm::WriteBitcodeToFile(m, out);
      std::lock_guard<std::mutex> lock(mutex_);
      if (retain_ir_) retained_ir_[symbol] = std::move(out.str());
    }
    object = machine_code(m, *machine);
  });
  std::lock_guard<std::mutex> lock(mutex_);
  if (llvm::Error error = jit_->addObjectFile(llvm::MemoryBuffer::getMemBufferCopy(
          llvm::StringRef(object.data(), object.size()), symbol)))
    throw KernelError("adding " + symbol + " to the JIT: " + llvm::toString(std::move(error)));
  const llvm::orc::ExecutorAddr address = unwrap(jit_->lookup(symbol), "linking " + symbol);
  return address.toPtr<void*>();
}

void JitEngine::retain_ir(bool on) {
  std::lock_guard<std::mutex> lock(mutex_);
  retain_ir_ = on;
  if (!on) retained_ir_.clear();
}

bool JitEngine::retaining_ir() {
  std::lock_guard<std::mutex> lock(mutex_);
  return retain_ir_;
}

bool JitEngine::has_retained_ir(const std::string& symbol) {
  std::lock_guard<std::mutex> lock(mutex_);
  return retained_ir_.contains(symbol);
}

std::unique_ptr<llvm::Module> JitEngine::retained_module(const std::string& symbol, llvm::LLVMContext& context) {
  std::string bitcode;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto found = retained_ir_.find(symbol);
    if (found == retained_ir_.end()) throw KernelError("the IR of " + symbol + " was not retained");
    bitcode = found->second;
  }
  return unwrap(llvm::parseBitcodeFile(llvm::MemoryBufferRef(bitcode, symbol), context), "reading the IR of " + symbol);
}

std::string JitEngine::emit_object(const std::string& symbol) {
  llvm::LLVMContext context;
  const std::unique_ptr<llvm::Module> module = retained_module(symbol, context);
  const llvm::SmallVector<char, 0> object = machine_code(*module, *object_machines_.lease());
  return {object.begin(), object.end()};
}

std::string JitEngine::emit_assembly(const std::string& symbol) {
  llvm::LLVMContext context;
  const std::unique_ptr<llvm::Module> module = retained_module(symbol, context);
  // The JIT's own machine (not the position-independent one), so the registers are allocated
  // as in the code that runs; verbose, so the allocator's spills and the loops are annotated.
  llvm::orc::JITTargetMachineBuilder builder = host_machine_builder(host_);
  llvm::TargetOptions options;
  options.MCOptions.AsmVerbose = true;
  builder.setOptions(options);
  const std::unique_ptr<llvm::TargetMachine> machine = unwrap(builder.createTargetMachine(), "creating an assembly target machine");
  const llvm::SmallVector<char, 0> text = machine_code(*module, *machine, llvm::CGFT_AssemblyFile);
  return {text.begin(), text.end()};
}

}  // namespace layoutopt::kernels::jit
