# Test registration for the TAP suite (see tests/README.md).  Kept in a
# module of its own so that the harness's self-test can drive the same
# registration in a scratch project and check how CTest judges TAP output.

set(IOATLAS_TEST_TIMEOUT 120 CACHE STRING "Default per-test timeout in seconds")
set(IOATLAS_SH_TEST_TEMPLATE "${CMAKE_CURRENT_LIST_DIR}/../tests/lib/sh-test.t.in")

# Registers an executable .t with CTest under its component's label.  Its
# timeout is also its cost: in a fresh tree (CI), which has no measured
# times yet, the long tests start first rather than end the run alone.
function(ioatlas_register_test component name path timeout)
  add_test(NAME "${component}/${name}" COMMAND "${path}")
  set_tests_properties("${component}/${name}" PROPERTIES
    LABELS "${component}"
    TIMEOUT "${timeout}"
    COST "${timeout}"
    SKIP_REGULAR_EXPRESSION "(^|\n)1\\.\\.0 # SKIP"
    FAIL_REGULAR_EXPRESSION "(^|\n)not ok ;(^|\n)Bail out!")
endfunction()

# ioatlas_c_test(<name> [LIBRARIES lib...] [TIMEOUT s])
#   Builds tests/<component>/<name>.c (plus the TAP helper) into <name>.t.
function(ioatlas_c_test name)
  cmake_parse_arguments(T "" "TIMEOUT" "LIBRARIES" ${ARGN})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT ${IOATLAS_TEST_TIMEOUT})
  endif()
  get_filename_component(component "${CMAKE_CURRENT_SOURCE_DIR}" NAME)
  set(target "test_${component}_${name}")
  add_executable(${target} "${name}.c")
  set_target_properties(${target} PROPERTIES OUTPUT_NAME "${name}" SUFFIX ".t")
  target_link_libraries(${target} PRIVATE ioatlas_tap ${T_LIBRARIES} ioatlas::build_flags)
  ioatlas_register_test(${component} ${name} ${target} ${T_TIMEOUT})
endfunction()

# ioatlas_sh_test(<name> [TIMEOUT s])
#   Wraps tests/<component>/<name>.sh into an executable <name>.t.
function(ioatlas_sh_test name)
  cmake_parse_arguments(T "" "TIMEOUT" "" ${ARGN})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT ${IOATLAS_TEST_TIMEOUT})
  endif()
  get_filename_component(component "${CMAKE_CURRENT_SOURCE_DIR}" NAME)
  set(IOA_TEST_SCRIPT "${CMAKE_CURRENT_SOURCE_DIR}/${name}.sh")
  # configure_file() sets permissions only from CMake 3.20 on: configure
  # aside, then copy in with the execute bits.
  set(staged "${PROJECT_BINARY_DIR}/staged-tests/${component}/${name}.t")
  configure_file("${IOATLAS_SH_TEST_TEMPLATE}" "${staged}" @ONLY)
  file(COPY "${staged}" DESTINATION "${CMAKE_CURRENT_BINARY_DIR}"
    FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE
                     GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
  ioatlas_register_test(${component} ${name} "${CMAKE_CURRENT_BINARY_DIR}/${name}.t"
    ${T_TIMEOUT})
endfunction()
