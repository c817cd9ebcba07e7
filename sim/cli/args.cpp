#include "args.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>

namespace gemmlab::cli {

// An option given twice is an error (which one would win is a guess a script should not rely on).
Args::Args(int argc, char** argv, int first, std::set<std::string> flags) {
  auto once = [&](const std::string& key) {
    if (values_.count(key) || flags_set_.count(key)) throw CliError("option " + key + " is given twice");
  };
  for (int i = first; i < argc; ++i) {
    std::string key = argv[i];
    if (key.rfind("--", 0) != 0) throw CliError("unexpected argument '" + key + "'");
    if (auto eq = key.find('='); eq != std::string::npos) {
      once(key.substr(0, eq));
      values_[key.substr(0, eq)] = key.substr(eq + 1);
      continue;
    }
    once(key);
    if (flags.count(key)) {
      flags_set_.insert(key);
      continue;
    }
    if (i + 1 >= argc) throw CliError("option " + key + " needs a value");
    values_[key] = argv[++i];
  }
}

std::string Args::str(const std::string& key) const {
  auto it = values_.find(key);
  if (it == values_.end()) throw CliError("missing required option " + key);
  return it->second;
}

std::string Args::str(const std::string& key, const std::string& fallback) const {
  auto it = values_.find(key);
  return it == values_.end() ? fallback : it->second;
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
    if (!known.count(k)) throw CliError("unknown option " + k);
  for (const auto& k : flags_set_)
    if (!known.count(k)) throw CliError("unknown option " + k);
}

}  // namespace gemmlab::cli
