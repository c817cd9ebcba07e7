// A small, strict parser for `--key value` options. Strict because scripts and the app drive
// the CLI: an unknown option or a malformed number is an error (exit 2), never a guess.
#pragma once
#include <cstdint>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace gemmlab::cli {

struct CliError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class Args {
 public:
  // flags: options that take no value (e.g. "--json").
  Args(int argc, char** argv, int first, std::set<std::string> flags = {"--json"});

  bool has(const std::string& key) const { return values_.count(key) || flags_set_.count(key); }
  std::string str(const std::string& key) const;                       // required
  std::string str(const std::string& key, const std::string& fallback) const;
  long long integer(const std::string& key) const;                     // required
  long long integer(const std::string& key, long long fallback) const;
  std::uint64_t hex_or_int(const std::string& key, std::uint64_t fallback) const;
  std::vector<long long> int_list(const std::string& key) const;       // "a,b,c", required
  std::vector<long long> int_list(const std::string& key, std::vector<long long> fallback) const;
  // A list of exactly n (or, if n_alt > 0, n_alt) integers, e.g. --shape C,S.
  std::vector<long long> int_tuple(const std::string& key, size_t n, size_t n_alt = 0) const;
  // The same, each in lo..hi (an int the model can take without narrowing), or a message that
  // names the option and the range.
  int int_in(const std::string& key, long long lo, long long hi) const;
  int int_in(const std::string& key, long long lo, long long hi, long long fallback) const;
  std::vector<int> int_tuple_in(const std::string& key, size_t n, long long lo, long long hi) const;

  // Call after reading every option the command knows: anything left over is an error.
  void reject_unknown(const std::set<std::string>& known) const;

 private:
  std::map<std::string, std::string> values_;
  std::set<std::string> flags_set_;
};

long long parse_int(const std::string& text, const std::string& what);  // decimal
// v as an int if lo <= v <= hi, else CliError("WHAT must be lo..hi (got v)").
int checked_int(long long v, long long lo, long long hi, const std::string& what);
std::vector<long long> parse_int_list(const std::string& text, const std::string& what);

}  // namespace gemmlab::cli
