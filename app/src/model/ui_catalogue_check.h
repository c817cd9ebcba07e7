// The rule a UI catalogue's entries (assets/i18n/<lang>.json) must follow before the app uses
// them, shared by set_ui_language() (model/ui_text.h), `lessons --check` and the fuzz target.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace gemmlab::app {

constexpr std::size_t kMaxCatalogueBytes = 4u << 20;

// Why `translation` may not stand for `key`, or "". A translation is handed to printf wherever
// its key is (trf, ImGui::Text(tr(...))), so its conversions must be exactly the key's, each one
// of a short list: %d %i %u %x %X %c %s %f %e %g (flags - + 0, width, precision, l ll z) and
// %%. No %n (it writes through an argument), no positional %1$d, no * width, no space flag. A
// '%' in plain text ("lane % 4 (PTX ...)", "c % 8 of word", never a format) may stay plain text
// in the translation, but may not turn into a conversion there.
//   format_problem("%d x %d tiles", "%d × %d 个分块") -> ""
//   format_problem("%d tiles", "% d 个") -> "conversion 1 is \"% d\" where the English has \"%d\""
std::string format_problem(const std::string& key, const std::string& translation);

// The problems of a catalogue file, one per refused entry, none when all is well, as
// set_ui_language() finds them.
std::vector<std::string> ui_catalogue_problems(const std::string& path);

}  // namespace gemmlab::app
