// JSON in and out of GEMM Lab with the limits hostile input needs.
//  - Out: text a learner's files put into JSON (a lesson title, an ncu kernel name, a folder name)
//    need not be UTF-8; nlohmann's dump() throws type_error.316 on it. json_text() writes U+FFFD
//    for each invalid byte instead, so no output aborts.
//  - In: nlohmann's parser is iterative, but dump(), comparison and the messages built from a
//    value recurse; a 100,000-deep "[[[[...", under 1 MB, overflows the stack. Every JSON a user
//    can hand us is measured by json_nesting_problem() before it is parsed.
#pragma once
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace gemmlab::app {

constexpr int kMaxJsonDepth = 64;  // our files nest 4 deep at most

template <class Json>
std::string json_text(const Json& j, int indent = -1) {
  return j.dump(indent, ' ', false, Json::error_handler_t::replace);
}

// "" when the arrays and objects of `text` nest at most max_depth deep (brackets inside strings
// do not count), else the problem: "nests 100000 levels deep at byte 64 (at most 64 are read)".
std::string json_nesting_problem(std::string_view text, int max_depth = kMaxJsonDepth);

// `s` with every byte that is not part of valid UTF-8 written as U+FFFD and two hex digits
// ("caf\xE9" -> "caf\uFFFDE9"): a key stays distinct and the same across runs, and JSON can hold it.
std::string utf8_escaped(std::string_view s);
bool is_valid_utf8(std::string_view s);

}  // namespace gemmlab::app
