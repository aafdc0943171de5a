# Spack recipe for ioatlas.  Use it from this repository:
#     spack repo add packaging/spack
#     spack install ioatlas +postgres +curl ^mpich
# Checked by tests/packaging/t9005-recipes.

from spack.package import *


class Ioatlas(CMakePackage):
    """Always-on I/O characterization for HPC centers: a preloaded runtime
    that records every job's POSIX, STDIO and MPI-IO activity into one
    compressed log per job, a collector into PostgreSQL, nightly analyses,
    per-job reports and I/O kernels that replay a job's I/O."""

    homepage = "https://ioatlas.invalid/"
    git = "https://ioatlas.invalid/ioatlas.git"

    version("main", branch="main")

    variant("mpi", default=True, description="MPI-IO interposition and the job-wide log at MPI_Finalize")
    variant(
        "postgres",
        default=True,
        description="The collector, analyses, reports and kernels (PostgreSQL warehouse, libpq)",
    )
    variant("curl", default=True, description="The kernel repository client (libcurl)")
    variant(
        "logdir",
        default="/var/log/ioatlas",
        values=lambda x: x.startswith("/"),
        description="The site's log tree: the runtime's default and the modulefiles' setting",
    )

    # The kernel repository belongs to the kernel tools, which need the warehouse.
    conflicts("+curl", when="~postgres", msg="the kernel repository client is part of the +postgres tools")

    depends_on("c", type="build")
    depends_on("cmake@3.16:", type="build")
    depends_on("pkgconfig", type="build")

    depends_on("zlib-api")
    depends_on("bzip2")
    depends_on("xxhash")
    depends_on("json-c")
    depends_on("mpi", when="+mpi")
    depends_on("postgresql", when="+postgres")
    depends_on("openssl", when="+postgres")
    depends_on("curl", when="+curl")

    def cmake_args(self):
        args = [
            self.define_from_variant("IOATLAS_WITH_MPI", "mpi"),
            self.define_from_variant("IOATLAS_WITH_POSTGRES", "postgres"),
            self.define_from_variant("IOATLAS_WITH_CURL", "curl"),
            self.define_from_variant("IOATLAS_LOGDIR", "logdir"),
            self.define("IOATLAS_BUILD_TESTS", self.run_tests),
            self.define("CMAKE_INSTALL_LIBDIR", "lib"),
        ]
        # libioatlas.so holds an MPI part per ABI family (MPICH's, Open MPI's):
        # the chosen MPI's, found from its mpicc, and the other family's
        # when its headers are where the system keeps them.  The runtime
        # links neither; it binds to the program's MPI at run time.
        if self.spec.satisfies("+mpi"):
            args.append(self.define("MPI_C_COMPILER", self.spec["mpi"].mpicc))
        return args

    def setup_run_environment(self, env):
        # The runtime is turned on by the shipped modulefiles
        # (share/lmod/modulefiles, share/modulefiles), never by loading the
        # package itself: `spack load` must not preload it into every tool.
        env.prepend_path("PKG_CONFIG_PATH", self.prefix.lib.pkgconfig)
