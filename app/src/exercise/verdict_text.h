// A verdict's words (sim/exercise/words.h), the host grade's and the GPU grade's, in the UI
// language: each template through the UI catalogue (tr: a translation whose conversions differ
// from its key's was refused when the catalogue loaded), the arguments filled in; English where
// the verdict has only English.
#pragma once
#include <string>

#include "grade_device.h"
#include "grader.h"
#include "model/ui_text.h"

namespace gemmlab::app {

inline std::string ui_words(const exercise::Words& w) {
  return w.text([](const std::string& format) { return tr(format); });
}
inline std::string ui_reason(const exercise::HostVerdict& v) { return v.why.empty() ? v.reason : ui_words(v.why); }
// The GPU grade's verdict (its compiler log and the runtime's words stay as they came).
inline std::string ui_reason(const exercise::DeviceGrade& d) { return d.why.empty() ? d.reason : ui_words(d.why); }
// The i-th rule that held.
inline std::string ui_held(const exercise::HostVerdict& v, size_t i) {
  return i < v.held.size() ? ui_words(v.held[i]) : v.passed[i];
}

}  // namespace gemmlab::app
