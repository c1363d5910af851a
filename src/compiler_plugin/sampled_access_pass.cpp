// The LLVM pass of `parperf cc --sampled` (clang-16 -fpass-plugin=libparperf-mem-pass.so): every load
// and store of the instrumented functions is preceded by an inline countdown,
//
//   if (--__parperf_mem_countdown == 0) __parperf_mem_sampled(address, size | store << 8);
//
// __parperf_mem_countdown is libparperf-mem's thread-local; only a sampled access calls the collector
// (runtime/memory/burst_sampling.cpp), which records it and sets the countdown to the next access it
// wants (the next one within a burst, a random gap after it). The call stays in a cold block apart
// from the access, so the hot path keeps its registers. The slow path finds the access's code
// address from its own return address, as the exact mode's hooks do.
//
// Where the count lives: in a local value of each instrumented function, in a register, synchronised
// with the thread-local at calls and exits (local_countdown.cpp), so that an unsampled access costs a
// register decrement and a branch not taken. Functions whose control flow that does not handle (asm
// goto, Windows exception funclets, naked functions) decrement the thread-local itself (initial-exec:
// one %fs-relative read-modify-write per access). Both sample exactly the same accesses.
//
// Which accesses: the same as clang's -fsanitize-coverage=trace-loads,trace-stores (the exact mode),
// so both modes see the same stream: loads and stores of 1, 2, 4, 8 or 16 bytes in functions with a
// body, after the optimiser (the optimizer-last extension point, where the sanitizers run).
// PARPERF_MEM_ONLY=FILE (set by `parperf cc --only`) names the functions to instrument, one per line.
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Passes/PassPlugin.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

#include <cstdlib>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "compiler_plugin/sampled_access.hpp"

namespace parperf::sampled {

llvm::CallInst* call_slow_path_if(llvm::Value* due, const Access& access, const Collector& collector) {
  llvm::Instruction* then = llvm::SplitBlockAndInsertIfThen(due, access.instruction, false, collector.rarely);
  llvm::IRBuilder<> cold(then);
  // The call carries the access's debug location, so a sampled access is placed at its line.
  cold.SetCurrentDebugLocation(access.instruction->getDebugLoc());
  return cold.CreateCall(collector.slow_path, {access.pointer, cold.getInt32(access.code)});
}

}  // namespace parperf::sampled

namespace {

using parperf::sampled::Access;
using parperf::sampled::Collector;

constexpr const char* kCountdown = "__parperf_mem_countdown";
constexpr const char* kSlowPath = "__parperf_mem_sampled";
constexpr unsigned kStoreFlag = 1u << 8;

std::set<std::string> only_functions() {
  std::set<std::string> names;
  const char* file = std::getenv("PARPERF_MEM_ONLY");
  if (file == nullptr || *file == '\0') return names;
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) names.insert(line);
  return names;
}

struct SampledAccessPass : llvm::PassInfoMixin<SampledAccessPass> {
  llvm::PreservedAnalyses run(llvm::Module& module, llvm::ModuleAnalysisManager&) {
    const std::set<std::string> only = only_functions();
    bool changed = false;
    for (llvm::Function& function : module) {
      if (!instrumentable(function)) continue;
      if (!only.empty() && !only.contains(function.getName().str())) continue;
      changed |= instrument(function);
    }
    return changed ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
  }

  static bool isRequired() { return true; }  // also at -O0

 private:
  static bool instrumentable(const llvm::Function& function) {
    if (function.isDeclaration() || function.hasAvailableExternallyLinkage()) return false;
    if (function.hasFnAttribute(llvm::Attribute::NoSanitizeCoverage)) return false;
    return !function.getName().starts_with("__parperf_") && !function.getName().starts_with("__sanitizer_");
  }

  // size | store flag for an access of `type`, 0 when the exact mode's hooks would skip it too.
  static unsigned access_code(const llvm::DataLayout& layout, llvm::Type* type, bool store) {
    const std::uint64_t bits = layout.getTypeStoreSizeInBits(type);
    if (bits != 8 && bits != 16 && bits != 32 && bits != 64 && bits != 128) return 0;
    return static_cast<unsigned>(bits / 8) | (store ? kStoreFlag : 0);
  }

  static std::vector<Access> accesses_of(llvm::Function& function) {
    const llvm::DataLayout& layout = function.getParent()->getDataLayout();
    std::vector<Access> accesses;
    for (llvm::BasicBlock& block : function)
      for (llvm::Instruction& instruction : block) {
        if (auto* load = llvm::dyn_cast<llvm::LoadInst>(&instruction)) {
          if (unsigned code = access_code(layout, load->getType(), false))
            accesses.push_back({load, load->getPointerOperand(), code});
        } else if (auto* store = llvm::dyn_cast<llvm::StoreInst>(&instruction)) {
          if (unsigned code = access_code(layout, store->getValueOperand()->getType(), true))
            accesses.push_back({store, store->getPointerOperand(), code});
        }
      }
    return accesses;
  }

  static Collector collector(llvm::Module& module) {
    llvm::LLVMContext& context = module.getContext();
    auto* int32 = llvm::Type::getInt32Ty(context);
    auto* countdown = llvm::cast<llvm::GlobalVariable>(module.getOrInsertGlobal(kCountdown, int32));
    // The library is linked into the program, never dlopen'ed: initial-exec, without a
    // __tls_get_addr call even in a shared library of the program.
    countdown->setThreadLocalMode(llvm::GlobalValue::InitialExecTLSModel);
    auto* slow_path_type = llvm::FunctionType::get(llvm::Type::getVoidTy(context),
                                                   {llvm::PointerType::getUnqual(context), int32}, false);
    return {countdown, module.getOrInsertFunction(kSlowPath, slow_path_type),
            llvm::MDBuilder(context).createBranchWeights(1, 1u << 20)};
  }

  static bool instrument(llvm::Function& function) {
    const std::vector<Access> accesses = accesses_of(function);
    if (accesses.empty()) return false;
    const Collector runtime = collector(*function.getParent());
    // The function now writes the thread's countdown, whatever the optimiser had inferred from its
    // body: nothing after this pass (a link-time optimiser) may move its callers' accesses of the
    // countdown across calls of it.
    function.removeFnAttr(llvm::Attribute::Memory);
    if (parperf::sampled::can_keep_local_countdown(function)) {
      parperf::sampled::instrument_with_local_countdown(function, accesses, runtime);
      return true;
    }
    for (const Access& access : accesses) {
      llvm::IRBuilder<> builder(access.instruction);
      llvm::Value* left =
          builder.CreateSub(builder.CreateLoad(builder.getInt32Ty(), runtime.countdown), builder.getInt32(1));
      builder.CreateStore(left, runtime.countdown);
      parperf::sampled::call_slow_path_if(builder.CreateICmpEQ(left, builder.getInt32(0)), access, runtime);
    }
    return true;
  }
};

}  // namespace

extern "C" LLVM_ATTRIBUTE_WEAK llvm::PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {
      LLVM_PLUGIN_API_VERSION, "parperf-sampled-accesses", "1", [](llvm::PassBuilder& builder) {
        builder.registerOptimizerLastEPCallback([](llvm::ModulePassManager& passes, llvm::OptimizationLevel) {
          passes.addPass(SampledAccessPass());
        });
      }};
}
