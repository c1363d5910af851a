// The sampled mode's countdown kept in a register (sampled_access_pass.cpp): decrementing the
// thread-local __parperf_mem_countdown in memory at every access chains consecutive accesses
// through it (store-to-load forwarding, 4 to 5 cycles each on x86-64, on top of the loop's own work).
// Instead each instrumented function works on a local copy, which the optimiser keeps in a register:
//
//   entry:               local = countdown
//   before each access:  if (--local == 0) { countdown = 0; __parperf_mem_sampled(...);
//                                             local = countdown; }
//   before each call:    countdown = local      after it:  local = countdown
//   before ret, resume:  countdown = local      at a landing pad:  local = countdown
//
// so that an unsampled access costs a register decrement and a branch not taken. The thread's
// countdown is exact whenever code outside the function can see it: at every call (the callee,
// instrumented or calling back into instrumented code, starts from the caller's count and leaves its
// own), at every exit, and around the slow path, which sets it. Hence the same accesses are sampled
// as with the countdown in memory, across calls, recursion, setjmp/longjmp (setjmp's second return
// reads the count longjmp's caller stored) and C++ exceptions (the frames a throw passes had stored
// the count before their calls; a landing pad reads it again). Only an exception raised by an
// instruction that is not a call (-fnon-call-exceptions) leaves a frame without storing its count:
// its decrements since its last call are lost, so later samples come that many accesses late.
// Signal handlers: an instrumented handler starts from the count the interrupted function last
// stored, and the interrupted function's next store overwrites what the handler counted (the
// handler's accesses then do not count towards the gap; docs/locality.md).
//
// What is a call: every call, invoke and inline asm, and the intrinsics that may become a library
// call (memcpy and its kind, whose implementation could be an instrumented function of the program);
// not the intrinsics that stay instructions.
#include <llvm/IR/BasicBlock.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/PromoteMemToReg.h>

#include <algorithm>
#include <iterator>
#include <vector>

#include "compiler_plugin/sampled_access.hpp"

namespace parperf::sampled {
namespace {

bool may_run_instrumented_code(const llvm::CallBase& call) {
  if (const auto* intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(&call))
    return llvm::IntrinsicInst::mayLowerToFunctionCall(intrinsic->getIntrinsicID());
  return true;
}

// The return right after `call` (a tail call, musttail or not), when there is one: the callee leaves
// the thread's countdown as the function must, so neither reading it back nor storing it again is
// needed, and a musttail call allows nothing between it and the return.
llvm::ReturnInst* return_after(llvm::CallBase& call) {
  auto* plain_call = llvm::dyn_cast<llvm::CallInst>(&call);
  if (plain_call == nullptr) return nullptr;
  if (plain_call->isMustTailCall()) return llvm::cast<llvm::ReturnInst>(call.getParent()->getTerminator());
  return llvm::dyn_cast_or_null<llvm::ReturnInst>(call.getNextNonDebugInstruction());
}

struct LocalCountdown {
  llvm::AllocaInst* local;
  llvm::GlobalVariable* countdown;

  void store_back(llvm::Instruction* before) const {
    llvm::IRBuilder<> builder(before);
    builder.CreateStore(builder.CreateLoad(builder.getInt32Ty(), local), countdown);
  }
  void reload(llvm::BasicBlock::iterator before) const {
    llvm::IRBuilder<> builder(before->getParent(), before);
    builder.CreateStore(builder.CreateLoad(builder.getInt32Ty(), countdown), local);
  }
};

}  // namespace

bool can_keep_local_countdown(const llvm::Function& function) {
  // Naked functions have no frame to keep it in; asm goto (callbr) and funclet-based exception
  // handling (Windows) have edges out of calls that the synchronisation below does not split.
  if (function.hasFnAttribute(llvm::Attribute::Naked)) return false;
  for (const llvm::BasicBlock& block : function)
    for (const llvm::Instruction& instruction : block)
      if (llvm::isa<llvm::CallBrInst>(instruction) ||
          (instruction.isEHPad() && !llvm::isa<llvm::LandingPadInst>(instruction)))
        return false;
  return true;
}

void instrument_with_local_countdown(llvm::Function& function, const std::vector<Access>& accesses,
                                     const Collector& collector) {
  // Where the function meets other code, gathered before any instruction is added.
  std::vector<llvm::CallBase*> calls;
  std::vector<llvm::Instruction*> exits;
  std::vector<llvm::BasicBlock*> landing_pads;
  for (llvm::BasicBlock& block : function)
    for (llvm::Instruction& instruction : block) {
      if (auto* call = llvm::dyn_cast<llvm::CallBase>(&instruction)) {
        if (may_run_instrumented_code(*call)) calls.push_back(call);
      } else if (llvm::isa<llvm::ReturnInst>(instruction) || llvm::isa<llvm::ResumeInst>(instruction)) {
        exits.push_back(&instruction);
      } else if (llvm::isa<llvm::LandingPadInst>(instruction)) {
        landing_pads.push_back(&block);
      }
    }

  llvm::BasicBlock& entry = function.getEntryBlock();
  llvm::IRBuilder<> at_entry(&entry, entry.getFirstInsertionPt());
  const LocalCountdown countdown{at_entry.CreateAlloca(at_entry.getInt32Ty(), nullptr, "parperf.countdown"),
                                 collector.countdown};
  at_entry.CreateStore(at_entry.CreateLoad(at_entry.getInt32Ty(), collector.countdown), countdown.local);

  std::vector<llvm::Instruction*> tail_returns;
  for (llvm::CallBase* call : calls) {
    countdown.store_back(call);
    if (llvm::ReturnInst* ret = return_after(*call)) {
      tail_returns.push_back(ret);
    } else if (auto* invoke = llvm::dyn_cast<llvm::InvokeInst>(call)) {
      // The normal destination may be reached from elsewhere, where the count was not stored.
      llvm::BasicBlock* after = invoke->getNormalDest();
      if (after->getSinglePredecessor() != invoke->getParent())
        after = llvm::SplitEdge(invoke->getParent(), after);
      countdown.reload(after->getFirstInsertionPt());
    } else {
      countdown.reload(std::next(call->getIterator()));
    }
  }
  // A landing pad is reached only from invokes, which all stored the count before the callee ran.
  for (llvm::BasicBlock* pad : landing_pads) countdown.reload(pad->getFirstInsertionPt());
  for (llvm::Instruction* exit : exits)
    if (std::find(tail_returns.begin(), tail_returns.end(), exit) == tail_returns.end())
      countdown.store_back(exit);

  for (const Access& access : accesses) {
    llvm::IRBuilder<> builder(access.instruction);
    llvm::Value* left =
        builder.CreateSub(builder.CreateLoad(builder.getInt32Ty(), countdown.local), builder.getInt32(1));
    builder.CreateStore(left, countdown.local);
    llvm::CallInst* slow_path =
        call_slow_path_if(builder.CreateICmpEQ(left, builder.getInt32(0)), access, collector);
    // The slow path reads the count as the thread's (0) and sets the next one.
    llvm::IRBuilder<>(slow_path).CreateStore(builder.getInt32(0), collector.countdown);
    countdown.reload(std::next(slow_path->getIterator()));
  }

  llvm::DominatorTree dominators(function);
  llvm::PromoteMemToReg({countdown.local}, dominators);
}

}  // namespace parperf::sampled
