# Finds the external libraries and stops with a message that says which
# package to install (or which option turns the need off) when one is
# missing.  The runtime must link MPICH's MPI, not whatever `mpicc` the
# alternatives system points at today, so MPICH's compiler wrapper is
# preferred when nobody chose one.

function(ioatlas_missing what debian rhel option)
  if(option)
    set(_off " or configure with -D${option}=OFF")
  endif()
  message(FATAL_ERROR
    "ioatlas: ${what} not found: install ${debian} (Debian/Ubuntu) or "
    "${rhel} (RHEL family)${_off}")
endfunction()

find_package(Threads REQUIRED)

find_package(ZLIB QUIET)
if(NOT ZLIB_FOUND)
  ioatlas_missing("zlib" "zlib1g-dev" "zlib-devel" "")
endif()

# json-c: the tools' JSON (ioatlas parse --json, the analyses' results).
find_package(PkgConfig QUIET)
if(PkgConfig_FOUND)
  pkg_check_modules(JSONC QUIET IMPORTED_TARGET GLOBAL json-c)
endif()
if(NOT JSONC_FOUND)
  ioatlas_missing("json-c" "libjson-c-dev" "json-c-devel" "")
endif()

if(IOATLAS_WITH_MPI)
  if(NOT MPI_C_COMPILER)
    find_program(IOATLAS_MPICC_MPICH NAMES mpicc.mpich)
    find_program(IOATLAS_MPIEXEC_MPICH NAMES mpiexec.mpich)
    mark_as_advanced(IOATLAS_MPICC_MPICH IOATLAS_MPIEXEC_MPICH)
    if(IOATLAS_MPICC_MPICH AND IOATLAS_MPIEXEC_MPICH)
      set(MPI_C_COMPILER "${IOATLAS_MPICC_MPICH}" CACHE FILEPATH "MPI C compiler wrapper")
      set(MPIEXEC_EXECUTABLE "${IOATLAS_MPIEXEC_MPICH}" CACHE FILEPATH "MPI launcher")
    endif()
  endif()
  find_package(MPI COMPONENTS C QUIET)
  if(NOT MPI_C_FOUND)
    ioatlas_missing("MPI (MPICH)" "mpich libmpich-dev" "mpich-devel"
      IOATLAS_WITH_MPI)
  endif()
  if(NOT MPIEXEC_EXECUTABLE)
    ioatlas_missing("mpiexec" "mpich" "mpich" IOATLAS_WITH_MPI)
  endif()
  # Open MPI's headers only: libioatlas.so holds an MPI part for each ABI
  # family whose headers it finds (runtime/rt_mpi_abi.h).  Its compiler
  # wrapper says where they are; the usual places otherwise.
  if(NOT IOATLAS_OPENMPI_INCLUDE_DIRS)
    find_program(IOATLAS_MPICC_OPENMPI NAMES mpicc.openmpi)
    mark_as_advanced(IOATLAS_MPICC_OPENMPI)
    if(IOATLAS_MPICC_OPENMPI)
      execute_process(COMMAND "${IOATLAS_MPICC_OPENMPI}" --showme:incdirs
        OUTPUT_VARIABLE _ioa_ompi_inc OUTPUT_STRIP_TRAILING_WHITESPACE
        RESULT_VARIABLE _ioa_ompi_rc ERROR_QUIET)
      if(_ioa_ompi_rc EQUAL 0 AND _ioa_ompi_inc)
        separate_arguments(_ioa_ompi_inc UNIX_COMMAND "${_ioa_ompi_inc}")
      else()
        set(_ioa_ompi_inc "")
      endif()
    endif()
    if(NOT _ioa_ompi_inc)
      find_path(_ioa_ompi_path mpi.h NO_DEFAULT_PATH PATHS
        "/usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}/openmpi/include"
        "/usr/include/openmpi-${CMAKE_SYSTEM_PROCESSOR}" /usr/lib64/openmpi/include)
      if(_ioa_ompi_path)
        set(_ioa_ompi_inc "${_ioa_ompi_path}")
      endif()
      unset(_ioa_ompi_path CACHE)
    endif()
    set(IOATLAS_OPENMPI_INCLUDE_DIRS "${_ioa_ompi_inc}" CACHE STRING
      "Open MPI's include folders, for the runtime's Open MPI part (empty: none)")
  endif()
  if(NOT IOATLAS_OPENMPI_INCLUDE_DIRS)
    message(WARNING "Open MPI's headers not found: libioatlas.so will leave programs "
      "built with Open MPI unrecorded (install libopenmpi-dev or openmpi-devel, "
      "or set IOATLAS_OPENMPI_INCLUDE_DIRS)")
  endif()
endif()

if(IOATLAS_WITH_POSTGRES)
  find_package(PostgreSQL QUIET)
  if(NOT PostgreSQL_FOUND)
    ioatlas_missing("PostgreSQL client library (libpq)" "libpq-dev"
      "libpq-devel" IOATLAS_WITH_POSTGRES)
  endif()
endif()

if(IOATLAS_WITH_CURL)
  find_package(CURL QUIET)
  if(NOT CURL_FOUND)
    ioatlas_missing("libcurl" "libcurl4-openssl-dev" "libcurl-devel"
      IOATLAS_WITH_CURL)
  endif()
endif()
