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
