/*
 * rt_pnetcdf_calls — the tables of the PnetCDF calls the runtime intercepts.
 *
 * rt_pnetcdf.c expands them into one wrapper per call, named as the call
 * (LD_PRELOAD only).  The types are the ABI's (rt_pnetcdf.h): no PnetCDF
 * header is needed to build the runtime.
 *
 * RT_NC_CALLS: the file and variable calls other than reads and writes,
 *
 *	X(name, (parameters), (arguments), KIND, kind arguments...)
 *
 * KIND names the body macro RT_NC_BODY_<KIND>:
 *
 *	FOPEN path, ncid pointer, created       ncmpi_create, ncmpi_open
 *	FCLOSE ncid                             ncmpi_close, ncmpi_abort
 *	FMETA ncid, counter (-1: none)          redef, enddef, sync, flush
 *	VOPEN ncid, name, varid pointer         a variable defined or looked up
 *	WAIT ncid, collective                   the waits of non-blocking calls
 *
 * RT_NC_IO_CALLS: the reads and writes, every operation (put, get, the
 * non-blocking iput, iget and buffered bput) of every access kind (var
 * the whole variable, var1 one element, vara a subarray, vars strided,
 * varm mapped, varn several subarrays), in the flexible form (a buffer
 * count and an MPI datatype) and one form per C type, independent and,
 * for blocking ones, collective (_all):
 *
 *	Y(operation, access kind, C type suffix, _all or nothing, FLEX or TYPED)
 *
 * The vard calls (an MPI file type) are in RT_NC_VARD_CALLS, and the
 * multi-variable ones (mput, mget: a request per variable, of var, var1,
 * vara, vars or varm) in RT_NC_M_CALLS, with Y as above.
 */
#ifndef RT_PNETCDF_CALLS_H
#define RT_PNETCDF_CALLS_H

#define RT_NC_CALLS(X)                                                                             \
	X(ncmpi_create,                                                                            \
	  (rt_nc_handle comm, const char *path, int cmode, rt_nc_handle info, int *ncidp),         \
	  (comm, path, cmode, info, ncidp), FOPEN, path, ncidp, 1)                                 \
	X(ncmpi_open,                                                                              \
	  (rt_nc_handle comm, const char *path, int omode, rt_nc_handle info, int *ncidp),         \
	  (comm, path, omode, info, ncidp), FOPEN, path, ncidp, 0)                                 \
	X(ncmpi_close, (int ncid), (ncid), FCLOSE, ncid)                                           \
	X(ncmpi_abort, (int ncid), (ncid), FCLOSE, ncid)                                           \
	X(ncmpi_redef, (int ncid), (ncid), FMETA, ncid, PNETCDF_FILE_REDEFS)                       \
	X(ncmpi_enddef, (int ncid), (ncid), FMETA, ncid, -1)                                       \
	X(ncmpi__enddef,                                                                           \
	  (int ncid, long long h_minfree, long long v_align, long long v_minfree,                  \
	   long long r_align),                                                                     \
	  (ncid, h_minfree, v_align, v_minfree, r_align), FMETA, ncid, -1)                         \
	X(ncmpi_sync, (int ncid), (ncid), FMETA, ncid, PNETCDF_FILE_SYNCS)                         \
	X(ncmpi_flush, (int ncid), (ncid), FMETA, ncid, PNETCDF_FILE_SYNCS)                        \
	X(ncmpi_def_var,                                                                           \
	  (int ncid, const char *name, int xtype, int ndims, const int *dimids, int *varidp),      \
	  (ncid, name, xtype, ndims, dimids, varidp), VOPEN, ncid, name, varidp)                   \
	X(ncmpi_inq_varid, (int ncid, const char *name, int *varidp), (ncid, name, varidp), VOPEN, \
	  ncid, name, varidp)                                                                      \
	X(ncmpi_wait, (int ncid, int count, int *requests, int *statuses),                         \
	  (ncid, count, requests, statuses), WAIT, ncid, 0)                                        \
	X(ncmpi_wait_all, (int ncid, int count, int *requests, int *statuses),                     \
	  (ncid, count, requests, statuses), WAIT, ncid, 1)

/* Every C type form of one call, and its flexible form. */
#define RT_NC_FORMS(Y, op, kind, all)                                                  \
	Y(op, kind, , all, FLEX)                                                       \
	Y(op, kind, _text, all, TYPED)                                                 \
	Y(op, kind, _schar, all, TYPED)                                                \
	Y(op, kind, _uchar, all, TYPED)                                                \
	Y(op, kind, _short, all, TYPED) Y(op, kind, _ushort, all, TYPED)               \
		Y(op, kind, _int, all, TYPED) Y(op, kind, _uint, all, TYPED)           \
			Y(op, kind, _long, all, TYPED) Y(op, kind, _float, all, TYPED) \
				Y(op, kind, _double, all, TYPED)                       \
					Y(op, kind, _longlong, all, TYPED)             \
						Y(op, kind, _ulonglong, all, TYPED)

#define RT_NC_KINDS(Y, op, all)       \
	RT_NC_FORMS(Y, op, var, all)  \
	RT_NC_FORMS(Y, op, var1, all) \
	RT_NC_FORMS(Y, op, vara, all) \
	RT_NC_FORMS(Y, op, vars, all) RT_NC_FORMS(Y, op, varm, all) RT_NC_FORMS(Y, op, varn, all)

#define RT_NC_IO_CALLS(Y)         \
	RT_NC_KINDS(Y, put, )     \
	RT_NC_KINDS(Y, put, _all) \
	RT_NC_KINDS(Y, get, )     \
	RT_NC_KINDS(Y, get, _all) \
	RT_NC_KINDS(Y, iput, ) RT_NC_KINDS(Y, iget, ) RT_NC_KINDS(Y, bput, )

#define RT_NC_VARD_CALLS(Y) Y(put, ) Y(put, _all) Y(get, ) Y(get, _all)

#define RT_NC_M_KINDS(Y, op, all)     \
	RT_NC_FORMS(Y, op, var, all)  \
	RT_NC_FORMS(Y, op, var1, all) \
	RT_NC_FORMS(Y, op, vara, all) RT_NC_FORMS(Y, op, vars, all) RT_NC_FORMS(Y, op, varm, all)

#define RT_NC_M_CALLS(Y)         \
	RT_NC_M_KINDS(Y, mput, ) \
	RT_NC_M_KINDS(Y, mput, _all) RT_NC_M_KINDS(Y, mget, ) RT_NC_M_KINDS(Y, mget, _all)

#endif
