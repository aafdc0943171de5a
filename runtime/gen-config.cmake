# Run at build time (cmake -P) by runtime/CMakeLists.txt: fills the wrap
# flags printed by rt-wraplist into ioatlas-config and ioatlas.pc.
file(READ "${WRAP_FILE}" IOATLAS_WRAP_FLAGS)
string(STRIP "${IOATLAS_WRAP_FLAGS}" IOATLAS_WRAP_FLAGS)
get_filename_component(out_dir "${OUT}" DIRECTORY)
get_filename_component(out_name "${OUT}" NAME)
configure_file("${IN}" "${out_dir}/.staged/${out_name}" @ONLY)
if(EXECUTABLE)
  set(perms OWNER_EXECUTE GROUP_EXECUTE WORLD_EXECUTE)
endif()
file(COPY "${out_dir}/.staged/${out_name}" DESTINATION "${out_dir}"
  FILE_PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ ${perms})
