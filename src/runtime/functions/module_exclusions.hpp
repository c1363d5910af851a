// The functions a module's built-in filter excludes (format/excluded_functions.hpp): the section
// the compiler wrapper added to the executable or library, read from its file the first time one
// of its functions is entered.
#pragma once

namespace parperf::functions {

// True when the module that holds the function at `fn` lists it as excluded. Cold path: the first
// call for a module reads its section headers and the list (a few system calls, private memory);
// later calls are a binary search. Not thread-safe: the caller serialises (function_table.cpp).
bool excluded_by_module_filter(const void* fn) noexcept;

}  // namespace parperf::functions
