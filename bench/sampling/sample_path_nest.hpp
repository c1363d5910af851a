// A chain of `depth` calls built -O2 without frame pointers, `at_the_end.call(state)` at its end.
#pragma once

struct NestedCall {
  void (*call)(void* state);
  void* state;
};

int nest_without_frame_pointers(int depth, const NestedCall& at_the_end);
