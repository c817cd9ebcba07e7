// The UI's words in the learner's language. The English text is the key: views write
// tr("colour by") and get the Chinese of assets/i18n/zh.json when the learner picked 中文.
// Format strings are keys too (tr("%d x %d tiles")): a translation keeps the same printf
// conversions in the same order (checked by a test, since a mismatch would read the wrong argument).
// Text that is code, a file name or an instruction (mma.m16n8k16, ldmatrix.x4) is never a key.
#pragma once
#include <set>
#include <string>

namespace gemmlab::app {

// Sets the language ("en", "zh") and loads its catalogue from assets_dir/i18n/<lang>.json once;
// returns a problem with the catalogue (the UI then falls back to English), or "".
std::string set_ui_language(const std::string& lang, const std::string& assets_dir);
const std::string& ui_language();

// The text in the UI language; English when there is no entry (noted in untranslated()).
// The pointer stays valid for the program's life.
const char* tr(const char* en);
std::string tr(const std::string& en);

// English keys asked for in a non-English language that its catalogue lacks (the GUI walk in
// Chinese must find none).
const std::set<std::string>& untranslated();

// The printf conversions of a format string in order ("%d x %.2f%%" -> "d f"), for the test
// that a translation reads the same arguments.
std::string printf_conversions(const std::string& format);

}  // namespace gemmlab::app
