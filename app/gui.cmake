# The desktop app, included by app/CMakeLists.txt when the GUI packages are found.
#   gemmlab_app_model  lesson format, Markdown, results/ncu files, config: no ImGui, no OpenGL
#   gemmlab_gui        the window, the views, `gemmlab shot` and `gemmlab lessons`
# Dear ImGui's GLFW and OpenGL 3 backends are compiled from the Debian package's examples
# (libimgui-dev ships them as sources only), with libepoxy as the OpenGL loader.
set(GEMMLAB_IMGUI_BACKENDS /usr/share/doc/libimgui-dev/examples/backends)

file(GLOB GEMMLAB_APP_MODEL_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/src/model/*.cpp)
# A view is a folder src/views/<id>/ (views/views.def lists them): its <id>_spec.cpp (settings,
# predict facts: what the lesson checker needs, no ImGui) joins the model; the rest draws.
file(GLOB GEMMLAB_VIEW_SPEC_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/src/views/*/*_spec.cpp)
list(APPEND GEMMLAB_APP_MODEL_SOURCES ${GEMMLAB_VIEW_SPEC_SOURCES}
     ${CMAKE_CURRENT_SOURCE_DIR}/src/views/view_registry.cpp
     ${CMAKE_CURRENT_SOURCE_DIR}/src/views/setting_checks.cpp)
# kernel_run_gpu.cpp (the kernels view's Run on the GPU backend) calls the CUDA runner: it joins
# gemmlab_gui below only when gemmlab_runner exists (kernels/tests/ compiles it into its GPU test too).
set(GEMMLAB_KERNEL_RUN_SOURCE ${CMAKE_CURRENT_SOURCE_DIR}/src/model/kernel_run_gpu.cpp)
list(REMOVE_ITEM GEMMLAB_APP_MODEL_SOURCES ${GEMMLAB_KERNEL_RUN_SOURCE})
add_library(gemmlab_app_model STATIC ${GEMMLAB_APP_MODEL_SOURCES})
target_include_directories(gemmlab_app_model PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/src
                                                    ${PROJECT_SOURCE_DIR}/kernels)
target_link_libraries(gemmlab_app_model PUBLIC gemmlab_sim gemmlab_bench_session nlohmann_json::nlohmann_json
                                               PkgConfig::GUI)

file(GLOB GEMMLAB_GUI_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/src/*.cpp
     ${CMAKE_CURRENT_SOURCE_DIR}/src/views/views.cpp ${CMAKE_CURRENT_SOURCE_DIR}/src/views/*/*.cpp
     ${CMAKE_CURRENT_SOURCE_DIR}/src/exercise/*.cpp)
list(REMOVE_ITEM GEMMLAB_GUI_SOURCES ${GEMMLAB_VIEW_SPEC_SOURCES})
set(GEMMLAB_IMGUI_BACKEND_SOURCES ${GEMMLAB_IMGUI_BACKENDS}/imgui_impl_glfw.cpp
                                  ${GEMMLAB_IMGUI_BACKENDS}/imgui_impl_opengl3.cpp)
# The OpenGL 3 backend brings its own gl3w loader; use libepoxy's headers instead.
set_source_files_properties(${GEMMLAB_IMGUI_BACKENDS}/imgui_impl_opengl3.cpp PROPERTIES
  COMPILE_DEFINITIONS IMGUI_IMPL_OPENGL_LOADER_CUSTOM
  COMPILE_OPTIONS "-include;epoxy/gl.h;-w")
set_source_files_properties(${GEMMLAB_IMGUI_BACKENDS}/imgui_impl_glfw.cpp PROPERTIES
  COMPILE_OPTIONS "-w")
add_library(gemmlab_gui STATIC ${GEMMLAB_GUI_SOURCES} ${GEMMLAB_IMGUI_BACKEND_SOURCES})
target_include_directories(gemmlab_gui PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}
                                       PRIVATE /usr/include/imgui/backends)
target_link_libraries(gemmlab_gui PUBLIC gemmlab_app_model
                                  PRIVATE gemmlab_sim_cli     # element_tables.h: the CLI's JSON tables
                                          gemmlab_exercise)   # the exercise step's grading
target_compile_definitions(gemmlab_gui PRIVATE
  GEMMLAB_VERSION="${PROJECT_VERSION}"
  GEMMLAB_DEFAULT_ROOT="${PROJECT_SOURCE_DIR}")
if(TARGET gemmlab_runner)
  target_sources(gemmlab_gui PRIVATE ${GEMMLAB_KERNEL_RUN_SOURCE})
  target_link_libraries(gemmlab_gui PUBLIC gemmlab_bench)
  target_compile_definitions(gemmlab_gui PUBLIC GEMMLAB_WITH_RUNNER=1)
endif()

if(GEMMLAB_TESTS)
  include(${CMAKE_CURRENT_SOURCE_DIR}/tests/tests.cmake)
endif()
