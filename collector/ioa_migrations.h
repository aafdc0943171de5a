/*
 * ioa_migrations — the warehouse's schema migrations (warehouse/migrations),
 * compiled into the programs that apply them, in version order.
 */
#ifndef IOA_MIGRATIONS_H
#define IOA_MIGRATIONS_H

#include <stddef.h>

struct ioa_migration {
	int version;	  /* NNNN of NNNN_name.sql */
	const char *name; /* NNNN_name */
	const char *sql;
};

extern const struct ioa_migration ioa_migrations[];
extern const size_t ioa_migration_count;

#endif
