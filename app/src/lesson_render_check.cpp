#include "lesson_render_check.h"

#include <chrono>
#include <cstdio>
#include <map>
#include <optional>
#include <memory>
#include <string>

namespace gemmlab::app {
namespace {

// The answer to `spec` that the views show now (the step before the predict step), if the view
// that answers it is in front; nullopt if not, or if it cannot be computed there.
std::optional<double> answer_shown_before(const std::map<std::string, std::unique_ptr<View>>& views,
                                          const std::string& in_front, const PredictSpec& spec) {
  const std::string asked_view = spec.quantity.substr(0, spec.quantity.find('.'));
  auto it = views.find(asked_view);
  if (in_front != asked_view || it == views.end()) return std::nullopt;
  auto a = it->second->predict(spec);
  return a ? std::optional<double>(*a) : std::nullopt;
}

std::string previous_step_shows_answer(size_t i, const std::string& quantity, double answer) {
  char value[32];
  std::snprintf(value, sizeof value, "%.6g", answer);
  return "step " + std::to_string(i) + " already shows the answer to " + quantity + " (" + value +
         ") in the same view, one step before the question: ask first and explain after, or give step " +
         std::to_string(i) + " settings that answer it differently";
}

}  // namespace

std::vector<Diagnostic> check_steps_render(const Course& course, const AppPaths& paths,
                                           std::vector<PredictAnswer>* answers, int predict_budget_seconds) {
  std::vector<Diagnostic> out;
  std::map<std::string, std::unique_ptr<View>> views;
  for (auto& v : make_views()) views[v->id()] = std::move(v);
  const auto predict_deadline = std::chrono::steady_clock::now() + std::chrono::seconds(predict_budget_seconds);
  for (const Lesson& lesson : course.lessons) {
    if (!lesson.ok()) continue;  // apply() takes settings the format check has passed
    const std::string file = course.dir + "/" + lesson.id + "/lesson.toml";
    std::string in_front;  // a step without `view` keeps the previous step's
    for (size_t i = 0; i < lesson.steps.size(); ++i) {
      const LessonStep& step = lesson.steps[i];
      const std::string where = "step " + std::to_string(i + 1) + ": ";
      // What the step before shows of this step's answer, in its own settings (issue 47: an answer
      // one step early): its view in front is the asked one and gives the same answer.
      std::optional<double> answer_before;
      if (step.predict && i > 0 && std::chrono::steady_clock::now() <= predict_deadline)
        answer_before = answer_shown_before(views, in_front, *step.predict);  // within the same budget
      for (const auto& [id, settings] : step.settings.items()) {
        // An inherited view behind the one in front is checked where it was written.
        if (!step.written.contains(id) && id != step.view) continue;
        auto it = views.find(id);
        if (it == views.end()) continue;  // the format check names unknown views
        it->second->apply(settings);
        it->second->prepare(paths);
        const Json shown = it->second->export_data();
        if (shown.contains("error") && !step.shows_error)
          out.push_back({file, step.line,
                         where + "the " + id + " view cannot show these settings: " + shown["error"].get<std::string>() +
                             " (if that message is the point, say shows_error = true)"});
        if (!shown.contains("error") && step.shows_error && id == step.view)
          out.push_back({file, step.line, where + "shows_error = true, but the " + id + " view shows no error"});
      }
      if (!step.view.empty()) in_front = step.view;
      if (!step.predict) continue;
      const std::string& q = step.predict->quantity;
      const std::string asked_view = q.substr(0, q.find('.'));
      // The view that hides the answer must be the one the learner looks at (FORMAT.md, predict).
      if (in_front != asked_view)
        out.push_back({file, step.predict->line,
                       where + q + " is hidden by the " + asked_view + " view, but the view in front is " +
                           (in_front.empty() ? std::string("the default") : in_front) + ": add view = \"" + asked_view +
                           "\" to the step"});
      auto it = views.find(asked_view);
      if (it == views.end()) {
        if (answers) answers->push_back({lesson.id, static_cast<int>(i) + 1, q, Error{"no view " + asked_view}});
        continue;
      }
      if (std::chrono::steady_clock::now() > predict_deadline) {
        if (answers) answers->push_back({lesson.id, static_cast<int>(i) + 1, q, Error{"not computed: over the budget"}});
        out.push_back({file, step.predict->line,
                       where + "not checked: computing the course's predict answers took more than " +
                           std::to_string(predict_budget_seconds) + " s in all (fewer or smaller predict steps)"});
        continue;
      }
      const auto answer = it->second->predict(*step.predict);
      if (answers) answers->push_back({lesson.id, static_cast<int>(i) + 1, q, answer});
      if (!answer)
        out.push_back({file, step.predict->line, where + "the answer to " + q + " cannot be computed: " + answer.error()});
      else if (auto shown = it->second->answer_in_settings(*step.predict, *answer))
        out.push_back({file, step.predict->line, where + "a setting shows the answer, or colours by what Reveal hides: " + *shown});
      else if (answer_before && step.predict->accepts(*answer_before, *answer))
        out.push_back({file, step.predict->line, where + previous_step_shows_answer(i, q, *answer)});
    }
  }
  return out;
}

}  // namespace gemmlab::app
