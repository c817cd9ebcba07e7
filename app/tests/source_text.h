// What the UI-text tests read from the sources: a whole file, and a C++ string literal's body as
// the compiler reads it (the key a tr() / words() call looks up).
#pragma once
#include <fstream>
#include <sstream>
#include <string>

namespace gemmlab::test {

inline std::string read_all(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// \" \\ \n \xHH:  "a\\nb" -> a, newline, b
inline std::string unescape(const std::string& body) {
  std::string out;
  for (size_t i = 0; i < body.size(); ++i) {
    if (body[i] != '\\' || i + 1 == body.size()) {
      out += body[i];
      continue;
    }
    const char c = body[++i];
    if (c == 'n') out += '\n';
    else if (c == 'x' && i + 2 < body.size()) out += char(std::stoi(body.substr(i + 1, 2), nullptr, 16)), i += 2;
    else out += c;
  }
  return out;
}

}  // namespace gemmlab::test
