# Install rules of the libraries: every library goes into one export set (layoutopt_targets)
# that cmake/LayoutoptPackage.cmake turns into the `layoutopt::` package, and its public
# headers go to <prefix>/include, where they keep their "layoutopt/<lib>/..." paths.

include(GNUInstallDirs)

# layoutopt_install(TARGET <target> [EXPORT_NAME <name>] [HEADERS <folder>...])
# Installs <target> into the export set under the name after "layoutopt_" unless EXPORT_NAME
# says otherwise (layoutopt_graph becomes layoutopt::graph, the name its alias has in the
# build), and each header folder
# once: several libraries share one include folder (graph, zoo and onnx; kernels and
# host_tensor; ...).
function(layoutopt_install)
  cmake_parse_arguments(ARG "" "TARGET;EXPORT_NAME" "HEADERS" ${ARGN})
  string(REGEX REPLACE "^layoutopt_" "" export_name ${ARG_TARGET})
  if(ARG_EXPORT_NAME)
    set(export_name ${ARG_EXPORT_NAME})
  endif()
  set_target_properties(${ARG_TARGET} PROPERTIES EXPORT_NAME ${export_name})
  install(TARGETS ${ARG_TARGET} EXPORT layoutopt_targets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
          RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  get_property(installed GLOBAL PROPERTY LAYOUTOPT_INSTALLED_HEADER_FOLDERS)
  foreach(folder IN LISTS ARG_HEADERS)
    if(NOT folder IN_LIST installed)
      install(DIRECTORY ${folder}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
      set_property(GLOBAL APPEND PROPERTY LAYOUTOPT_INSTALLED_HEADER_FOLDERS ${folder})
    endif()
  endforeach()
endfunction()
