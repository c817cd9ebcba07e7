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
// The translation when the catalogue has one, else the text itself, not noted as missing (for
// values that are mostly names: "serpentine:8", but "(own settings)").
const char* tr_known(const std::string& text);
// printf with the translated format: trf("%d slots: too many rows", n).
std::string trf(const char* en_format, ...) __attribute__((format(printf, 1, 2)));
// A whole number as the views print it, thousands separated: 16,384.
std::string fmt_int(long long v);

// English keys asked for in a non-English language that its catalogue lacks (the GUI walk in
// Chinese must find none).
const std::set<std::string>& untranslated();

// The code points above ASCII of a UTF-8 string, added to `points` (the font atlas holds only the
// glyphs the course and the UI use).
void add_code_points(const std::string& utf8, std::set<unsigned>& points);
// Every code point of the UI catalogues in assets_dir/i18n.
std::set<unsigned> ui_code_points(const std::string& assets_dir);

// The printf conversions of a format string in order ("%d x %.2f%%" -> "d f"), for the check
// that a translation reads the same arguments. A '%' not followed by a conversion ("lane % 4",
// "(i%2)*8" in plain text) is not one.
std::string printf_conversions(const std::string& format);

}  // namespace gemmlab::app
