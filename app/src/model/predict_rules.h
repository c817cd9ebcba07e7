// What a predict step hides until Reveal (lessons/FORMAT.md, "predict"): the rule of the format.
// A quantity is computed from what the views draw (its inputs, which stay on screen) and is given
// away by other things they draw, named here as facts ("grid.waves": the wave count, the last
// wave's fill, the colouring by wave). While the question is open, a view draws none of the
// step's hidden facts; the GUI walk checks every predict step of the course in both languages.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "model/lesson_format.h"

namespace gemmlab::app {

struct PredictFact {
  std::string id;        // "grid.tiles"
  std::string text;      // what the view leaves out, for the placeholder (a key of the UI catalogue)
};

struct PredictRule {
  std::string quantity;                  // "grid.blocks"
  std::string computed_from;             // the inputs, in the learner's words (a key of the UI catalogue)
  std::vector<std::string> answer_facts; // the answer can be read or derived from these: always hidden
  std::vector<std::string> clue_facts;   // make the question trivial: hidden unless the step's `shows` names them
};

// Every fact a view can hide, and every quantity's rule (the tables of FORMAT.md's "predict").
const std::vector<PredictFact>& predict_facts();
const std::vector<PredictRule>& predict_rules();
const PredictRule* predict_rule(const std::string& quantity);
const PredictFact* predict_fact(const std::string& id);

// The facts the step hides until Reveal: the answer facts, and the clue facts it does not show.
std::vector<std::string> hidden_facts(const PredictSpec& spec);

// nullopt when `shows` may un-hide `fact` for `quantity`; else why not (an answer fact would put
// the answer on screen; an unknown fact or one of another quantity is a typing error).
std::optional<std::string> check_shown_fact(const std::string& quantity, const std::string& fact);

// How far the learner's guess is from the answer, in words ("2 too low", "right"), in the UI language.
std::string guess_distance(double guess, double answer, double tolerance);

}  // namespace gemmlab::app
