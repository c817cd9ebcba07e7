// The desktop app and its headless commands, registered by app/main.cpp:
//   gemmlab [--course DIR] [--lesson ID] [--step N] [--lang en|zh]   open the window
//   gemmlab shot ...                                                  render steps to PNG
//   gemmlab lessons --json | --check [DIR] | --answers | --new ID     list / validate / write a course
//   gemmlab results --markdown                                        RESULTS.md from the results JSON
// argv[1] is the command's name (shot, lessons); the window's options start at argv[1].
#pragma once

namespace gemmlab::app {

int window_main(int argc, char** argv);
int shot_main(int argc, char** argv);
int lessons_main(int argc, char** argv);
int results_main(int argc, char** argv);

}  // namespace gemmlab::app
