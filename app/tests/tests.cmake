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
