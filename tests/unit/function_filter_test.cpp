// The function filter (format/function_filter.hpp): globs, lines, the last matching rule deciding;
// and the part the compiler wrapper hands to gcc (cli/function_filter_file.hpp), which must never
// exclude a function the whole filter keeps.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "cli/function_filter_file.hpp"
#include "format/function_filter.hpp"
#include "support/temp_dir.hpp"

namespace parperf {
namespace {

using format::FilterAction;
using format::FilterLine;
using format::FilterRule;
using format::FilterTarget;
using format::glob_matches;

TEST(FunctionFilterGlob, StarSpansEveryCharacterAndQuestionMarkOne) {
  EXPECT_TRUE(glob_matches("std::*", "std::vector<int, std::allocator<int> >::operator[](unsigned long)"));
  EXPECT_FALSE(glob_matches("std::*", "shapes::area(double, double)"));
  EXPECT_TRUE(glob_matches("/usr/include/*", "/usr/include/c++/12/bits/stl_vector.h"));
  EXPECT_TRUE(glob_matches("get_*", "get_"));
  EXPECT_FALSE(glob_matches("get_*", "xget_value"));
  EXPECT_TRUE(glob_matches("*::operator[](*", "v::operator[](unsigned long)"));
  EXPECT_TRUE(glob_matches("h?lper", "helper"));
  EXPECT_FALSE(glob_matches("h?lper", "hlper"));
  EXPECT_TRUE(glob_matches("*a*b*c", "xxaxxbxxbc"));  // backtracking past a false start
  EXPECT_FALSE(glob_matches("*a*b*c", "xxaxxbxxb"));
  EXPECT_TRUE(glob_matches("*", ""));
  EXPECT_FALSE(glob_matches("", "x"));
  EXPECT_TRUE(glob_matches("exact", "exact"));
  EXPECT_FALSE(glob_matches("exact", "exactly"));
}

TEST(FunctionFilterLines, RulesCommentsAndErrors) {
  const FilterLine rule = format::parse_filter_line("  exclude   function  (anonymous namespace)::f  ");
  ASSERT_EQ(rule.status, FilterLine::Status::rule);
  EXPECT_EQ(rule.rule.action, FilterAction::exclude);
  EXPECT_EQ(rule.rule.target, FilterTarget::function);
  EXPECT_EQ(rule.rule.pattern, "(anonymous namespace)::f") << "a pattern keeps its inner blanks";
  const FilterLine file = format::parse_filter_line("include file /src/*\r");
  ASSERT_EQ(file.status, FilterLine::Status::rule);
  EXPECT_EQ(file.rule.action, FilterAction::include);
  EXPECT_EQ(file.rule.target, FilterTarget::file);
  EXPECT_EQ(file.rule.pattern, "/src/*");
  EXPECT_EQ(format::parse_filter_line("   # a comment").status, FilterLine::Status::nothing);
  EXPECT_EQ(format::parse_filter_line("").status, FilterLine::Status::nothing);
  EXPECT_EQ(format::parse_filter_line("exclude funtion x").status, FilterLine::Status::error);
  EXPECT_EQ(format::parse_filter_line("skip function x").status, FilterLine::Status::error);
  EXPECT_EQ(format::parse_filter_line("exclude function").status, FilterLine::Status::error)
      << "a rule without a glob";
}

TEST(FunctionFilterDecision, TheLastMatchingRuleDecides) {
  const std::vector<FilterRule> rules = {
      {FilterAction::exclude, FilterTarget::file, "/usr/include/*"},
      {FilterAction::include, FilterTarget::function, "std::sort*"},
      {FilterAction::exclude, FilterTarget::function, "get_*"},
  };
  EXPECT_TRUE(format::filter_excludes(rules, "std::vector<int>::size() const",
                                      "/usr/include/c++/12/bits/stl_vector.h"));
  EXPECT_FALSE(
      format::filter_excludes(rules, "std::sort<int*>(int*, int*)", "/usr/include/c++/12/bits/stl_algo.h"))
      << "an inclusion after the file's exclusion takes the function back";
  EXPECT_TRUE(format::filter_excludes(rules, "get_value", "/src/a.c"));
  EXPECT_FALSE(format::filter_excludes(rules, "compute", "/src/a.c")) << "what no rule names is measured";
  EXPECT_FALSE(format::filter_excludes(rules, "compute", "")) << "an unknown file matches no file rule";
}

std::vector<std::string> gcc_options(const std::string& text) {
  test::TempDir tmp;
  const auto path = tmp / "f.filter";
  std::ofstream(path) << text;
  return cli::gcc_exclusion_options(cli::read_function_filter(path));
}

TEST(FunctionFilterForGcc, OnlyExclusionsGccMatchesExactlyAndNoInclusionFollows) {
  EXPECT_EQ(gcc_options("exclude function *get_*\nexclude file /usr/include/*\n"),
            (std::vector<std::string>{"-finstrument-functions-exclude-function-list=get_",
                                      "-finstrument-functions-exclude-file-list=/usr/include/"}));
  EXPECT_TRUE(gcc_options("exclude function helper\n").empty())
      << "gcc matches substrings: 'helper' alone would also exclude 'helper_two'";
  EXPECT_TRUE(gcc_options("exclude function std::*\n").empty())
      << "a prefix of a function name is no substring";
  EXPECT_TRUE(gcc_options("exclude file /usr/include/*\ninclude function std::sort*\n").empty())
      << "an inclusion after an exclusion may take functions back: gcc must not drop them";
  EXPECT_TRUE(gcc_options("exclude function *a,b*\n").empty()) << "gcc's lists are comma-separated";
}

TEST(FunctionFilterFile, AMalformedLineIsNamedWithItsFileAndLine) {
  test::TempDir tmp;
  const auto path = tmp / "bad.filter";
  std::ofstream(path) << "# ok\nexclude function f\ninclude files x\n";
  try {
    cli::read_function_filter(path);
    ADD_FAILURE() << "a filter with 'include files' was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("bad.filter:3:"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace parperf
