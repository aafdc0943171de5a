-- 0010_io_libraries — the I/O libraries a job's program used (the log's
-- job key 34 `io_libraries`, common/ioa_logfmt.h: hdf5, netcdf, pnetcdf,
-- adios, adios2), so that the analyses phrase their advice for the layer
-- the user writes to (docs/analyses.md); and how the job's times were put
-- on one clock (job key 33 `clock`: its base, rank0 or wall, and with rank0
-- the worst rank's uncertainty and drift, in nanoseconds), so that every
-- time the warehouse holds comes with its precision.  NULL: not recorded
-- (an older runtime, an imported log; a clock NULL: each rank's times from
-- its own start).
ALTER TABLE jobs
	ADD COLUMN io_libraries text[],
	ADD COLUMN clock_base text CHECK (clock_base IN ('rank0', 'wall')),
	ADD COLUMN clock_uncertainty_ns bigint CHECK (clock_uncertainty_ns >= 0),
	ADD COLUMN clock_drift_ns bigint CHECK (clock_drift_ns >= 0);
