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

# bzip2: Darshan logs written with bzip2 regions (ioa_darshan, the tools only).
find_package(BZip2 QUIET)
if(NOT BZIP2_FOUND)
  ioatlas_missing("bzip2" "libbz2-dev" "bzip2-devel" "")
endif()

# libcrypto: SHA-256 of logs (the collector), keyed hashes of anonymized
# exports (ioa_anon), the kernel repositories' checksums; the tools only.
find_package(OpenSSL QUIET COMPONENTS Crypto)
if(NOT OpenSSL_FOUND)
  ioatlas_missing("OpenSSL (libcrypto)" "libssl-dev" "openssl-devel" "")
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
  # libioatlas.so holds an MPI part for each ABI family whose headers it
  # finds (runtime/rt_mpi_abi.h): MPICH's (MPICH, MVAPICH, Intel MPI) and
  # Open MPI's.  The MPI found above gives its family's; the other family's
  # come from its compiler wrapper or the usual places.  Headers only: the
  # runtime links no MPI.
  set(_ioa_found_family "")
  foreach(_dir ${MPI_C_INCLUDE_DIRS})
    if(NOT _ioa_found_family AND EXISTS "${_dir}/mpi.h")
      file(STRINGS "${_dir}/mpi.h" _ioa_marks REGEX "^#define[ \t]+(MPICH_VERSION|OPEN_MPI)[ \t]")
      if(_ioa_marks MATCHES "OPEN_MPI")
        set(_ioa_found_family openmpi)
      elseif(_ioa_marks MATCHES "MPICH_VERSION")
        set(_ioa_found_family mpich)
      endif()
    endif()
  endforeach()
  set(IOATLAS_MPI_FAMILY "${_ioa_found_family}" CACHE INTERNAL "the ABI family of the MPI found")
  foreach(_family mpich openmpi)
    string(TOUPPER "${_family}" _FAMILY)
    if(DEFINED IOATLAS_${_FAMILY}_INCLUDE_DIRS)
      continue()
    endif()
    set(_inc "")
    if(_ioa_found_family STREQUAL _family)
      set(_inc "${MPI_C_INCLUDE_DIRS}")
    elseif(_family STREQUAL openmpi)
      find_program(IOATLAS_MPICC_OPENMPI NAMES mpicc.openmpi)
      mark_as_advanced(IOATLAS_MPICC_OPENMPI)
      if(IOATLAS_MPICC_OPENMPI)
        execute_process(COMMAND "${IOATLAS_MPICC_OPENMPI}" --showme:incdirs
          OUTPUT_VARIABLE _inc OUTPUT_STRIP_TRAILING_WHITESPACE
          RESULT_VARIABLE _rc ERROR_QUIET)
        if(_rc EQUAL 0)
          separate_arguments(_inc UNIX_COMMAND "${_inc}")
        else()
          set(_inc "")
        endif()
      endif()
    endif()
    if(NOT _inc)
      if(_family STREQUAL openmpi)
        set(_places "/usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}/openmpi/include"
          "/usr/include/openmpi-${CMAKE_SYSTEM_PROCESSOR}" /usr/lib64/openmpi/include)
      else()
        set(_places "/usr/include/${CMAKE_LIBRARY_ARCHITECTURE}/mpich"
          "/usr/include/mpich-${CMAKE_SYSTEM_PROCESSOR}" /usr/lib64/mpich/include)
      endif()
      find_path(_ioa_family_path mpi.h NO_DEFAULT_PATH PATHS ${_places})
      if(_ioa_family_path)
        set(_inc "${_ioa_family_path}")
      endif()
      unset(_ioa_family_path CACHE)
    endif()
    set(IOATLAS_${_FAMILY}_INCLUDE_DIRS "${_inc}" CACHE STRING
      "${_family}'s include folders, for the runtime's ${_family} part (empty: none)")
  endforeach()
  if(NOT IOATLAS_MPICH_INCLUDE_DIRS AND NOT IOATLAS_OPENMPI_INCLUDE_DIRS)
    message(FATAL_ERROR "no MPI family's headers for the runtime: install libmpich-dev "
      "and libopenmpi-dev (mpich-devel, openmpi-devel), set IOATLAS_MPICH_INCLUDE_DIRS or "
      "IOATLAS_OPENMPI_INCLUDE_DIRS, or configure with -DIOATLAS_WITH_MPI=OFF")
  endif()
  foreach(_family mpich openmpi)
    string(TOUPPER "${_family}" _FAMILY)
    if(NOT IOATLAS_${_FAMILY}_INCLUDE_DIRS)
      message(WARNING "${_family}'s headers not found: libioatlas.so will leave programs "
        "of that MPI family unrecorded (install libmpich-dev or libopenmpi-dev, "
        "mpich-devel or openmpi-devel, or set IOATLAS_${_FAMILY}_INCLUDE_DIRS)")
    endif()
  endforeach()
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
