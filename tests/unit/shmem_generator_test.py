#!/usr/bin/env python3
"""The OpenSHMEM wrapper generator (src/runtime/shmem/generate_wrappers.py) on headers written here:
each function gets the header's own signature and the finish its name rule gives, with the bytes
and partner a reader expects; a declared function the library does not export is skipped (and
named); a function no rule matches, or one without the argument its finish reads, stops the
generation naming the function.

Usage: shmem_generator_test.py <source directory>
"""
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(sys.argv[1]) / "src/runtime/shmem"))
sys.dont_write_bytecode = True
import generate_wrappers as g  # noqa: E402

HEADER = """
OSHMEM_DECLSPEC  void pshmem_int_put(int *target, const int *source, size_t len, int pe);
OSHMEM_DECLSPEC  void pshmem_ctx_long_iget(shmem_ctx_t ctx, long* target, const long* source, ptrdiff_t tst, ptrdiff_t sst, size_t len, int pe);
OSHMEM_DECLSPEC  void pshmem_putmem_nbi(void *target, const void *source, size_t len, int pe);
OSHMEM_DECLSPEC  void pshmem_double_p(double* addr, double value, int pe);
OSHMEM_DECLSPEC  void pshmem_set_lock(volatile long *lock);
OSHMEM_DECLSPEC  int pshmem_test_lock(volatile long *lock);
OSHMEM_DECLSPEC  void pshmem_clear_lock(volatile long *lock);
OSHMEM_DECLSPEC  void pshmem_int_wait_until(volatile int *addr, int cmp, int value);
OSHMEM_DECLSPEC void pshmem_broadcast64(void *target, const void *source, size_t nlong, int PE_root, int PE_start, int logPE_stride, int PE_size, long *pSync);
OSHMEM_DECLSPEC  void pshmem_barrier(int PE_start, int logPE_stride, int PE_size, long *pSync);
OSHMEM_DECLSPEC  void pshmem_barrier_all(void);
OSHMEM_DECLSPEC  int pshmem_my_pe(void);
OSHMEM_DECLSPEC  void pshmem_float_put(float *target, const float *source, size_t len, int pe);
"""


def generated(header, exported):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "pshmem.h"
        path.write_text(header)
        return g.wrappers_text([str(path)], exported)


def both(*names):
    return {n for name in names for n in (name, "p" + name)}


class Generator(unittest.TestCase):
    def setUp(self):
        self.text = generated(HEADER, both("shmem_int_put", "shmem_ctx_long_iget", "shmem_putmem_nbi",
                                           "shmem_double_p", "shmem_set_lock", "shmem_test_lock", "shmem_clear_lock",
                                           "shmem_int_wait_until",
                                           "shmem_broadcast64", "shmem_barrier", "shmem_barrier_all", "shmem_my_pe")
                              | {"pshmem_float_put"})

    def wrapper_of(self, name):
        start = self.text.find(f" {name}(")
        self.assertNotEqual(start, -1, f"no wrapper of {name}")
        return self.text[start:self.text.find("\n}", start)]

    def test_signatures_are_the_headers(self):
        self.assertIn("void shmem_set_lock(volatile long * lock)", self.text)
        self.assertIn("void shmem_int_wait_until(volatile int * addr, int cmp, int value)", self.text)

    def test_bytes_and_partner_of_remote_access(self):
        self.assertIn("finish_rma(call, format::OneSidedOperation::put, static_cast<std::uint64_t>(len) * sizeof(int), pe)",
                      self.wrapper_of("shmem_int_put"))
        self.assertIn("format::SiteKind::shmem_get,", self.wrapper_of("shmem_ctx_long_iget"))
        self.assertIn("static_cast<std::uint64_t>(len) * sizeof(long), pe)", self.wrapper_of("shmem_ctx_long_iget"))
        self.assertIn("format::SiteKind::shmem_put_nbi,", self.wrapper_of("shmem_putmem_nbi"))
        self.assertIn("static_cast<std::uint64_t>(len) * 1, pe)", self.wrapper_of("shmem_putmem_nbi"))
        self.assertIn("1 * sizeof(value), pe)", self.wrapper_of("shmem_double_p"))

    def test_waiting_calls_and_collectives(self):
        self.assertIn("finish_lock(call, lock, parperf::shmem::LockStep::wait_for_it, true)",
                      self.wrapper_of("shmem_set_lock"))
        # A test_lock took the lock when it returned 0; a clear_lock releases it: each names its lock.
        self.assertIn("finish_lock(call, lock, parperf::shmem::LockStep::try_it, result == 0)",
                      self.wrapper_of("shmem_test_lock"))
        self.assertIn("finish_lock(call, lock, parperf::shmem::LockStep::release, false)",
                      self.wrapper_of("shmem_clear_lock"))
        self.assertIn("finish_waiting(call)", self.wrapper_of("shmem_int_wait_until"))
        self.assertIn("static_cast<std::uint64_t>(nlong) * 8, PE_start + (PE_root << logPE_stride), "
                      "format::shmem_active_set_match(PE_start, logPE_stride, PE_size))",
                      self.wrapper_of("shmem_broadcast64"))

    def test_collectives_over_an_active_set_carry_it_as_their_match(self):
        self.assertIn("finish_waiting(call, format::shmem_active_set_match(PE_start, logPE_stride, PE_size))",
                      self.wrapper_of("shmem_barrier"))
        self.assertIn("finish_waiting(call);", self.wrapper_of("shmem_barrier_all"))

    def test_queries_are_not_wrapped_and_unexported_functions_are_skipped(self):
        self.assertNotIn(" shmem_my_pe(", self.text)
        self.assertNotIn(" shmem_float_put(", self.text.split("\n\n", 2)[-1])
        self.assertIn("not wrapped: shmem_float_put", self.text)

    def test_a_function_no_rule_matches_stops_the_generation_naming_it(self):
        with self.assertRaisesRegex(g.TableError, "shmem_frobnicate: no rule"):
            generated("OSHMEM_DECLSPEC void pshmem_frobnicate(int x);\n", both("shmem_frobnicate"))

    def test_a_put_without_a_target_pe_stops_the_generation_naming_it(self):
        with self.assertRaisesRegex(g.TableError, "shmem_int_put: has no parameter named pe"):
            generated("OSHMEM_DECLSPEC void pshmem_int_put(int *t, const int *s, size_t n, int where);\n",
                      both("shmem_int_put"))


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
