# Shared settings for every target we own: strict warnings as errors, optional sanitizers.
# Third-party headers are included as SYSTEM so their warnings never fail our build.

include(LayoutoptInstall)

function(layoutopt_strict target)
  # -Wno-restrict (GCC only: clang does not know it): GCC 12 reports false positives inside
  # libstdc++ string concatenation at -O3 (GCC bug 105329). -Wno-missing-field-initializers:
  # designated initializers that leave members at their defaults are the idiom here, not a mistake.
  target_compile_options(${target} PRIVATE
    -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion -Werror
    $<$<CXX_COMPILER_ID:GNU>:-Wno-restrict> -Wno-missing-field-initializers
    # Clang (the fuzz build) warns about the GCC-only warning names in our GCC pragmas.
    $<$<CXX_COMPILER_ID:Clang>:-Wno-unknown-warning-option>)
  if(LAYOUTOPT_SANITIZE)
    target_compile_options(${target} PRIVATE -fsanitize=address,undefined -fno-omit-frame-pointer
                           -fno-sanitize-recover=all)
    target_link_options(${target} PRIVATE -fsanitize=address,undefined)
  endif()
endfunction()

# layoutopt_library(NAME <name> SOURCES ... [DEPS ...] [PRIVATE_DEPS ...])
# Declares library layoutopt_<name> with public headers in <folder>/include, installed as
# layoutopt::<name> (cmake/LayoutoptInstall.cmake). The include folder is the source tree's in
# the build and <prefix>/include once installed, so the exported target points at the latter.
function(layoutopt_library)
  cmake_parse_arguments(ARG "" "NAME" "SOURCES;DEPS;PRIVATE_DEPS" ${ARGN})
  set(target layoutopt_${ARG_NAME})
  add_library(${target} STATIC ${ARG_SOURCES})
  add_library(layoutopt::${ARG_NAME} ALIAS ${target})
  target_include_directories(${target} PUBLIC $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
                                              $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_link_libraries(${target} PUBLIC ${ARG_DEPS} PRIVATE ${ARG_PRIVATE_DEPS})
  layoutopt_strict(${target})
  layoutopt_install(TARGET ${target} HEADERS ${CMAKE_CURRENT_SOURCE_DIR}/include)
endfunction()
