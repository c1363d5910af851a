#include "cli/manual_pages.hpp"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <cctype>

namespace parperf::cli {
namespace {

// CLI11 hides an option or a subcommand by giving it the empty group; a subcommand with the empty
// name is an option group, not a command.
std::vector<const CLI::App*> visible_subcommands(const CLI::App& app) {
  return app.get_subcommands(
      [](const CLI::App* sub) { return !sub->get_name().empty() && !sub->get_group().empty(); });
}

std::vector<const CLI::Option*> visible_options(const CLI::App& app) {
  return app.get_options([](const CLI::Option* option) { return !option->get_group().empty(); });
}

// Text as roff reads it: a backslash is \e, a hyphen \- (so that it is not broken or turned into a
// dash), and a line must not start with a control character ('.' or '\'').
std::string roff(std::string_view text) {
  std::string out;
  bool line_start = true;
  for (char c : text) {
    if (line_start && (c == '.' || c == '\'')) out += "\\&";
    if (c == '\\') {
      out += "\\e";
    } else if (c == '-') {
      out += "\\-";
    } else {
      out += c;
    }
    line_start = c == '\n';
  }
  return out;
}

std::string upper(std::string text) {
  for (char& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return text;
}

// "parperf filter suggest" from the chain of parents.
std::string command_words(const CLI::App& app) {
  const CLI::App* parent = app.get_parent();
  return parent == nullptr ? app.get_name() : command_words(*parent) + " " + app.get_name();
}

std::string page_name(const CLI::App& app) {
  std::string name = command_words(app);
  for (char& c : name)
    if (c == ' ') c = '-';
  return name;
}

// "-o, --output DIR" in roff: names bold, the argument italic, the default after it.
std::string option_heading(const CLI::Option& option) {
  std::string names;
  for (const auto& name : option.get_snames())
    names += (names.empty() ? "" : ", ") + fmt::format("\\fB\\-{}\\fR", roff(name));
  for (const auto& name : option.get_lnames())
    names += (names.empty() ? "" : ", ") + fmt::format("\\fB\\-\\-{}\\fR", roff(name));
  if (option.get_type_size_max() > 0 && !option.get_type_name().empty())
    names += fmt::format(" \\fI{}\\fR", roff(option.get_type_name()));
  if (!option.get_default_str().empty())
    names += fmt::format(" (default: {})", roff(option.get_default_str()));
  return names;
}

std::string synopsis(const CLI::App& app) {
  std::string text = fmt::format(".B {}\n", roff(command_words(app)));
  if (!visible_options(app).empty()) text += "[\\fIOPTIONS\\fR]\n";
  for (const CLI::Option* option : visible_options(app)) {
    if (option->nonpositional()) continue;
    const std::string word = fmt::format("\\fI{}\\fR{}", roff(option->get_name(true)),
                                         option->get_items_expected_max() > 1 ? " ..." : "");
    text += (option->get_required() ? word : "[" + word + "]") + "\n";
  }
  if (!visible_subcommands(app).empty()) text += "\\fICOMMAND\\fR ...\n";
  return text;
}

std::string page(const CLI::App& app, std::string_view version) {
  const std::string name = page_name(app);
  // The command's description starts with its name ("parperf: measures ..."), which NAME has already.
  std::string description = app.get_description();
  if (const std::string own = app.get_name() + ": "; description.starts_with(own))
    description.erase(0, own.size());
  std::string text =
      fmt::format(".TH {} 1 \"\" \"parperf {}\" \"User Commands\"\n", roff(upper(name)), roff(version));
  text += fmt::format(".SH NAME\n{} \\- {}\n", roff(name), roff(description));
  text += fmt::format(".SH SYNOPSIS\n{}", synopsis(app));
  text += fmt::format(".SH DESCRIPTION\n{}\n", roff(description));
  const auto options = visible_options(app);
  if (!options.empty()) {
    text += ".SH OPTIONS\n";
    for (const CLI::Option* option : options) {
      const std::string heading = option->nonpositional()
                                      ? option_heading(*option)
                                      : fmt::format("\\fI{}\\fR", roff(option->get_name(true)));
      text += fmt::format(".TP\n{}\n{}\n", heading, roff(option->get_description()));
    }
  }
  const auto subcommands = visible_subcommands(app);
  if (!subcommands.empty()) {
    text += ".SH COMMANDS\n";
    for (const CLI::App* sub : subcommands)
      text += fmt::format(".TP\n\\fB{}\\fR\n{} (\\fB{}\\fR(1))\n", roff(sub->get_name()),
                          roff(sub->get_description()), roff(page_name(*sub)));
  }
  if (const std::string footer = app.get_footer(); !footer.empty()) {
    text += ".SH NOTES\n";
    // Paragraphs of the footer stay paragraphs; their lines are filled by man.
    std::string paragraph;
    for (std::size_t start = 0; start <= footer.size();) {
      auto end = footer.find('\n', start);
      if (end == std::string::npos) end = footer.size();
      const std::string_view line(footer.data() + start, end - start);
      if (line.find_first_not_of(' ') == std::string_view::npos) {
        if (!paragraph.empty()) text += ".PP\n" + roff(paragraph) + "\n";
        paragraph.clear();
      } else {
        paragraph += (paragraph.empty() ? "" : "\n") + std::string(line.substr(line.find_first_not_of(' ')));
      }
      start = end + 1;
    }
    if (!paragraph.empty()) text += ".PP\n" + roff(paragraph) + "\n";
  }
  text += ".SH SEE ALSO\n";
  if (app.get_parent() != nullptr) text += fmt::format("\\fB{}\\fR(1), ", roff(page_name(*app.get_parent())));
  text += "the documentation in /usr/share/doc/parperf (or share/doc/parperf of the installed prefix)\n";
  return text;
}

void add_pages(const CLI::App& app, std::string_view version, std::vector<ManualPage>& pages) {
  pages.push_back({page_name(app) + ".1", page(app, version)});
  for (const CLI::App* sub : visible_subcommands(app)) add_pages(*sub, version, pages);
}

std::string subcommand_words(const CLI::App& app) {
  std::string list;
  for (const CLI::App* sub : visible_subcommands(app)) list += (list.empty() ? "" : " ") + sub->get_name();
  return list;
}

std::string option_words(const CLI::App& app) {
  std::string list;
  for (const CLI::Option* option : visible_options(app)) {
    for (const auto& name : option->get_snames()) list += (list.empty() ? "-" : " -") + name;
    for (const auto& name : option->get_lnames()) list += (list.empty() ? "--" : " --") + name;
  }
  return list;
}

// The case arms of the completion function: "<subcommands named so far>) commands=...; options=...".
void add_cases(const CLI::App& app, const std::string& path, std::string& cases) {
  cases += fmt::format("    \"{}\") commands=\"{}\" options=\"{}\" ;;\n", path, subcommand_words(app),
                       option_words(app));
  for (const CLI::App* sub : visible_subcommands(app))
    add_cases(*sub, path.empty() ? sub->get_name() : path + " " + sub->get_name(), cases);
}

// Every chain of subcommand names ("run", "filter suggest") as one case pattern.
void add_paths(const CLI::App& app, const std::string& path, std::string& patterns) {
  for (const CLI::App* sub : visible_subcommands(app)) {
    const std::string chain = path.empty() ? sub->get_name() : path + " " + sub->get_name();
    patterns += (patterns.empty() ? "" : " | ") + fmt::format("\"{}\"", chain);
    add_paths(*sub, chain, patterns);
  }
}

std::string subcommand_paths(const CLI::App& app) {
  std::string patterns;
  add_paths(app, "", patterns);
  return patterns.empty() ? "" : fmt::format("      {}) ;;\n", patterns);
}

}  // namespace

std::vector<ManualPage> manual_pages(const CLI::App& app, std::string_view version) {
  std::vector<ManualPage> pages;
  add_pages(app, version, pages);
  return pages;
}

std::string bash_completion(const CLI::App& app) {
  std::string cases;
  add_cases(app, "", cases);
  const std::string name = app.get_name();
  return fmt::format(
      R"(# bash completion for {0}, generated from its command line definition (src/cli/manual_pages.cpp).
_{0}() {{
  local current=${{COMP_WORDS[COMP_CWORD]}} path="" word commands options i
  # The subcommands named so far (the words that are not options, up to the first that is no
  # subcommand) select the candidates.
  for ((i = 1; i < COMP_CWORD; i++)); do
    word=${{COMP_WORDS[i]}}
    [[ $word == -* ]] && continue
    case "${{path:+$path }}$word" in
{1}      *) break ;;
    esac
    path=${{path:+$path }}$word
  done
  case "$path" in
{2}  esac
  # An option where one is begun, else a subcommand; nothing (so file names, -o default) after the
  # last subcommand, where a program, a run directory or a file comes.
  if [[ $current == -* ]]; then
    COMPREPLY=($(compgen -W "$options" -- "$current"))
  else
    COMPREPLY=($(compgen -W "$commands" -- "$current"))
  fi
}}
complete -o default -F _{0} {0}
)",
      name, subcommand_paths(app), cases);
}

}  // namespace parperf::cli
