// What a line of a stage's source moves, for the Code view: a line that addresses memory (an
// ldmatrix, an mma fragment, a TMA box, a thread map's cp.async, a swizzled offset) names the
// view and the settings that draw it. Hovering the line says so; clicking it opens that view.
#pragma once
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace gemmlab::app {

struct CodeLink {
  std::string view;                      // "fragments"
  nlohmann::json settings;               // valid lesson settings of that view (settings_schema.h)
  std::string what;                      // one line in English, a key of the UI catalogue
};

// nullopt for a line that moves nothing the views draw (or a comment).
std::optional<CodeLink> code_link(const std::string& line);

}  // namespace gemmlab::app
