#include "args.h"

#include <algorithm>

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <CLI/CLI.hpp>

namespace gemmlab::cli {

namespace {

// "--name=value" -> "--name".
std::string option_name(const std::string& arg) { return arg.substr(0, arg.find('=')); }

int occurrences(const std::string& name, int argc, char** argv, int first) {
  int n = 0;
  for (int i = first; i < argc; ++i) n += option_name(argv[i]) == name;
  return n;
}

}  // namespace

// "  --name VALUE   meaning (default: X)": heads up to 24 characters share a column; a longer one
// has its meaning on the next line; meanings wrap at 100 columns.
std::string options_help(const std::vector<OptionSpec>& options) {
  constexpr size_t kColumn = 24, kWidth = 100;
  std::string out;
  for (const OptionSpec& o : options) {
    std::string head = o.name;
    const bool positional = !o.name.empty() && o.name[0] != '-';
    if (!o.value.empty() && !positional) head += o.optional_value ? " [" + o.value + "]" : " " + o.value;
    std::string text = o.meaning;
    if (!o.fallback.empty()) text += " (default: " + o.fallback + ")";
    if (o.repeat) text += " (may be repeated)";
    const std::string indent(2 + kColumn + 2, ' ');
    std::string line = "  " + head;
    if (head.size() > kColumn) {
      out += line + "\n";
      line = indent;
    } else {
      line += std::string(kColumn + 2 - head.size(), ' ');
    }
    size_t at = 0;
    while (at < text.size()) {
      size_t room = kWidth - line.size(), end = std::min(text.size(), at + room);
      if (end < text.size()) {
        const size_t space = text.rfind(' ', end);
        if (space != std::string::npos && space > at) end = space;
      }
      line += text.substr(at, end - at);
      out += line + "\n";
      line = indent;
      at = end;
      while (at < text.size() && text[at] == ' ') ++at;
    }
  }
  return out;
}

// CLI11 parses; its errors are reworded so that every command says the same thing the same way.
// An option given twice is an error (which one would win is a guess a script should not rely on).
Args::Args(const std::string& command, const std::vector<OptionSpec>& options, int argc, char** argv, int first) {
  for (int i = first; i < argc; ++i)
    if (!std::strcmp(argv[i], "--help") || !std::strcmp(argv[i], "-h")) {
      help_ = true;
      return;
    }
  CLI::App app{command};
  app.set_help_flag();
  app.allow_extras(false);
  std::vector<std::vector<std::string>> store(options.size());
  std::vector<CLI::Option*> added;
  for (size_t i = 0; i < options.size(); ++i) {
    const OptionSpec& o = options[i];
    const bool positional = !o.name.empty() && o.name[0] != '-';
    CLI::Option* opt = o.value.empty() && !positional ? app.add_flag(o.name) : app.add_option(o.name, store[i]);
    if (!o.value.empty() || positional) {
      opt->type_name(o.value)->allow_extra_args(false);
      if (o.optional_value) opt->expected(0, 1);
      else opt->expected(1);
    }
    opt->multi_option_policy(o.repeat ? CLI::MultiOptionPolicy::TakeAll : CLI::MultiOptionPolicy::Throw);
    added.push_back(opt);
  }
  for (int i = first; i < argc; ++i)
    for (const OptionSpec& o : options)
      if (o.value.empty() && std::strncmp(argv[i], (o.name + "=").c_str(), o.name.size() + 1) == 0)
        throw CliError(o.name + " takes no value");
  std::vector<std::string> rest;
  for (int i = argc - 1; i >= first; --i) rest.emplace_back(argv[i]);  // CLI11 wants them reversed
  try {
    app.parse(rest);
  } catch (const CLI::ExtrasError&) {
    const std::vector<std::string> left = app.remaining();
    const std::string x = left.empty() ? "" : left.front();
    if (!x.empty() && x[0] == '-')
      throw CliError("unknown option '" + option_name(x) + "' (" + command + " --help lists them)");
    throw CliError("unexpected argument '" + x + "' (" + command + " --help lists the options)");
  } catch (const CLI::ArgumentMismatch& e) {
    const std::string what = e.what();
    const std::string name = what.substr(0, what.find(':'));
    if (occurrences(name, argc, argv, first) > 1) throw CliError("option " + name + " is given twice");
    throw CliError("option " + name + " needs a value");
  } catch (const CLI::ParseError& e) {
    throw CliError(e.what());
  }
  for (size_t i = 0; i < options.size(); ++i) {
    if (added[i]->count() == 0) continue;
    std::vector<std::string>& v = values_[options[i].name];
    const bool flag = options[i].value.empty() && !options[i].name.empty() && options[i].name[0] == '-';
    if (flag) v.assign(1, "1");
    else if (store[i].empty()) v.assign(1, "");  // an optional value left out
    else v = store[i];
  }
}

std::string Args::str(const std::string& key) const {
  auto it = values_.find(key);
  if (it == values_.end()) throw CliError("missing required option " + key);
  return it->second.front();
}

std::string Args::str(const std::string& key, const std::string& fallback) const {
  auto it = values_.find(key);
  return it == values_.end() ? fallback : it->second.front();
}

std::vector<std::string> Args::all(const std::string& key) const {
  auto it = values_.find(key);
  return it == values_.end() ? std::vector<std::string>{} : it->second;
}

// Decimal only: "010" is ten, not octal eight; hex is for --mask / addresses (hex_or_int).
long long parse_int(const std::string& text, const std::string& what) {
  if (text.empty()) throw CliError(what + ": empty number");
  errno = 0;
  char* end = nullptr;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  if (errno == ERANGE || *end != '\0' || std::isspace(static_cast<unsigned char>(text[0])))
    throw CliError(what + ": '" + text + "' is not an integer");
  return v;
}

int checked_int(long long v, long long lo, long long hi, const std::string& what) {
  if (v < lo || v > hi)
    throw CliError(what + " must be " + std::to_string(lo) + ".." + std::to_string(hi) + " (got " +
                   std::to_string(v) + ")");
  return static_cast<int>(v);
}

int parse_int_in(const std::string& text, const std::string& what, long long lo, long long hi) {
  return checked_int(parse_int(text, what), lo, hi, what);
}

std::vector<long long> parse_int_list(const std::string& text, const std::string& what) {
  std::vector<long long> out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    out.push_back(parse_int(text.substr(start, comma - start), what));
    start = comma + 1;
  }
  return out;
}

long long Args::integer(const std::string& key) const { return parse_int(str(key), key); }
long long Args::integer(const std::string& key, long long fallback) const {
  return has(key) ? integer(key) : fallback;
}

std::uint64_t Args::hex_or_int(const std::string& key, std::uint64_t fallback) const {
  if (!has(key)) return fallback;
  const std::string t = str(key);
  errno = 0;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(t.c_str(), &end, 0);
  if (t.empty() || errno == ERANGE || *end != '\0' || t[0] == '-')
    throw CliError(key + ": '" + t + "' is not a number (use 0x... for hex)");
  return v;
}

std::vector<long long> Args::int_list(const std::string& key) const {
  return parse_int_list(str(key), key);
}
std::vector<long long> Args::int_list(const std::string& key,
                                      std::vector<long long> fallback) const {
  return has(key) ? int_list(key) : fallback;
}

int Args::int_in(const std::string& key, long long lo, long long hi) const {
  return checked_int(integer(key), lo, hi, key);
}
int Args::int_in(const std::string& key, long long lo, long long hi, long long fallback) const {
  return checked_int(integer(key, fallback), lo, hi, key);
}
std::vector<int> Args::int_tuple_in(const std::string& key, size_t n, long long lo, long long hi) const {
  std::vector<int> out;
  for (long long v : int_tuple(key, n)) out.push_back(checked_int(v, lo, hi, key));
  return out;
}

std::vector<long long> Args::int_tuple(const std::string& key, size_t n, size_t n_alt) const {
  auto v = int_list(key);
  if (v.size() != n && (n_alt == 0 || v.size() != n_alt)) {
    std::string want = std::to_string(n) + (n_alt ? " or " + std::to_string(n_alt) : "");
    throw CliError(key + " takes " + want + " comma-separated integers, got '" + str(key) + "'");
  }
  return v;
}

void Args::reject_unknown(const std::set<std::string>& known) const {
  for (const auto& [k, _] : values_)
    if (!known.count(k)) throw CliError("unknown option '" + k + "'");
}

}  // namespace gemmlab::cli
