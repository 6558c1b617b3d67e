# CTest tests from PETSc-style /*TEST ... TEST*/ blocks, run by tests/harness/petsc_ctest.py.
#
#   simpvi_add_petsc_examples(LABEL <label> [LIBRARIES <lib>...] [CONF <header>...] [PYTHON] [ENVIRONMENT <VAR=value>...])
#
# For every *.c in the calling directory: an executable <label>-<base> (file name <base>) linked with
# LIBRARIES, and one test <label>-<testname> per test of its /*TEST*/ block (e.g. tutorials-ex1_simpson),
# labelled <label> and nsize<N>, with PROCESSORS <max nsize> and TIMEOUT = sum over its mpiexec runs (shared
# loops, subtests) of 60*timeoutfactor + 10 s. Exit code 77 (unmet requires:, TODO, SKIP) shows as "Skipped".
# PYTHON: every *.py instead, run by SIMPVI_PYTHON3 through a launcher <base> in the binary directory (the block
# sits in a string at the end of the script). ENVIRONMENT is added to the tests' environment.
# CONF are the config headers for requires: (default ${PROJECT_BINARY_DIR}/include/simpviconf.h).
# Tests get SIMPVI_LIBRARY=$<TARGET_FILE:simpvi> when a simpvi target exists, for `-dll_append ${SIMPVI_LIBRARY}`.
# Regenerate expected outputs with: SIMPVI_REGENERATE=1 ctest -R <test>
include_guard(GLOBAL)

# Resolved here: CMAKE_CURRENT_LIST_DIR means the caller's directory inside a function.
set(SIMPVI_PETSC_CTEST "${CMAKE_CURRENT_LIST_DIR}/../tests/harness/petsc_ctest.py")
cmake_path(NORMAL_PATH SIMPVI_PETSC_CTEST)

# /usr/bin/python3 first: Debian's Python, the one PETSc 3.18's scripts were packaged for (SIMPVI_PYTHON3 overrides).
if(NOT SIMPVI_PYTHON3)
  if(EXISTS /usr/bin/python3)
    set(_simpvi_python3 /usr/bin/python3)
  else()
    find_package(Python3 REQUIRED COMPONENTS Interpreter)
    set(_simpvi_python3 "${Python3_EXECUTABLE}")
  endif()
  set(SIMPVI_PYTHON3 "${_simpvi_python3}" CACHE FILEPATH "Python 3 that runs the PETSc test driver")
endif()

function(simpvi_add_petsc_examples)
  cmake_parse_arguments(PARSE_ARGV 0 arg "PYTHON" "LABEL" "LIBRARIES;CONF;ENVIRONMENT")
  if(NOT arg_LABEL)
    message(FATAL_ERROR "simpvi_add_petsc_examples: LABEL is required")
  endif()
  if(NOT arg_CONF)
    set(arg_CONF "${PROJECT_BINARY_DIR}/include/simpviconf.h")
  endif()
  list(TRANSFORM arg_CONF PREPEND "--conf;")
  set(ext c)
  if(arg_PYTHON)
    set(ext py)
  endif()
  set(driver "${SIMPVI_PYTHON3}" -B "${SIMPVI_PETSC_CTEST}")
  if(PETSC_PREFIX) # from pkg_search_module(PETSC ...): the PETSc whose testparse/petscdiff/petscconf.h to use
    list(APPEND driver --petsc-dir "${PETSC_PREFIX}")
  endif()
  # Evaluated when the tests run, so the simpvi target may be defined after this call.
  set(library "$<$<TARGET_EXISTS:simpvi>:$<TARGET_FILE:simpvi>>")

  file(GLOB sources CONFIGURE_DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/*.${ext}")
  list(SORT sources)
  foreach(src IN LISTS sources)
    get_filename_component(base "${src}" NAME_WE)
    set(exe "${arg_LABEL}-${base}")
    # Editing a /*TEST*/ block must re-run the listing below.
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${src}")
    execute_process(COMMAND ${driver} list "${src}" ${arg_CONF}
      OUTPUT_VARIABLE listing ERROR_VARIABLE error RESULT_VARIABLE result)
    if(NOT result EQUAL 0)
      message(FATAL_ERROR "petsc_ctest.py list ${src} failed:\n${error}")
    elseif(error)
      message(WARNING "petsc_ctest.py list ${src}:\n${error}")
    endif()

    # Lines are: name TAB nsize TAB timeout-seconds TAB buildable (0 when a build: requires is not met)
    string(REGEX REPLACE "\n$" "" listing "${listing}")
    string(REPLACE "\n" ";" lines "${listing}")
    set(buildable 1)
    foreach(line IN LISTS lines)
      string(REPLACE "\t" ";" fields "${line}")
      list(GET fields 3 buildable)
    endforeach()
    if(buildable AND arg_PYTHON)
      # mpiexec runs the launcher, so the harness's -petsc_ci and the test's args reach the script's sys.argv
      file(GENERATE OUTPUT "${CMAKE_CURRENT_BINARY_DIR}/${base}" CONTENT "#!/bin/sh\nexec '${SIMPVI_PYTHON3}' -B '${src}' \"$@\"\n"
        FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
      set(exe_args --exe "${CMAKE_CURRENT_BINARY_DIR}/${base}")
    elseif(buildable)
      add_executable(${exe} "${src}")
      set_target_properties(${exe} PROPERTIES OUTPUT_NAME ${base})
      target_link_libraries(${exe} PRIVATE ${arg_LIBRARIES})
      set(exe_args --exe "$<TARGET_FILE:${exe}>")
    else()
      set(exe_args "") # not built: every test of the file reports the unmet requires: as skipped
    endif()

    foreach(line IN LISTS lines)
      string(REPLACE "\t" ";" fields "${line}")
      list(GET fields 0 name)
      list(GET fields 1 nsize)
      list(GET fields 2 timeout)
      set(test "${arg_LABEL}-${name}")
      add_test(NAME ${test} COMMAND ${driver} run "${src}" ${name} ${exe_args} ${arg_CONF}
        --tmpdir "${CMAKE_CURRENT_BINARY_DIR}/petsc_ctest") # failed runs stay there for inspection
      set_tests_properties(${test} PROPERTIES
        LABELS "${arg_LABEL};nsize${nsize}"
        SKIP_RETURN_CODE 77
        TIMEOUT ${timeout}
        PROCESSORS ${nsize} # ctest -j counts MPI ranks, not tests
        ENVIRONMENT "SIMPVI_LIBRARY=${library};${arg_ENVIRONMENT}") # a trailing ; when none is harmless
    endforeach()
  endforeach()
endfunction()
