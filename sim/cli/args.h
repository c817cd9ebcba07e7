// Every gemmlab command line is parsed by CLI11 through this one layer: a command lists its
// options once (OptionSpec: name, value, meaning, default), and gets the same parsing rules, the
// same error wording and the same --help layout as every other command. Strict because scripts
// and the app drive the CLI: an unknown option, a repeated one or a malformed number is an error
// (exit 2), never a guess.
//
//   const std::vector<OptionSpec> kOptions = {
//       {"--bits", "B", "bits of the row index the swizzle XORs in (0..16)", "required"},
//       {"--json", "", "print JSON (the only output format)", ""}};
//   Args a("gemmlab sim swizzle", kOptions, argc, argv, first);   // throws CliError
//   int b = a.int_in("--bits", 0, 16);
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

struct OptionSpec {
  std::string name;      // "--warmup"; a name without a leading '-' ("ID") is a positional argument
  std::string value;     // what it takes, shown in --help ("N", "M,N,K"); "" for a flag
  std::string meaning;   // what it does, with its unit and range: "warm-up runs per entry (1..1048576)"
  std::string fallback;  // the default as --help shows it ("3", "required", "none"); "" for a flag
  bool repeat = false;          // may be given more than once (each value kept, in order)
  bool optional_value = false;  // the value may be left out (`--check [DIR]`)
};

// Help text of a list of options: one per line, "  --name VALUE  meaning (default: X)".
std::string options_help(const std::vector<OptionSpec>& options);

class Args {
 public:
  // Parses argv[first..] with CLI11 against `options` (plus -h/--help); `command` ("gemmlab sim
  // conv") only names the command in messages.
  Args(const std::string& command, const std::vector<OptionSpec>& options, int argc, char** argv, int first);

  bool help() const { return help_; }
  bool has(const std::string& key) const { return values_.count(key) > 0; }
  std::string str(const std::string& key) const;                       // required
  std::string str(const std::string& key, const std::string& fallback) const;
  std::vector<std::string> all(const std::string& key) const;          // a repeatable option's values
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

  // Kept for the commands that still list what they read: every option here must be in `known`.
  void reject_unknown(const std::set<std::string>& known) const;

 private:
  std::map<std::string, std::vector<std::string>> values_;  // a flag: "1"
  bool help_ = false;
};

long long parse_int(const std::string& text, const std::string& what);  // decimal
// v as an int if lo <= v <= hi, else CliError("WHAT must be lo..hi (got v)").
int checked_int(long long v, long long lo, long long hi, const std::string& what);
// parse_int then checked_int: the one wording of a bad integer in every command.
int parse_int_in(const std::string& text, const std::string& what, long long lo, long long hi);
std::vector<long long> parse_int_list(const std::string& text, const std::string& what);

}  // namespace gemmlab::cli
