# ioatlas::build_flags — the compile and link settings every ioatlas target
# takes, as an interface target linked PRIVATE so nothing leaks to users of
# the installed libraries; ioatlas::base_flags, the same but the sanitizers.
#
#   target_link_libraries(mytarget PRIVATE ioatlas::build_flags)

add_library(ioatlas_build_flags INTERFACE)
add_library(ioatlas::build_flags ALIAS ioatlas_build_flags)
# The same without the sanitizers, for what must not run sanitized (a
# set-group-ID helper: LeakSanitizer cannot run in one).
add_library(ioatlas_base_flags INTERFACE)
add_library(ioatlas::base_flags ALIAS ioatlas_base_flags)
target_link_libraries(ioatlas_build_flags INTERFACE ioatlas_base_flags)

target_compile_features(ioatlas_base_flags INTERFACE c_std_11)
target_compile_definitions(ioatlas_base_flags INTERFACE _POSIX_C_SOURCE=200809L)

if(CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
  target_compile_options(ioatlas_base_flags INTERFACE
    -Wall -Wextra -Wpedantic -Wshadow -Wformat=2)
  if(IOATLAS_WERROR)
    target_compile_options(ioatlas_base_flags INTERFACE -Werror)
  endif()
  if(IOATLAS_SANITIZE)
    set(_ioa_san "-fsanitize=${IOATLAS_SANITIZE}")
    target_compile_options(ioatlas_build_flags INTERFACE
      ${_ioa_san} -fno-omit-frame-pointer -fno-sanitize-recover=all)
    target_link_options(ioatlas_build_flags INTERFACE ${_ioa_san})
  endif()
elseif(IOATLAS_WERROR OR IOATLAS_SANITIZE)
  message(FATAL_ERROR
    "IOATLAS_WERROR and IOATLAS_SANITIZE need GCC or Clang, "
    "not ${CMAKE_C_COMPILER_ID}")
endif()

# Plain C11 without GNU extensions: code that needs a GNU or BSD interface
# asks for it with a feature macro at the top of its .c file.
set(CMAKE_C_EXTENSIONS OFF)
