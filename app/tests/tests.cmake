# App tests. Label "app": no display needed. Label "gui": run under Xvfb with Mesa's software
# renderer (the default test preset runs both; only "gpu" is excluded).
set(GEMMLAB_APP_TEST_DIR ${CMAKE_CURRENT_LIST_DIR})

file(GLOB GEMMLAB_APP_UNIT_TESTS CONFIGURE_DEPENDS ${GEMMLAB_APP_TEST_DIR}/test_*.cpp)
foreach(src ${GEMMLAB_APP_UNIT_TESTS})
  get_filename_component(name ${src} NAME_WE)
  add_executable(app_${name} ${src})
  target_link_libraries(app_${name} PRIVATE gemmlab_app_model GTest::gtest_main)
  target_compile_definitions(app_${name} PRIVATE
    GEMMLAB_APP_FIXTURES="${GEMMLAB_APP_TEST_DIR}/fixtures"
    GEMMLAB_ROOT_DIR="${PROJECT_SOURCE_DIR}"
    GEMMLAB_EXE="$<TARGET_FILE:gemmlab>")
  add_dependencies(app_${name} gemmlab)
  add_test(NAME app_${name} COMMAND app_${name})
  set_tests_properties(app_${name} PROPERTIES LABELS "app" TIMEOUT 300)
endforeach()

# ---- Rendering limits without a display (issue 48): Dear ImGui draws on the CPU without a
# renderer, with its 16-bit index limit checked (app/fuzz/headless_render.h).
if(TARGET gemmlab_gui)
  add_executable(app_render_limits ${GEMMLAB_APP_TEST_DIR}/render_limits.cpp)
  target_include_directories(app_render_limits PRIVATE ${PROJECT_SOURCE_DIR}/app/fuzz)
  target_link_libraries(app_render_limits PRIVATE gemmlab_gui GTest::gtest_main)
  target_compile_definitions(app_render_limits PRIVATE GEMMLAB_ROOT_DIR="${PROJECT_SOURCE_DIR}"
                             GEMMLAB_APP_FIXTURES="${GEMMLAB_APP_TEST_DIR}/fixtures")
  add_test(NAME app_render_limits COMMAND app_render_limits)
  set_tests_properties(app_render_limits PROPERTIES LABELS "app" TIMEOUT 300)
endif()

# The label placer and the canvas's labels in an ImGui frame (no window, no GPU).
add_executable(app_label_fit ${GEMMLAB_APP_TEST_DIR}/label_fit.cpp)
target_link_libraries(app_label_fit PRIVATE gemmlab_gui GTest::gtest_main)
add_test(NAME app_label_fit COMMAND app_label_fit)
set_tests_properties(app_label_fit PROPERTIES LABELS "app" TIMEOUT 60)

# ---- GUI tests under Xvfb with Mesa's software renderer.
find_program(GEMMLAB_XVFB_RUN xvfb-run)
find_program(GEMMLAB_XDOTOOL xdotool)
if(GEMMLAB_XVFB_RUN)
  set(GEMMLAB_XVFB ${GEMMLAB_XVFB_RUN} -a -s "-screen 0 1920x1200x24")
  add_executable(app_gui_walk ${GEMMLAB_APP_TEST_DIR}/gui_walk.cpp)
  target_link_libraries(app_gui_walk PRIVATE gemmlab_app_model GTest::gtest)
  target_compile_definitions(app_gui_walk PRIVATE
    GEMMLAB_ROOT_DIR="${PROJECT_SOURCE_DIR}" GEMMLAB_EXE="$<TARGET_FILE:gemmlab>")
  add_dependencies(app_gui_walk gemmlab)
  foreach(walk "fixture_en;${GEMMLAB_APP_TEST_DIR}/fixtures/course;en;"
               "fixture_zh;${GEMMLAB_APP_TEST_DIR}/fixtures/course;zh;"
               "broken;${GEMMLAB_APP_TEST_DIR}/fixtures/broken;en;--expect-problems"
               "course_en;${PROJECT_SOURCE_DIR}/lessons;en;"
               "course_zh;${PROJECT_SOURCE_DIR}/lessons;zh;")
    list(GET walk 0 name)
    list(GET walk 1 dir)
    list(GET walk 2 lang)
    list(GET walk 3 extra)
    add_test(NAME app_gui_walk_${name}
             COMMAND ${GEMMLAB_XVFB} $<TARGET_FILE:app_gui_walk> ${dir} ${lang} ${extra})
    set_tests_properties(app_gui_walk_${name} PROPERTIES LABELS "gui" TIMEOUT 900
                         ENVIRONMENT "LIBGL_ALWAYS_SOFTWARE=1")
  endforeach()
  add_test(NAME app_gui_legends
           COMMAND ${GEMMLAB_XVFB} ${GEMMLAB_APP_TEST_DIR}/gui_legends.sh $<TARGET_FILE:gemmlab>)
  set_tests_properties(app_gui_legends PROPERTIES LABELS "gui" TIMEOUT 300
                       ENVIRONMENT "LIBGL_ALWAYS_SOFTWARE=1")
  add_test(NAME app_gui_shot_reveal
           COMMAND ${GEMMLAB_XVFB} ${GEMMLAB_APP_TEST_DIR}/gui_shot_reveal.sh $<TARGET_FILE:gemmlab>
                   ${GEMMLAB_APP_TEST_DIR}/fixtures/course)
  set_tests_properties(app_gui_shot_reveal PROPERTIES LABELS "gui" TIMEOUT 300
                       ENVIRONMENT "LIBGL_ALWAYS_SOFTWARE=1")
  add_test(NAME app_gui_shot_exercise
           COMMAND ${GEMMLAB_XVFB} ${GEMMLAB_APP_TEST_DIR}/gui_shot_exercise.sh $<TARGET_FILE:gemmlab>
                   ${PROJECT_SOURCE_DIR}/lessons)
  set_tests_properties(app_gui_shot_exercise PROPERTIES LABELS "gui" TIMEOUT 300
                       ENVIRONMENT "LIBGL_ALWAYS_SOFTWARE=1")
  if(GEMMLAB_XDOTOOL)
    add_test(NAME app_gui_xdotool
             COMMAND ${GEMMLAB_XVFB} ${GEMMLAB_APP_TEST_DIR}/gui_xdotool.sh $<TARGET_FILE:gemmlab>
                     ${GEMMLAB_APP_TEST_DIR}/fixtures/course)
    set_tests_properties(app_gui_xdotool PROPERTIES LABELS "gui" TIMEOUT 300
                         ENVIRONMENT "LIBGL_ALWAYS_SOFTWARE=1")
  endif()
endif()

# The exercise panel's verdicts in Chinese: the graders' words (sim/exercise) through the catalogue.
if(TARGET app_test_exercise_verdicts)
  target_link_libraries(app_test_exercise_verdicts PRIVATE gemmlab_exercise)
endif()
