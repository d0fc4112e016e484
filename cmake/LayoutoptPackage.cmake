# The installed CMake package: `find_package(layoutopt REQUIRED)` in a consumer, then
#   layoutopt::runtime         the LLVM-free runtime (static; OpenMP and libdl on its link line)
#   layoutopt::runtime_shared  the same as liblayoutopt_runtime.so, exporting the C API alone
#   layoutopt::layoutopt       every library (graph, ONNX import, solvers, kernels, measure/, pipeline/)
#   layoutopt::<library>       each library on its own (layoutopt::graph, layoutopt::planning, ...)
#   layoutopt::cli             the `layoutopt` program
# `find_package(layoutopt REQUIRED COMPONENTS runtime)` looks for OpenMP only, so a
# deployment host needs none of LLVM's, ONNX's or XGBoost's development files.
# Included by the top-level CMakeLists.txt after every library is declared.

include(CMakePackageConfigHelpers)

# layoutopt::layoutopt: everything, for programs that optimize or compile models themselves.
add_library(layoutopt_everything INTERFACE)
add_library(layoutopt::layoutopt ALIAS layoutopt_everything)
target_link_libraries(layoutopt_everything INTERFACE
  layoutopt::pipeline layoutopt::evaluation layoutopt::costs layoutopt::transform_table layoutopt::tuning
  layoutopt::records layoutopt::planning layoutopt::timing layoutopt::kernels layoutopt::host_tensor
  layoutopt::kernel_schedule layoutopt::solvers layoutopt::onnx layoutopt::zoo layoutopt::graph
  layoutopt::runtime layoutopt::layout layoutopt::cpu)
layoutopt_install(TARGET layoutopt_everything EXPORT_NAME layoutopt)

set(LAYOUTOPT_CMAKE_INSTALL_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/layoutopt)
install(EXPORT layoutopt_targets NAMESPACE layoutopt:: FILE layoutoptTargets.cmake
        DESTINATION ${LAYOUTOPT_CMAKE_INSTALL_DIR})
# What the config file asks for, as this build found it.
set(LAYOUTOPT_PACKAGE_LLVM_MAJOR ${LLVM_VERSION_MAJOR})
set(LAYOUTOPT_PACKAGE_LLVM_DIR ${LLVM_DIR})
get_filename_component(LAYOUTOPT_PACKAGE_XGBOOST_DIR ${LAYOUTOPT_XGBOOST_LIBRARY} DIRECTORY)
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/layoutoptConfig.cmake.in
                              ${CMAKE_CURRENT_BINARY_DIR}/layoutoptConfig.cmake
                              INSTALL_DESTINATION ${LAYOUTOPT_CMAKE_INSTALL_DIR})
# 0.x: only the same minor version is compatible.
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/layoutoptConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/layoutoptConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/layoutoptConfigVersion.cmake
        DESTINATION ${LAYOUTOPT_CMAKE_INSTALL_DIR})
