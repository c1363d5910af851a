// What the sampled mode's instrumentation of one function needs (sampled_access_pass.cpp): the
// accesses to count, the collector's symbols, and the out-of-line call of its slow path.
#pragma once

#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/Instruction.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Value.h>

#include <vector>

namespace parperf::sampled {

// A load or store the exact mode's hooks would see: its pointer and its code for the slow path
// (size in bytes | 256 for a store).
struct Access {
  llvm::Instruction* instruction;
  llvm::Value* pointer;
  unsigned code;
};

// libparperf-mem's side: the thread's countdown (an initial-exec TLS i32) and the slow path
// __parperf_mem_sampled(address, code), which records the access and sets the countdown.
struct Collector {
  llvm::GlobalVariable* countdown;
  llvm::FunctionCallee slow_path;
  llvm::MDNode* rarely;  // branch weights: the countdown expires about never
};

// Splits the access's block: when `due`, a cold block calls the slow path for the access, then
// joins the access. Returns the call, for what must surround it.
llvm::CallInst* call_slow_path_if(llvm::Value* due, const Access& access, const Collector& collector);

// The countdown kept in a local value of the function, in a register once promoted: the thread's
// countdown is read at entry and after every call, written before every call and exit
// (local_countdown.cpp). False for the functions whose control flow it does not handle.
bool can_keep_local_countdown(const llvm::Function& function);
void instrument_with_local_countdown(llvm::Function& function, const std::vector<Access>& accesses,
                                     const Collector& collector);

}  // namespace parperf::sampled
