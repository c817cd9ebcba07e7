// Entry point of the desktop app and its headless commands, called by app/main.cpp:
//   gemmlab [--course DIR] [--lesson ID] [--step N] [--lang en|zh]   open the window
//   gemmlab shot ...                                                  render steps to PNG
//   gemmlab lessons --json | --check [DIR]                            list / validate a course
#pragma once

namespace gemmlab::app {

int gui_main(int argc, char** argv);

}  // namespace gemmlab::app
