-- 0010_io_libraries — the I/O libraries a job's program used (the log's
-- job key 34 `io_libraries`, common/ioa_logfmt.h: hdf5, netcdf, pnetcdf,
-- adios, adios2), so that the analyses phrase their advice for the layer
-- the user writes to (docs/analyses.md).  NULL: not recorded (an older
-- runtime, an imported log).
ALTER TABLE jobs
	ADD COLUMN io_libraries text[];
